import NookTestSupport
import Testing
@testable import NookCore

private typealias F = PlannerFixture
private typealias G = PlannerPropertyTests

/// The tape writer's shortcuts give what the general path gives: a scene node's entry
/// written key by key is the tape of its `wireEntry` dictionary, and a slot compared in place
/// (same shape) gives the node-by-node delta.
@Suite struct WireTapeShortcutTests {
    /// A node with every prop set, variants and expanded classes: each key the entry can hold.
    static func fullNode() -> SceneNode {
        var props = NodeProps()
        props.width = 1; props.height = 2; props.minWidth = 3; props.maxWidth = 4; props.minHeight = 5; props.maxHeight = 6
        props.padding = EdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4)
        props.opacity = 0.5; props.classes = "card p-1"; props.group = "hero"
        props.groupState = ["hover": true, "active": false, "focus_visible": true, "a": false]
        props.identity = "row"; props.role = .header; props.animationValue = "v1"
        props.shared = SharedMark(id: "cover", style: .scale, namespace: "ns", properties: .position, anchor: .topLeading, isSource: false)
        props.animate = false; props.action = "play"; props.actionLabel = "Play"
        props.spacing = 7; props.alignment = .trailing; props.stagger = true
        props.text = "Title"; props.fontSize = 13; props.fontWeight = "bold"; props.monospacedDigits = true; props.timerEnd = 1_700_000_000
        props.symbol = "music.note"; props.uri = "file:///a.png"; props.shape = .roundedRect; props.cornerRadius = 4; props.color = "#fff"
        props.value = 0.4; props.start = -5; props.end = 99; props.progressStyle = .circular; props.minLength = 8; props.lineLimit = 2
        props.name = "CoverArt"; props.params = ["size": .double(2), "label": .string("x"), "nested": .dictionary(["b": .bool(true)])]
        let variant = ResolvedVariant(conditions: [ResolvedCondition(state: "hover", groupPath: "expanded")], utility: "opacity-50",
                                      token: "opacity-50")
        return SceneNode(slot: .expanded, owner: "music/song", path: "expanded/0/2", kind: .text,
                         rect: Rect(x: 1, y: 2, width: 30, height: 40), props: props, variants: [variant, variant],
                         expandedClasses: "w-20 p-1")
    }

    /// `appendSceneNode` against `WireTape(dictionary:)` of the node's `wireEntry` (plus
    /// `index`), suppressed or not, on the full node and on every node of random plans.
    @Test func aSceneNodesTapeIsTheTapeOfItsWireEntry() {
        var failures: [String] = []
        func check(_ node: SceneNode, in scene: PlannerScene, index: Int?) {
            var entry = scene.wireEntry(for: node)
            if let index { entry["index"] = .uint(UInt64(index)) }
            var tape = WireTape()
            tape.appendSceneNode(node, index: index, suppressed: scene.suppressed.contains(node.path))
            let expected = WireTape(dictionary: entry)
            if tape != expected { failures.append("\(node.path): \(WireTapeTests.difference(tape, expected))") }
        }
        var scene = F.scene(.expanded, SceneContent())
        let full = Self.fullNode()
        // 39 props, slot, owner, path, kind, rect, variants, expanded classes (suppressed and index below).
        #expect(scene.wireEntry(for: full).count == 46)
        for index in [nil, 0, 12] as [Int?] { check(full, in: scene, index: index) }
        scene.suppressed = [full.path]
        check(full, in: scene, index: 3)
        check(SceneNode(slot: .peek, owner: "a", path: "a:peek", kind: .spacer, rect: Rect(x: 0, y: 0, width: 0, height: 0),
                        props: NodeProps()), in: scene, index: nil)
        var checked = 0
        let seed = PlanWireRoundTripTests.randomPlans(150) { round, plan, _ in
            var scene = plan.scene
            if round % 3 == 0, let path = scene.nodes.randomElement()?.path { scene.suppressed.insert(path) }
            for (index, node) in scene.nodes.enumerated() {
                check(node, in: scene, index: round % 2 == 0 ? index : nil)
                checked += 1
            }
        }
        #expect(checked > 400)
        #expect(failures.isEmpty, "seed \(seed) (NOOK_TEST_SEED=\(seed) replays it): \(failures.count) failures, first: \(failures.prefix(3))")
    }

    /// `view` with the same shape, some nodes' props changed (texts, sizes, classes naming a
    /// theme rule or a group variant), so its slot is compared in place.
    fileprivate static func reshaped(_ view: ViewNode, _ generator: inout G.Generator) -> ViewNode {
        var view = view
        switch Int.random(in: 0..<6, using: &generator.rng) {
        case 0: view.props.text = "t\(Int.random(in: 0..<4, using: &generator.rng))"
        case 1: view.props.fontSize = Double(Int.random(in: 10...12, using: &generator.rng))
        case 2: view.props.classes = ["card", "group/hero", "group-hover/hero:opacity-50", "p-1", nil].randomElement(using: &generator.rng)!
        case 3: view.props.opacity = generator.chance(0.5) ? nil : 0.5
        default: break
        }
        view.children = view.children.map { reshaped($0, &generator) }
        return view
    }

    /// `wireDeltaNodes` on chains of updates that keep every view's shape (so slots are
    /// compared in place) gives the node-by-node delta, suppression included, and the tapes
    /// of those plans are the tapes of their dictionaries.
    @Test func inPlaceSlotDeltasAreTheNodeByNodeOnes() throws {
        let theme = try Theme.builtIn.applying(["rules.named.card": .string("w-20 p-1 group-hover/hero:opacity-70")])
        let settings = F.settings(theme: theme)
        let seed = SeededGenerator.runSeed()
        var generator = G.Generator(rng: SeededGenerator(seed: seed))
        var failures: [String] = []
        var compared = 0, upserts = 0
        func check(_ scene: PlannerScene, _ base: PlannerScene, _ what: String) {
            compared += 1
            let differences = WireShortcutTests.deltaDifferences(scene, base, what)
            failures += differences.failures
            upserts += differences.upserts
        }
        let presentations: [Presentation] = [.pill, .peek, .expanded, .companion]
        for round in 0..<40 {
            let presentation = presentations.randomElement(using: &generator.rng)!
            var content = generator.content()
            var sent = F.plan(F.scene(.hidden, SceneContent(), settings), F.scene(presentation, content, settings),
                              cause: .subscribe, serial: 1, settings: settings)
            for serial in 2..<8 as Range<UInt64> {
                if var leading = content.compactLeading { leading.view = Self.reshaped(leading.view, &generator); content.compactLeading = leading }
                if var trailing = content.compactTrailing { trailing.view = Self.reshaped(trailing.view, &generator); content.compactTrailing = trailing }
                if var peek = content.peek { peek.view = Self.reshaped(peek.view, &generator); content.peek = peek }
                if case .activity(var owned)? = content.expanded { owned.view = Self.reshaped(owned.view, &generator); content.expanded = .activity(owned) }
                let next = PlannerScene(presentation: presentation, content: content, settings: settings, reusing: [sent.scene])
                let plan = F.plan(sent.scene, next, cause: .activityUpdated, serial: serial, settings: settings)
                check(plan.scene, sent.scene, "round \(round) serial \(serial)")
                var suppressed = plan.scene
                if let path = suppressed.nodes.randomElement(using: &generator.rng)?.path { suppressed.suppressed = [path] }
                var suppressedBase = sent.scene
                suppressedBase.suppressed = suppressed.suppressed
                check(suppressed, suppressedBase, "round \(round) serial \(serial) suppressed")
                for compact in [false, true] {
                    let tape = plan.wireTape(base: (serial - 1, sent.scene), compact: compact)
                    let expected = WireTape(dictionary: plan.wireDictionary(base: (serial - 1, sent.scene), compact: compact))
                    if tape != expected { failures.append("round \(round) serial \(serial) tape: \(WireTapeTests.difference(tape, expected))") }
                }
                sent = plan
            }
        }
        #expect(compared == 480)
        #expect(upserts > 200, "the chains change nodes in place")
        #expect(failures.isEmpty, "seed \(seed) (NOOK_TEST_SEED=\(seed) replays it): \(failures.count) failures, first: \(failures.prefix(3))")
    }
}
