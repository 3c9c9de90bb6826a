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
}
