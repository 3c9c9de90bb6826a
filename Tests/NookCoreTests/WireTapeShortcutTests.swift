import NookTestSupport
import Testing
@testable import NookCore

private typealias F = PlannerFixture

/// The tape writer's shortcuts give what the general path gives: a scene node's entry
/// written key by key is the tape of its `wireEntry` dictionary.
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
        props.value = 0.4; props.start = -5; props.end = 99; props.progressStyle = .circular; props.minLength = 8
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
        // 38 props, slot, owner, path, kind, rect, variants, expanded classes (suppressed and index below).
        #expect(scene.wireEntry(for: full).count == 45)
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
}
