import Synchronization

/// How many signals of one kind a benchmark connection has received and when the last one
/// arrived, recorded on that connection's bus thread.
final class SignalArrivals: Sendable {
    private let state = Mutex<(count: Int, last: ContinuousClock.Instant)>((0, .now))
    func arrived() { state.withLock { $0 = ($0.count + 1, .now) } }
    var count: Int { state.withLock { $0.count } }
    var lastArrival: ContinuousClock.Instant { state.withLock { $0.last } }
}
