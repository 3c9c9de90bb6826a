import NookBroker
import NookTestSupport
import Testing

/// `FrameScheduler` against random interleavings of updates, frame ticks, plans being built,
/// sends (some failing) and acknowledgements: the latest update always reaches every
/// subscriber, and no subscriber is ever sent two plans in one frame or more than its window.
@Suite struct FrameSchedulerPropertyTests {
    static let interleavings = 10_000

    @Test func theLastUpdateIsAlwaysSentAndNeverTwicePerFrame() {
        let seed = UInt64.random(in: 1...UInt64.max)
        var failures: [String] = []
        for run in 0..<Self.interleavings {
            var random = SeededGenerator(seed: seed &+ UInt64(run))
            if let failure = Self.interleaving(&random) {
                failures.append("interleaving \(run): \(failure)")
                if failures.count >= 5 { break }
            }
        }
        #expect(failures.isEmpty, "seed \(seed) (replay: SeededGenerator(seed: \(seed) &+ run)):\n\(failures.joined(separator: "\n"))")
    }

    /// A frame's own start time, computed in floating point, must fall in that frame, or the
    /// broker's timer would wake up to find nobody due and spin.
    @Test func aFrameStartsInsideItself() {
        for rate in [1, 23.976, 24, 29.97, 30, 59.94, 60, 75, 90, 120, 144, 165, 240, 360, 1000] {
            for frame in Int64(0)..<20_000 {
                let start = FrameScheduler.start(of: frame, rate: rate)
                #expect(FrameScheduler.frame(at: start, rate: rate) == frame, "rate \(rate) frame \(frame)")
                if FrameScheduler.frame(at: start, rate: rate) != frame { return }
            }
        }
    }

