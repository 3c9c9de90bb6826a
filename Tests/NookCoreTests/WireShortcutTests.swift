import NookTestSupport
import Testing
@testable import NookCore

private typealias F = PlannerFixture
private typealias G = PlannerPropertyTests

/// The wire encoders' shortcuts (taken for speed, docs/PERFORMANCE.md "Small-scene planning")
/// give exactly what the obvious way of building the same entries gives, on random scenes.
@Suite struct WireShortcutTests {
    /// Random scene pairs, most on the same content (as a content update's are).
    static func scenePairs(_ count: Int, _ body: (PlannerScene, PlannerScene) -> Void) -> UInt64 {
        let seed = SeededGenerator.runSeed()
        var generator = G.Generator(rng: SeededGenerator(seed: seed))
        let presentations: [Presentation] = [.hidden, .pill, .peek, .expanded, .companion]
        for _ in 0..<count {
            let content = generator.content()
            let settings = F.settings()
            let first = F.scene(presentations.randomElement(using: &generator.rng)!, content, settings)
            let second = F.scene(generator.chance(0.5) ? first.presentation : presentations.randomElement(using: &generator.rng)!,
                                 generator.chance(0.5) ? content : generator.content(), settings)
            body(first, second)
        }
        return seed
    }

    /// A compact delta's frame leaves out exactly the entries the base's own frame writes the
    /// same (compared here by building both frames, as the encoder once did).
    @Test func aCompactFrameLeavesOutExactlyWhatTheBaseWritesTheSame() {
        var failures: [String] = []
        let seed = Self.scenePairs(300) { base, scene in
            let obvious = scene.wireFrame.filter { base.wireFrame[$0.key] != $0.value }
            let shortcut = scene.wireFrame(leavingOutWhatMatches: base)
            if shortcut != obvious { failures.append("\(shortcut.keys.sorted()) vs \(obvious.keys.sorted())") }
            if scene.wireFrame(leavingOutWhatMatches: scene) != [:] { failures.append("a scene against itself") }
        }
        #expect(failures.isEmpty, "seed \(seed) (NOOK_TEST_SEED=\(seed) replays it): \(failures.count) failures, first: \(failures.prefix(3))")
    }

    /// How `wireDeltaNodes` and the node-by-node delta differ for `scene` against `base` (none
    /// when they agree), and how many nodes the delta upserts.
    static func deltaDifferences(_ scene: PlannerScene, _ base: PlannerScene, _ what: String) -> (failures: [String], upserts: Int) {
        let fast = scene.wireDeltaNodes(from: base)
        let slow = scene.wireDeltaNodesByNode(from: base)
        guard let fast, let slow else {
            return ((fast == nil) != (slow == nil) ? ["\(what): nil \(fast == nil) vs \(slow == nil)"] : [], 0)
        }
        var failures: [String] = []
        if fast.upserted.map(\.index) != slow.upserted.map(\.index) || fast.upserted.map(\.node) != slow.upserted.map(\.node) {
            failures.append("\(what): upserted \(fast.upserted.map(\.index)) vs \(slow.upserted.map(\.index))")
        }
        if fast.removed != slow.removed { failures.append("\(what): removed \(fast.removed.count) vs \(slow.removed.count)") }
        return (failures, fast.upserted.count)
    }

    /// `wireDeltaNodes` (slot by slot, unchanged slots never built into nodes) gives exactly
    /// the node-by-node delta, on random pairs and on chains of small edits whose scenes reuse
    /// the last one's slots (as the broker's content updates do), suppression included.
    @Test func aSlotBySlotDeltaIsTheNodeByNodeOne() {
        var failures: [String] = []
        var compared = 0
        func check(_ scene: PlannerScene, _ base: PlannerScene, _ what: String) {
            compared += 1
            failures += Self.deltaDifferences(scene, base, what).failures
        }
        var seed = Self.scenePairs(400) { base, scene in
            check(scene, base, "pair")
            check(scene, scene, "itself")
            var suppressed = scene
            if let path = scene.nodes.last?.path { suppressed.suppressed = [path] }
            check(suppressed, scene, "suppressed")
            check(scene, suppressed, "unsuppressed")
        }
        #expect(failures.isEmpty, "seed \(seed) (NOOK_TEST_SEED=\(seed) replays it): \(failures.count) failures, first: \(failures.prefix(3))")
        failures = []
        seed = SeededGenerator.runSeed()
        var generator = G.Generator(rng: SeededGenerator(seed: seed))
        let settings = F.settings()
        let presentations: [Presentation] = [.pill, .peek, .expanded, .companion]
        for _ in 0..<60 {
            let presentation = presentations.randomElement(using: &generator.rng)!
            var content = generator.content()
            var sent = F.plan(F.scene(.hidden, SceneContent()), F.scene(presentation, content, settings), cause: .subscribe, serial: 1)
            for serial in 2..<12 as Range<UInt64> {
                // One view changed, or a capsule gone, or the capsules swapped, or nothing.
                switch Int.random(in: 0..<5, using: &generator.rng) {
                case 0: content.compactTrailing?.view = generator.view(depth: 1)
                case 1: content.peek?.view = generator.view()
                case 2: if !content.minimal.isEmpty { content.minimal.removeLast() }
                case 3: content.minimal.reverse()
                default: break
                }
                let next = PlannerScene(presentation: generator.chance(0.8) ? presentation : .pill, content: content, settings: settings,
                                        reusing: [sent.scene])
                let plan = F.plan(sent.scene, next, cause: .activityUpdated, serial: serial)
                check(plan.scene, sent.scene, "chain serial \(serial)")
                sent = plan
            }
        }
        #expect(failures.isEmpty, "seed \(seed) (NOOK_TEST_SEED=\(seed) replays it): \(failures.count) failures, first: \(failures.prefix(3))")
        #expect(compared > 2000)
    }
}
