import NookBroker
import Testing

/// When a frame's plans take longer than the frame (hundreds of renderers, each turn of the
/// bus thread serving only some), nobody starves: the renderer served longest ago goes first.
@Suite struct FrameSchedulerFairnessTests {
    @Test func whenNotAllCanBeServedInAFrameTheLongestWaitingGoFirst() {
        var scheduler = FrameScheduler(window: 4)
        let ids = (0..<10).map { "renderer-\($0)" }
        for id in ids { scheduler.add(id, rate: 60, at: BrokerTime(seconds: 0)) }
        var served: [String: Int] = [:]
        // 30 frames, a change every frame, and room for only 3 sends per frame; every plan is
        // acknowledged at once.
        for frame in 1...30 {
            let now = FrameScheduler.start(of: Int64(frame), rate: 60)
            for id in ids { scheduler.changed(id) }
            for id in scheduler.due(at: now).prefix(3) {
                scheduler.sent(id, covering: scheduler.version(of: id), at: now)
                scheduler.acknowledged(id, at: now)
                served[id, default: 0] += 1
            }
        }
        // 90 sends over 10 renderers: each gets 9, none is left behind.
        #expect(ids.allSatisfy { served[$0] == 9 }, "sends per renderer: \(served.sorted { $0.key < $1.key })")
    }

    /// One answer to a ping sent after two plans acknowledges both: the window opens by two,
    /// never below empty, and an answer freeing a window that stayed full past `stallTime`
    /// still asks for a fresh window.
    @Test func oneAnswerAcknowledgesEveryPlanItsPingFollowed() {
        var scheduler = FrameScheduler(window: 4, stallTime: 1)
        scheduler.add("r", rate: 60, at: BrokerTime(seconds: 0))
        for frame in 1...4 {
            let now = FrameScheduler.start(of: Int64(frame), rate: 60)
            scheduler.changed("r")
            #expect(scheduler.isDue("r", at: now))
            scheduler.sent("r", covering: scheduler.version(of: "r"), at: now)
        }
        scheduler.changed("r")
        let later = BrokerTime(seconds: 3)
        #expect(!scheduler.isDue("r", at: later), "a full window is not due")
        let resumed = scheduler.acknowledged("r", plans: 2, at: later)
        #expect(resumed, "freed after a stall: a fresh window")
        #expect(scheduler.subscribers["r"]?.unacknowledged == 2)
        #expect(scheduler.isDue("r", at: later))
        let again = scheduler.acknowledged("r", plans: 5, at: later)
        #expect(!again)
        #expect(scheduler.subscribers["r"]?.unacknowledged == 0)
    }
}
