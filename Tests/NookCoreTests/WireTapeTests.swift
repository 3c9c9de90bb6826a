import NookTestSupport
import Testing
@testable import NookCore

private typealias F = PlannerFixture

/// A plan's `wireTape` is its `wireDictionary` in wire order: token for token the tape of that
/// dictionary (`WireTape(dictionary:)`, which NookBus's `WireTapeMessageTests` check writes
/// the dictionary's bytes), in every form a subscriber gets.
@Suite struct WireTapeTests {
    @Test func randomPlansWriteTheTapeOfTheirWireDictionary() {
        var failures: [String] = []
        let seed = PlanWireRoundTripTests.randomPlans(200) { round, plan, before in
            for (form, tape, dictionary) in [
                ("whole", plan.wireTape(), plan.wireDictionary()),
                ("sampled", plan.wireTape(sampleRate: 60), plan.wireDictionary(sampleRate: 60)),
                ("delta", plan.wireTape(base: (2, before)), plan.wireDictionary(base: (2, before))),
                ("compact delta", plan.wireTape(base: (2, before), compact: true), plan.wireDictionary(base: (2, before), compact: true)),
                ("sampled compact delta", plan.wireTape(sampleRate: 30, base: (2, before), compact: true),
                 plan.wireDictionary(sampleRate: 30, base: (2, before), compact: true)),
            ] {
                let expected = WireTape(dictionary: dictionary)
                if tape != expected { failures.append("round \(round) \(form): \(Self.difference(tape, expected))") }
            }
        }
        #expect(failures.isEmpty, "seed \(seed) (NOOK_TEST_SEED=\(seed) replays it): \(failures.count) failures, first: \(failures.prefix(3))")
    }

    /// A delta's scene against a base whose nodes moved and went, with marks suppressed:
    /// the hand-picked case of `aContentUpdateWithADeltaIsCompactAndReadsAsTheWholePlan`.
    @Test func aContentUpdatesDeltaWritesTheTapeOfItsWireDictionary() {
        let before = F.scene(.expanded, F.songContent(expanded: .activity(F.owned("music/song", F.songExpanded))))
        let after = F.scene(.expanded, F.songContent(expanded: .activity(F.owned("music/song",
            F.vstack([F.cover(120), F.text("Song title", size: 17), F.text("Artest")])))))
        let plan = F.plan(before, after, cause: .activityUpdated, serial: 2)
        for compact in [false, true] {
            let tape = plan.wireTape(base: (1, before), compact: compact)
            #expect(tape == WireTape(dictionary: plan.wireDictionary(base: (1, before), compact: compact)))
            #expect(tape.dictionary == plan.wireDictionary(base: (1, before), compact: compact))
        }
    }

    /// Reading a tape back gives the dictionary it was made of.
    @Test func theTapeOfADictionaryReadsBackAsIt() {
        var failures: [Int] = []
        let seed = PlanWireRoundTripTests.randomPlans(50) { round, plan, before in
            let dictionary = plan.wireDictionary(base: (2, before), compact: round % 2 == 0)
            if WireTape(dictionary: dictionary).dictionary != dictionary { failures.append(round) }
        }
        #expect(failures.isEmpty, "seed \(seed) (NOOK_TEST_SEED=\(seed) replays it): rounds \(failures.prefix(5))")
    }

    /// The first token that differs, for a readable failure.
    static func difference(_ a: WireTape, _ b: WireTape) -> String {
        guard let index = zip(a.tokens, b.tokens).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset else {
            return "\(a.tokens.count) vs \(b.tokens.count) tokens"
        }
        return "token \(index): \(a.tokens[index]) vs \(b.tokens[index]), after \(a.tokens[max(0, index - 3)..<index])"
    }
}
