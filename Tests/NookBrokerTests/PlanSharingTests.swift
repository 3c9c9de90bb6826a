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
        #expect(first.inputs(for: open) == second.inputs(for: open))
        let now = BrokerTime(seconds: 0.1)
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
            #expect(variant.inputs(for: variant.nextAction!) != base.inputs(for: action))
        }
        #expect(owedFreshWindow.nextAction?.cause == .displayChanged && owedFreshWindow.nextAction?.causes == [.activityUpdated, .displayChanged],
                "a fresh window is owed whatever the frame holds; the frame's change stays listed")
    }
}
