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
}