    /// One random interleaving; returns what went wrong, if anything.
    static func interleaving(_ random: inout SeededGenerator) -> String? {
        let rates: [Double] = [1, 24, 30, 59.94, 60, 75, 120, 144, 240, 1000, Double(random.next(upTo: 999) + 1)]
        let window = Int(random.next(upTo: 4)) + 1
        var scheduler = FrameScheduler(window: window, stallTime: Double(random.next(upTo: 3)) / 20)
        var now = BrokerTime(seconds: Double(random.next(upTo: 1_000_000)) / 1000)
        let ids = (0..<Int(random.next(upTo: 4)) + 1).map { "r\($0)" }
        for id in ids { scheduler.add(id, rate: rates[Int(random.next(upTo: UInt64(rates.count)))], at: now) }

        var latest: [String: UInt64] = [:]           // the newest change each subscriber should see
        var framesSent: [String: Set<Int64>] = [:]   // frames of sends and failed attempts
        var lastCovered: [String: UInt64] = [:]      // the version each subscriber's last plan covered
        var unacknowledged: [String: Int] = [:]      // the test's own count of pings in flight
        var building: [(id: String, version: UInt64, at: BrokerTime)] = []
        var trace: [Step] = []

        func send(_ id: String, _ version: UInt64, at time: BrokerTime, fails: Bool) -> String? {
            let rate = scheduler.subscribers[id]!.rate
            let frame = FrameScheduler.frame(at: time, rate: rate)
            if framesSent[id, default: []].contains(frame) { return "\(id) sent twice in frame \(frame) at \(rate) Hz" }
            framesSent[id, default: []].insert(frame)
            if fails {
                scheduler.failed(id, at: time)
                return nil
            }
            if unacknowledged[id, default: 0] >= window { return "\(id) sent with \(window) plans unacknowledged" }
            scheduler.sent(id, covering: version, at: time)
            unacknowledged[id, default: 0] += 1
            lastCovered[id] = version
            return nil
        }

        /// The broker's delivery pass: every due subscriber, planned and sent at one moment.
        func deliver(failing: Bool) -> String? {
            for id in scheduler.due(at: now) {
                if let failure = send(id, scheduler.version(of: id), at: now, fails: failing && random.next(upTo: 4) == 0) { return failure }
            }
            return nil
        }

        func acknowledge(_ id: String) {
            guard unacknowledged[id, default: 0] > 0 else { return }
            unacknowledged[id]! -= 1
            let before = scheduler.subscribers[id]!
            let stalled = before.fullSince.map { now.seconds - $0.seconds >= scheduler.stallTime } ?? false
            let resumed = scheduler.acknowledged(id, at: now)
            if resumed != (before.unacknowledged >= window && before.isWaiting && stalled) { trace.append(.badResume(id)) }
            if scheduler.subscribers[id]!.unacknowledged >= window, scheduler.subscribers[id]!.fullSince == nil { trace.append(.badResume(id)) }
        }

        /// The scheduler must say when it next has work, and have it then.
        func checkWakeUp() -> String? {
            let ready = scheduler.subscribers.contains { $0.value.isWaiting && $0.value.unacknowledged < window }
            guard let next = scheduler.nextDue(after: now) else {
                return ready ? "a subscriber waits with room in its window but nextDue is nil" : nil
            }
            if next < now { return "nextDue \(next) is before now \(now)" }
            if scheduler.due(at: next).isEmpty { return "nobody is due at nextDue \(next)" }
            return nil
        }

        for _ in 0..<(Int(random.next(upTo: 130)) + 20) {
            switch random.next(upTo: 10) {
            case 0, 1:
                trace.append(.updateAll)
                scheduler.changedAll()
                for id in ids { latest[id] = scheduler.version(of: id) }
            case 2:
                let id = ids[Int(random.next(upTo: UInt64(ids.count)))]
                trace.append(.update(id))
                scheduler.changed(id)
                latest[id] = scheduler.version(of: id)
            case 3:
                trace.append(.tick)
                if let next = scheduler.nextDue(after: now) { now = next }
            case 4:
                let step = Double(random.next(upTo: 60_000)) / 1_000_000
                trace.append(.advance(step))
                now = now + step
            case 5, 6:
                trace.append(.deliver)
                if let failure = deliver(failing: true) { return failure + "\n" + describe(trace) }
            case 7:
                // A plan being built: its version is taken now, the send comes later, and
                // updates may land in between (the race issue 23 was about).
                for id in scheduler.due(at: now) where !building.contains(where: { $0.id == id }) {
                    trace.append(.begin(id))
                    building.append((id, scheduler.version(of: id), now))
                }
            case 8:
                if !building.isEmpty {
                    let (id, version, at) = building.removeFirst()
                    trace.append(.finish(id, version))
                    if scheduler.isDue(id, at: at), let failure = send(id, version, at: at, fails: random.next(upTo: 5) == 0) {
                        return failure + "\n" + describe(trace)
                    }
                }
            default:
                let id = ids[Int(random.next(upTo: UInt64(ids.count)))]
                trace.append(.ack(id))
                acknowledge(id)
            }
            if let failure = checkWakeUp() { return failure + "\n" + describe(trace) }
            if case .badResume(let id)? = trace.last { return "\(id): acknowledged() said resumed wrongly\n" + describe(trace) }
        }

        // Quiet: no more updates. Acknowledge everything and follow the timer until nobody is
        // due; every subscriber must end up sent its latest version.
        building.removeAll()
        for _ in 0..<1000 {
            for id in ids { while unacknowledged[id, default: 0] > 0 { acknowledge(id) } }
            guard let next = scheduler.nextDue(after: now) else { break }
            now = next
            if let failure = deliver(failing: false) { return failure }
        }
        for id in ids where latest[id, default: 0] > 0 {
            if lastCovered[id, default: 0] != latest[id] {
                return "\(id) last sent v\(lastCovered[id, default: 0]) but the latest is v\(latest[id]!)\n" + describe(trace)
            }
        }
        return nil
    }
}

/// One step of an interleaving, kept cheap; described only when one fails.
enum Step {
    case updateAll, tick, deliver
    case update(String), begin(String), ack(String), badResume(String)
    case advance(Double)
    case finish(String, UInt64)
}

func describe(_ trace: [Step]) -> String {
    "last steps: " + trace.suffix(30).map { "\($0)" }.joined(separator: "; ")
}
