import Foundation
import Testing
@testable import NookCore

private typealias F = PlannerFixture

/// Golden plans for the seed documents' own examples, in `Goldens/*.txt`.
///
/// A missing or different golden fails the test and writes what the planner produced next to
/// it as `<name>.actual`. Review that file by eye; only when it is right, rename it over the
/// golden. Never regenerate goldens wholesale.
@Suite struct PlannerGoldenTests {
    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")

    func check(_ name: String, _ plans: [TransitionPlan], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let actual = plans.map(\.rendering).joined(separator: "\n")
        let golden = Self.goldens.appendingPathComponent(name + ".txt")
        let pending = Self.goldens.appendingPathComponent(name + ".actual")
        let expected = try? String(contentsOf: golden, encoding: .utf8)
        if expected == actual {
            try? FileManager.default.removeItem(at: pending)
            return
        }
        try FileManager.default.createDirectory(at: Self.goldens, withIntermediateDirectories: true)
        try actual.write(to: pending, atomically: true, encoding: .utf8)
        Issue.record(
            "\(name): \(expected == nil ? "no golden yet" : "plan differs from the golden"); wrote \(pending.path) for review",
            sourceLocation: sourceLocation)
    }

    /// The cover beside the notch grows into the home's big cover.
    @Test func coverFromPillToHome() throws {
        let pill = F.songContent()
        var home = pill
        home.expanded = .home(F.owned("music", F.musicHome))
        try check("cover_pill_to_home", [F.plan(F.scene(.pill, pill), F.scene(.expanded, home), cause: .open)])
    }

    /// A timer marked `.scale`: laid out once at its destination size and scaled.
    @Test func timerWithScale() throws {
        let pill = SceneContent(
            compactLeading: F.owned("timer/tea", F.image("timer")), compactTrailing: F.owned("timer/tea", F.timer(size: 12)))
        var open = pill
        open.expanded = .activity(F.owned("timer/tea", F.vstack([F.timer(size: 40), F.text("Tea")])))
        try check("timer_scale", [F.plan(F.scene(.pill, pill), F.scene(.expanded, open), cause: .open)])
    }

    /// The song activity: cover in the pill, the peek and the expanded view; peek, open, close.
    @Test func songThroughPillPeekAndExpanded() throws {
        let pill = F.scene(.pill, F.songContent())
        let peekContent = F.songContent(peek: F.songPeek)
        let peek = F.scene(.peek, peekContent)
        var expandedContent = peekContent
        expandedContent.expanded = .activity(F.owned("music/song", F.songExpanded))
        let expanded = F.scene(.expanded, expandedContent)
        try check("song_pill_peek_expanded", [
            F.plan(pill, peek, cause: .peek, serial: 2),
            F.plan(peek, expanded, cause: .open, serial: 3),
            F.plan(expanded, pill, cause: .close, serial: 4),
        ])
    }

    /// Two timers of one module: the activity's ids are suffixed; the home marks both.
    @Test func twoTimersInOneModule() throws {
        let pill = SceneContent(
            compactLeading: F.owned("timer/tea", F.image("timer")), compactTrailing: F.owned("timer/tea", F.timer(size: 12)),
            minimal: [F.owned("timer/eggs", F.timer(size: 10))])
        var home = pill
        home.expanded = .home(F.owned("timer", F.vstack([
            F.hstack([F.text("Tea"), F.timer(size: 24, id: "timer.tea")]),
            F.hstack([F.text("Eggs"), F.timer(size: 24, id: "timer.eggs")]),
        ])))
        try check("two_timers_home", [F.plan(F.scene(.pill, pill), F.scene(.expanded, home), cause: .open)])
    }

    /// Opening onto the song's expanded view, closed again 0.1 s in (rule 21).
    @Test func openInterruptedByClose() throws {
        let pill = F.scene(.pill, F.songContent())
        var open = F.songContent()
        open.expanded = .activity(F.owned("music/song", F.songExpanded))
        let expanded = F.scene(.expanded, open)
        let opening = F.plan(pill, expanded, cause: .open, serial: 2)
        let closing = F.plan(expanded, pill, cause: .close, serial: 3, inFlight: InFlightPlan(plan: opening, elapsed: 0.1))
        try check("open_interrupted_by_close", [closing])
    }

    /// The HeroCard toggling `expanded`: group/hero, animate-smooth duration-400, value.
    @Test func heroCardToggle() throws {
        try check("hero_card_toggle", [
            PlannerContentTests.update(PlannerContentTests.heroCard(expanded: false), PlannerContentTests.heroCard(expanded: true))
        ])
    }
}
