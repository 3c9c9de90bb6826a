import Testing
@testable import NookCore

private typealias F = PlannerFixture

/// SPEC rule 10 held for the whole peek (contract 1.1): while the pill peeks, the pill copy of
/// an element the peek also shows carries `suppressed` in every plan's scene, whatever caused
/// the plan, so a renderer never draws the element twice.
@Suite struct PlannerPeekSuppressionTests {
    /// The peeking song plus a second activity (a timer in a capsule) whose updates are unrelated.
    static func peeking(timer: String = "5:00") -> SceneContent {
        var content = F.songContent(peek: F.songPeek)
        content.minimal = [F.owned("clock/tea", F.text(timer))]
        return content
    }

    static func suppressedPaths(_ plan: TransitionPlan) -> [String] {
        plan.scene.nodes.filter { plan.scene.suppressed.contains($0.path) }.map(\.path)
    }

    static func wireSuppressed(_ plan: TransitionPlan) -> [String] {
        guard case .dictionary(let scene)? = plan.wireDictionary()["scene"], case .array(let nodes)? = scene["nodes"] else { return [] }
        return nodes.compactMap { node -> String? in
            guard case .dictionary(let entry) = node, entry["suppressed"] == .bool(true), case .string(let path)? = entry["path"] else {
                return nil
            }
            return path
        }
    }

    @Test(arguments: [false, true])
    func rule10_thePillCopyIsSuppressedInEveryPlanWhileThePeekLasts(reduceMotion: Bool) {
        let settings = F.settings(reduceMotion: reduceMotion)
        let pill = F.scene(.pill, { var c = Self.peeking(); c.peek = nil; return c }(), settings)
        let peek = F.scene(.peek, Self.peeking(), settings)
        let opening = F.plan(pill, peek, cause: .peek, settings: settings)
        #expect(Self.suppressedPaths(opening) == ["compact_leading"], "the peek opens")
        #expect(Self.wireSuppressed(opening) == ["compact_leading"])

        // An unrelated activity updates while the pill peeks.
        let updated = F.scene(.peek, Self.peeking(timer: "4:59"), settings)
        let update = F.plan(peek, updated, cause: .activityUpdated, serial: 3, settings: settings)
        #expect(Self.suppressedPaths(update) == ["compact_leading"], "an unrelated update")
        #expect(Self.wireSuppressed(update) == ["compact_leading"])

        // A new renderer subscribes, and a display changes: fresh windows of the peek.
        let subscribe = F.plan(F.scene(.hidden, SceneContent(), settings), updated, cause: .subscribe, serial: 4, settings: settings)
        #expect(Self.suppressedPaths(subscribe) == ["compact_leading"], "a new subscriber")
        let display = F.plan(updated, updated, cause: .displayChanged, serial: 5, settings: settings)
        #expect(Self.suppressedPaths(display) == ["compact_leading"], "a display change")

        // The peek ends: the pill copy is back.
        let closing = F.plan(updated, F.scene(.pill, { var c = Self.peeking(timer: "4:59"); c.peek = nil; return c }(), settings),
                             cause: .endPeek, serial: 6, settings: settings)
        #expect(Self.suppressedPaths(closing).isEmpty)
        #expect(Self.wireSuppressed(closing).isEmpty)
    }

    @Test func rule10_onlyCopiesThePeekShowsAreSuppressed() {
        // A peek without the cover: nothing in the pill is suppressed.
        var content = F.songContent(peek: F.hstack([F.text("Song title")]))
        content.minimal = []
        #expect(F.plan(F.scene(.pill, F.songContent()), F.scene(.peek, content), cause: .peek).scene.suppressed.isEmpty)
        // Rule 8: the peek's `cover` belongs to its own activity; another activity's pill copy is not its copy.
        let other = SceneContent(
            compactLeading: F.owned("music/radio", F.cover(20)), compactTrailing: nil, minimal: [],
            peek: F.owned("music/song", F.songPeek), expanded: nil)
        #expect(F.plan(F.scene(.pill, other), F.scene(.peek, other), cause: .peek).scene.suppressed.isEmpty)
    }
}
