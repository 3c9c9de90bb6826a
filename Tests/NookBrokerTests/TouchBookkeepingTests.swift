import NookCore
import Testing
@testable import NookBroker

/// The pure parts of Touch: the per-process press limiter and the scenes a renderer can
/// still press into.
@Suite struct TouchBookkeepingTests {
    @Test func theLimiterLetsABurstThroughThenItsRateAndCountsEachProcessApart() {
        var limiter = ActivationLimiter(rate: 20, burst: 40)
        let burst = (0..<100).filter { _ in limiter.take(.process(5), at: 10) }.count
        #expect(burst == 40)
        // Half a second later: 10 tokens back, no more.
        let refilled = (0..<100).filter { _ in limiter.take(.process(5), at: 10.5) }.count
        #expect(refilled == 10)
        // Another process has its own bucket.
        let other = limiter.take(.process(6), at: 10.5)
        #expect(other)
        // A clock read that goes back adds nothing, and does not make the next read count twice.
        let backwards = limiter.take(.process(5), at: 9)
        let again = limiter.take(.process(5), at: 10.5)
        #expect(!backwards && !again)
        // A long quiet spell fills the bucket to the burst, never beyond.
        let later = (0..<100).filter { _ in limiter.take(.process(5), at: 1_000_000) }.count
        #expect(later == 40)
    }

    @Test func theLimiterForgetsQuietPeersOnceItTracksTooMany() {
        var limiter = ActivationLimiter(rate: 20, burst: 40)
        for index in 0..<ActivationLimiter.maxTracked { _ = limiter.take(.connection(":1.\(index)"), at: 0) }
        #expect(limiter.trackedCount == ActivationLimiter.maxTracked)
        // Seconds later every bucket is full again: the next newcomer's arrival forgets them.
        _ = limiter.take(.process(2), at: 10)
        #expect(limiter.trackedCount == 1)
    }

    @Test func badLimitsFromTheConfigurationStayUsable() {
        var limiter = ActivationLimiter(rate: .nan, burst: -3)
        let first = limiter.take(.process(5), at: 0)
        let second = limiter.take(.process(5), at: 0)
        #expect(first && !second)
    }

    @Test func sentScenesKeepTheNewestEightBySerial() {
        let scene = PlannerScene(presentation: .pill, content: SceneContent(), settings: PlannerSettings(display: DisplayInfo(width: 1512, height: 982)))
        var sent = SentScenes()
        let dropped = (UInt64(100)..<110).map { sent.record(serial: $0, scene: scene).count }
        #expect(sent.serials == Array(102..<110))
        // What falls out is handed back, for the broker to free once the plan is on its way.
        #expect(dropped == [0, 0, 0, 0, 0, 0, 0, 0, 1, 1])
        #expect(sent.scene(at: 101) == nil && sent.scene(at: 102) != nil && sent.scene(at: 109) != nil)
        // A serial sent again (a fresh window re-planned at the same serial) replaces its entry.
        let replaced = sent.record(serial: 105, scene: scene)
        #expect(sent.serials == [102, 103, 104, 106, 107, 108, 109, 105])
        #expect(replaced.count == 1)
    }

    @Test func aRenderersSubscriberRecordsTheSceneOfEveryPlanSent() {
        var subscriber = RenderSubscriber(connection: ":1.5", display: DisplayInfo(width: 1512, height: 982))
        let settings = PlannerSettings(display: subscriber.display)
        for serial in UInt64(1)...3 {
            _ = subscriber.plan(to: SceneContent(), presentation: .pill, action: PlanAction(cause: .subscribe, serial: serial), settings: settings, now: .zero)
        }
        #expect(subscriber.sentScenes.serials == [1, 2, 3])
        #expect(subscriber.sentScenes.scene(at: 3) == subscriber.presented)
    }
}
