import NookBus

/// Values the bus thread stops using while a module's call is answered, let go of a moment
/// later rather than at once.
///
/// Dropping the last reference to a replaced plan or scene frees a tree of boxes, arrays and
/// strings. Done where they are replaced, that work sat between the plan's send and the call's
/// reply, while the bus daemon, woken onto the broker's CPU to forward the plan, waited for the
/// broker to leave it (docs/PERFORMANCE.md, session 15). Held here, they are freed once the bus
/// thread has slept and woken again (the daemon and the renderer have had their turn by then),
/// after the work it woke for: a timer of their own cost the broker a wake-up per update.
struct DeferredRelease {
    /// How long values are held at most when nothing wakes the bus thread (a renderer's answer
    /// to its ping, the next call, a timer usually does, within a millisecond or so).
    static let fallback: Duration = .milliseconds(100)
    /// How long a bus thread that does not sleep (a flood) holds them: freed between turns,
    /// as the timer before session 28 did, not in one heap at the `limit`.
    static let whileBusy: Duration = .milliseconds(1)
    /// Held values beyond this are freed at once: a delivery pass serving hundreds of renderers
    /// does not pile up a frame's worth of replaced plans.
    static let limit = 256

    private(set) var held: [Any] = []
    /// The timer that frees `held` (nil: none is set).
    var timer: BusExecutor.TimerID?

    mutating func hold(_ value: Any) {
        held.append(value)
    }

    var isFull: Bool { held.count >= Self.limit }

    /// Frees everything held.
    mutating func releaseAll() {
        held.removeAll(keepingCapacity: true)
        timer = nil
    }
}

extension Broker {
    /// Lets go of `value` once the bus thread has slept (in a flood, `DeferredRelease.whileBusy`
    /// on), at the latest after `DeferredRelease.fallback`.
    func releaseLater(_ value: Any) {
        deferredRelease.hold(value)
        if deferredRelease.isFull { return releaseDeferred() }
        guard deferredRelease.timer == nil else { return }
        deferredRelease.timer = connection.executor.runAfterNextSleep(orAfter: DeferredRelease.fallback, whileBusyAfter: DeferredRelease.whileBusy) { [weak self] in
            // On the bus thread: the actor's own executor.
            self?.assumeIsolated { $0.releaseDeferred() }
        }
    }

    func releaseDeferred() {
        if let timer = deferredRelease.timer { connection.executor.cancel(timer) }
        deferredRelease.releaseAll()
    }
}
