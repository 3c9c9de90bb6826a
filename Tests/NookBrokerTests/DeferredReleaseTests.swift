import NookCore
import Testing
@testable import NookBroker

/// Replaced plans and scenes are let go of after the plan is sent, not while it is sent.
@Suite struct DeferredReleaseTests {
    final class Tracked {}

    @Test func heldValuesLiveUntilReleasedAndAFullHoldSaysSo() {
        var release = DeferredRelease()
        weak var watched: Tracked?
        do {
            let value = Tracked()
            watched = value
            release.hold(value)
        }
        #expect(watched != nil)
        for _ in 1..<DeferredRelease.limit { release.hold(0) }
        #expect(release.isFull)
        release.releaseAll()
        #expect(watched == nil)
        #expect(release.held.isEmpty && !release.isFull)
    }

    @Test func aSentPlanHandsBackThePlanItReplaced() {
        var subscriber = RenderSubscriber(connection: ":1.5", display: DisplayInfo(width: 1512, height: 982))
        let settings = PlannerSettings(display: subscriber.display)
        let first = subscriber.planned(to: SceneContent(), presentation: .pill, action: PlanAction(cause: .subscribe, serial: 1), settings: settings, now: .zero)
        let none = subscriber.didSend(first.plan, id: 1, at: .zero)
        #expect(none.inFlight == nil && none.scenes.isEmpty)
        let second = subscriber.planned(to: SceneContent(), presentation: .expanded, action: PlanAction(cause: .open, serial: 2), settings: settings, now: .zero)
        let superseded = subscriber.didSend(second.plan, id: 2, at: .zero)
        #expect(superseded.inFlight?.plan == first.plan)
        // The scene presented before is still kept (it is no last reference to hold back).
        #expect(subscriber.sentScenes.scene(at: 1) == first.plan.scene)
        #expect(subscriber.inFlight?.plan == second.plan)
    }
}
