import NookCore
import Testing

private typealias F = PlannerFixture

/// A renderer gets at most one plan per frame, so changes in one frame share a plan. Its
/// `cause` is the latest change; `causes` (an addition) lists every distinct one, oldest first.
@Suite struct PlanCoalescingTests {
    @Test func aCoalescedActionKeepsTheLatestAndRemembersEveryDistinctCause() {
        var pending = PlanAction(cause: .activityStarted, serial: 7)
        pending = pending.coalescing(PlanAction(cause: .contentChanged, serial: 8))
        pending = pending.coalescing(PlanAction(cause: .contentChanged, serial: 9, animate: false, callerAnimation: "smooth"))
        pending = pending.coalescing(PlanAction(cause: .activityStarted, serial: 10))
        #expect(pending.cause == .activityStarted)
        #expect(pending.serial == 10)
        #expect(pending.causes == [.contentChanged, .activityStarted])
        let single = PlanAction(cause: .activityUpdated, serial: 1)
        #expect(single.causes == [.activityUpdated])
        #expect(single.coalescing(PlanAction(cause: .activityUpdated, serial: 2)).causes == [.activityUpdated])
    }

    /// A theme change in the frame of another change restyles it without taking its place:
    /// an open followed at once by `SetTokens` is still an animated open, in the new theme.
    @Test func aThemeChangeInTheSameFrameKeepsTheOtherChangeAnimated() {
        let open = PlanAction(cause: .open, serial: 4, via: .hover)
        let merged = open.coalescing(PlanAction(cause: .themeChanged, serial: 5, animate: false))
        #expect(merged.cause == .open && merged.via == .hover && merged.animate)
        #expect(merged.serial == 5)
        #expect(merged.causes == [.themeChanged, .open])
        // A theme change alone, or before another change, is planned as usual.
        let theme = PlanAction(cause: .themeChanged, serial: 6, animate: false)
        #expect(theme.coalescing(PlanAction(cause: .themeChanged, serial: 7, animate: false)).causes == [.themeChanged])
        let after = theme.coalescing(PlanAction(cause: .close, serial: 8))
        #expect(after.cause == .close && after.animate && after.causes == [.themeChanged, .close])
    }

    @Test func aPlanListsItsCoalescedCausesOnTheWireOnlyWhenThereAreSeveral() {
        var open = F.songContent()
        open.expanded = .activity(F.owned("music/song", F.songExpanded))
        let pill = F.scene(.pill, F.songContent())
        let expanded = F.scene(.expanded, open)
        let action = PlanAction(cause: .activityStarted, serial: 2).coalescing(PlanAction(cause: .contentChanged, serial: 3))
        let plan = TransitionPlanner.plan(from: pill, to: expanded, action: action, settings: F.settings())
        #expect(plan.cause == .contentChanged)
        #expect(plan.wireDictionary()["causes"] == .array([.string("activity_started"), .string("content_changed")]))
        let alone = TransitionPlanner.plan(from: pill, to: expanded, action: PlanAction(cause: .open, serial: 2), settings: F.settings())
        #expect(alone.wireDictionary()["causes"] == nil)
    }
}
