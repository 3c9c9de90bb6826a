import NookCore
@testable import NookRenderModel
import Testing

private typealias F = PlanFixture

/// SPEC rule 10 held for the whole peek (contract 1.1 `suppressed`): the presenter never draws
/// a suppressed node, nor anything inside it, whichever plan put it in the scene.
@Suite struct PeekSuppressionTests {
    /// The peeking song, with another activity in a capsule whose updates are unrelated.
    static func peeking(_ clock: String, peek: Bool = true) -> SceneContent {
        var content = F.song(peek: peek ? F.songPeek : nil)
        content.minimal = [F.owned("clock/tea", F.text(clock))]
        return content
    }

    /// Every frame from `start` over `duration` (plus a little), 120 per second.
    static func frames(_ presenter: PlanPresenter, from start: Double, over duration: Double) -> [(Double, DisplayList)] {
        stride(from: 0.0, through: duration + 0.05, by: 1.0 / 120).map { t in (t, presenter.frame(at: start + t, unixTime: 0)) }
    }

    @Test(arguments: [false, true])
    func rule10_thePillCopyIsNeverDrawnWhileThePeekLasts(reduceMotion: Bool) throws {
        let settings = F.settings(reduceMotion: reduceMotion)
        let pill = F.scene(.pill, Self.peeking("5:00", peek: false), settings)
        let peek = F.scene(.peek, Self.peeking("5:00"), settings)
        var presenter = PlanPresenter()
        try presenter.receive(F.wire(F.subscribe(pill, settings: settings)), at: 0)

        let opening = F.plan(pill, peek, cause: .peek, settings: settings)
        try presenter.receive(F.wire(opening), at: 10)
        let updated = F.scene(.peek, Self.peeking("4:59"), settings)
        let update = F.plan(peek, updated, cause: .activityUpdated, serial: 3, settings: settings)
        let display = F.plan(updated, updated, cause: .displayChanged, serial: 4, settings: settings)
        var drawn: [String] = []
        for (start, plan) in [(10.0, opening), (20.0, update), (30.0, display)] {
            if start > 10 { try presenter.receive(F.wire(plan), at: start) }
            for (t, frame) in Self.frames(presenter, from: start, over: plan.duration) {
                // The cover in the pill is never drawn in place; the only copy is the peek's
                // (or, while the peek opens, the one travelling there).
                if !frame.items(at: "compact_leading").isEmpty { drawn.append("\(plan.cause.rawValue) +\(t)") }
                let covers = frame.items.filter { if case .custom = $0.content { return true } else { return false } }
                #expect(covers.count <= 1, "\(plan.cause.rawValue) +\(t): \(covers.map(\.path))")
            }
        }
        #expect(drawn.isEmpty, "the pill's cover was drawn at \(drawn)")
        // At rest in the peek, the cover is there once, in the peek.
        #expect(presenter.frame(at: 40, unixTime: 0).item(at: "peek/0") != nil)

        // The peek ends: the pill copy comes back (once it lands, without Reduce Motion).
        let closing = F.plan(updated, F.scene(.pill, Self.peeking("4:59", peek: false), settings), cause: .endPeek, serial: 5,
                             settings: settings)
        try presenter.receive(F.wire(closing), at: 50)
        #expect(presenter.frame(at: 50 + closing.duration + 0.01, unixTime: 0).item(at: "compact_leading") != nil)
    }

    @Test func rule10_aSuppressedNodeHidesItsWholeSubtreeAndOnlyIt() throws {
        let badge = F.hstack([F.image("star"), F.text("Hi")]) { $0.shared = SharedMark(id: "badge") }
        let pill = F.scene(.pill, F.song(leading: badge))
        let peek = F.scene(.peek, F.song(peek: F.hstack([badge, F.text("Song title")]), leading: badge))
        let plan = F.plan(pill, peek, cause: .peek)
        #expect(plan.scene.suppressed == ["compact_leading"])
        let presenter = try F.presenter(playing: plan, from: pill, at: 10)
        let rest = presenter.frame(at: 10 + plan.duration + 0.01, unixTime: 0)
        #expect(rest.items.filter { $0.path.hasPrefix("compact_leading") }.isEmpty, "\(rest.items.map(\.path))")
        #expect(rest.item(at: "compact_trailing") != nil, "the rest of the pill still draws")
        #expect(rest.item(at: "peek/0/1") != nil)
    }

    @Test func rule10_aSuppressedCopyDoesNotFadeOutWhenThePillLeaves() throws {
        // Peek -> expanded: the pill's slots leave, fading; the suppressed copy stays unseen.
        let peek = F.scene(.peek, F.song(peek: F.songPeek))
        let expanded = F.scene(.expanded, F.song(peek: F.songPeek, expanded: F.songExpanded))
        let subscribe = F.subscribe(peek)
        var presenter = PlanPresenter()
        try presenter.receive(F.wire(subscribe), at: 0)
        let open = F.plan(subscribe.scene, expanded, cause: .open)
        try presenter.receive(F.wire(open), at: 10)
        for (t, frame) in Self.frames(presenter, from: 10, over: open.duration) {
            #expect(frame.items(at: "compact_leading").isEmpty, "at +\(t)")
        }
    }
}
