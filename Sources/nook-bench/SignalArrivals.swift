import Synchronization

/// How many signals of one kind a benchmark connection has received and when the last one
/// arrived, recorded on that connection's bus thread.
///
/// A measurement waits for the next signal with `waitForMore(than:)`, asleep: a waiter that
/// spun (`Task.yield` in a loop) kept a whole core busy on a 2-core machine, so the processes
/// being measured, and the bus daemon between them, shared the other one. The arrival time is
/// taken before the waiter is woken, so waking it is not measured.
final class SignalArrivals: Sendable {
    private struct State {
        var count = 0
        var last = ContinuousClock.now
        var waiter: (count: Int, continuation: CheckedContinuation<Void, Never>)?
    }

    private let state = Mutex(State())

    func arrived() {
        let woken = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.count += 1
            state.last = .now
            guard let waiter = state.waiter, state.count > waiter.count else { return nil }
            state.waiter = nil
            return waiter.continuation
        }
        woken?.resume()
    }

    var count: Int { state.withLock { $0.count } }
    var lastArrival: ContinuousClock.Instant { state.withLock { $0.last } }

    /// Returns once more than `count` signals have arrived (at once if they already have).
    func waitForMore(than count: Int) async {
        await withCheckedContinuation { continuation in
            let arrived = state.withLock { state -> Bool in
                if state.count > count { return true }
                state.waiter = (count, continuation)
                return false
            }
            if arrived { continuation.resume() }
        }
    }

    /// `waitForMore(than:)` that also returns, with false, once `limit` has passed: for a
    /// signal that may never come (an update the broker coalesced away).
    func waitForMore(than count: Int, within limit: Duration) async -> Bool {
        let timeout = Task {
            try? await Task.sleep(for: limit)
            let stale = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let waiter = state.waiter, waiter.count == count else { return nil }
                state.waiter = nil
                return waiter.continuation
            }
            stale?.resume()
        }
        await waitForMore(than: count)
        timeout.cancel()
        return self.count > count
    }
}
