import NookTestSupport
import Testing
@testable import NookCore

private typealias F = PlannerFixture
private typealias G = PlannerPropertyTests

/// The planner's shortcuts (taken for speed on small scenes, docs/PERFORMANCE.md) give exactly
/// what the full computation gives, on random scenes.
@Suite struct PlannerShortcutTests {
    /// When `SurfaceMatching.nothingMoves` holds, full matching pairs nothing, says nothing, and
    /// each side's suffixing diagnostics are those `SurfaceMatching.suffixing` gives.
    @Test func whenNothingMovesMatchingPairsAndSaysNothingButSuffixing() {
        let seed = SeededGenerator.runSeed()
        var generator = G.Generator(rng: SeededGenerator(seed: seed))
        let settings = F.settings()
        let presentations: [Presentation] = [.hidden, .pill, .peek, .expanded, .companion]
        var failures: [String] = []
        var taken = 0
        for round in 0..<600 {
            var content = generator.content()
            let presentation = presentations.randomElement(using: &generator.rng)!
            // Mostly an update of an unmarked text beside marked views (a publish update).
            var next = content
            if generator.chance(0.8) {
                let owner = content.compactLeading?.owner ?? "music/song"
                content.compactTrailing = F.owned(owner, F.text("track \(round)", size: 11))
                next.compactTrailing = F.owned(owner, F.text("track \(round + 1)", size: 11))
            } else if generator.chance(0.5) {
                next = generator.content()
            }
            let before = F.scene(presentation, content, settings)
            let after = generator.chance(0.5)
                ? PlannerScene(presentation: generator.chance(0.9) ? presentation : .pill, content: next, settings: settings, reusing: [before])
                : F.scene(presentation, next, settings)
            let given: [String: ModuleMarks]? = generator.chance(0.5)
                ? nil
                : Dictionary(uniqueKeysWithValues: ["music", "timer"].map { ($0, ModuleMarks.reading(module: $0, in: [before, after])) })
            let action = PlanAction(cause: .activityUpdated, serial: 2)
            var builder = PlanBuilder(before: before, after: after, action: action, settings: settings, inFlight: nil,
                                      marks: MarkReader(given: given, before: before, after: after))
            builder.diffSlots()
            let staying = (builder.stayingOld, builder.stayingNew)
            guard SurfaceMatching.nothingMoves(before: before, after: after, staying: staying) else { continue }
            taken += 1
            var marks = MarkReader(given: given, before: before, after: after)
            let matching = SurfaceMatching(before: before, after: after, staying: staying, marks: &marks)
            var shortcutMarks = MarkReader(given: given, before: before, after: after)
            let suffixing = SurfaceMatching.suffixing(before, marks: &shortcutMarks)
            if !matching.pairs.isEmpty { failures.append("round \(round): \(matching.pairs.count) pairs") }
            if !matching.diagnostics.isEmpty { failures.append("round \(round): \(matching.diagnostics.map(\.message))") }
            if matching.old.suffixing != suffixing || matching.new.suffixing != suffixing {
                failures.append("round \(round): suffixing \(suffixing.count) vs \(matching.old.suffixing.count), \(matching.new.suffixing.count)")
            }
        }
        #expect(failures.isEmpty, "seed \(seed) (NOOK_TEST_SEED=\(seed) replays it): \(failures.count) failures, first: \(failures.prefix(3))")
        #expect(taken > 200)
    }
}
