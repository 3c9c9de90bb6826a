import Testing
import NookBroker
import NookCore

/// The broker plans once for every renderer with equal `PlanInputs` in a frame. That is only
/// right if equal inputs really give equal plans, and if every input that matters is in them.
@Suite struct PlanSharingTests {
    let shared = RenderSubscriberTests()

    /// Two renderers sent the same plan at the same moment, then planned for the same change
    /// at the same moment, get the same plan: sharing it changes nothing they see.
    @Test func equalInputsGiveEqualPlans() {
        var first = RenderSubscriber(connection: ":1.5", display: shared.laptop)
        var second = RenderSubscriber(connection: ":1.6", display: shared.laptop)
        let subscribe = PlanAction(cause: .subscribe, serial: 1)
        let sent = first.planned(to: shared.content(expanded: false), presentation: .pill, action: subscribe, settings: shared.settings(), now: .zero)
        first.didSend(sent.plan, id: 7, at: .zero)
        second.didSend(sent.plan, id: 7, at: .zero)
        let open = PlanAction(cause: .open, serial: 2)
        let now = BrokerTime(seconds: 0.1)
        #expect(first.inputs(for: open, at: now) == second.inputs(for: open, at: now))
        let a = first.planned(to: shared.content(expanded: true), presentation: .expanded, action: open, settings: shared.settings(), now: now)
        let b = second.planned(to: shared.content(expanded: true), presentation: .expanded, action: open, settings: shared.settings(), now: now)
        #expect(a.sent == b.sent && a.sampleRate == b.sampleRate)
    }

    /// What differs between renderers keeps their plans apart: the plan they were last sent,
    /// display, capabilities, refresh rate, and a fresh window one of them is owed.
    @Test func inputsThatChangeThePlanKeepRenderersApart() {
        var base = RenderSubscriber(connection: ":1.5", display: shared.laptop)
        base.didSend(base.planned(to: shared.content(expanded: false), presentation: .pill, action: PlanAction(cause: .subscribe, serial: 1),
                                  settings: shared.settings(), now: .zero).plan, id: 7, at: .zero)
        base.queue(PlanAction(cause: .activityUpdated, serial: 2))
        let action = base.nextAction!
        var otherOrigin = base
        otherOrigin.didSend(base.planned(to: shared.content(expanded: false), presentation: .pill, action: action, settings: shared.settings(), now: .zero).plan,
                            id: 8, at: .zero)
        otherOrigin.queue(action)
        var otherDisplay = base
        otherDisplay.display = shared.monitor
        var otherCapabilities = base
        otherCapabilities.capabilities = [.relayout]
        var otherRate = base
        otherRate.refreshRate = 144
        var owedFreshWindow = base
        owedFreshWindow.freshWindow = .displayChanged
        let variants = [otherOrigin, otherDisplay, otherCapabilities, otherRate, owedFreshWindow]
        for variant in variants {
            #expect(variant.inputs(for: variant.nextAction!, at: .zero) != base.inputs(for: action, at: .zero))
        }
        #expect(owedFreshWindow.nextAction?.cause == .displayChanged && owedFreshWindow.nextAction?.causes == [.activityUpdated, .displayChanged],
                "a fresh window is owed whatever the frame holds; the frame's change stays listed")
    }

    /// Renderers that reached the same scene by different plans (they subscribed at different
    /// moments, say) share plans again once those have finished playing: only the scene left
    /// matters then. While either still plays, they stay apart, since an interruption starts
    /// from where each one's plan has got to (rule 21).
    @Test func renderersStandingOnTheSameSceneShareAPlan() {
        var first = RenderSubscriber(connection: ":1.5", display: shared.laptop)
        var second = RenderSubscriber(connection: ":1.6", display: shared.laptop)
        let content = shared.content(expanded: false)
        let sentFirst = first.planned(to: content, presentation: .pill, action: PlanAction(cause: .subscribe, serial: 1), settings: shared.settings(), now: .zero)
        first.didSend(sentFirst.plan, id: 7, at: .zero)
        let later = BrokerTime(seconds: 0.05)
        let sentSecond = second.planned(to: content, presentation: .pill, action: PlanAction(cause: .subscribe, serial: 1), settings: shared.settings(), now: later)
        second.didSend(sentSecond.plan, id: 8, at: later)
        #expect(sentFirst.plan.duration > 0, "the subscribe plan animates, so there is a moment while it plays")
        let open = PlanAction(cause: .open, serial: 2)
        let playing = BrokerTime(seconds: 0.06)
        #expect(first.inputs(for: open, at: playing) != second.inputs(for: open, at: playing))
        let settled = BrokerTime(seconds: 0.05 + max(sentFirst.plan.duration, sentSecond.plan.duration))
        #expect(first.inputs(for: open, at: settled) == second.inputs(for: open, at: settled))
        let a = first.planned(to: shared.content(expanded: true), presentation: .expanded, action: open, settings: shared.settings(), now: settled)
        let b = second.planned(to: shared.content(expanded: true), presentation: .expanded, action: open, settings: shared.settings(), now: settled)
        #expect(a.sent == b.sent && a.sampleRate == b.sampleRate)

        // A scene_delta renderer's plan names the serial it edits: a different one keeps it apart.
        var third = RenderSubscriber(connection: ":1.7", display: shared.laptop, capabilities: RenderCapability.v1.union([.sceneDelta]))
        var fourth = third
        third.didSend(sentFirst.plan, id: 7, at: .zero)
        var renumbered = sentFirst.plan
        renumbered.serial = 3
        fourth.didSend(renumbered, id: 9, at: .zero)
        #expect(third.inputs(for: open, at: settled) != fourth.inputs(for: open, at: settled))
    }
}
