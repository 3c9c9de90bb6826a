import CSystemd
import Glibc
import Synchronization

/// The serial executor of one bus connection: a dedicated thread that takes turns between
/// running queued jobs, firing due timers and driving sd-bus.
///
/// A turn reads at most `messagesPerTurn` messages before it runs the jobs and timers that
/// came due meanwhile, so a flood of calls cannot starve them: a frame timer fires within one
/// turn of its deadline however many calls are waiting.
///
/// sd-bus objects and their messages belong to one thread, so every touch of the connection
/// happens here. `BusConnection` is an actor whose executor this is: its isolation *is* the
/// thread confinement sd-bus needs, checked by the compiler. Other actors can share it
/// (`unownedExecutor`) to handle calls without a thread hop.
///
/// It is also a `TaskExecutor`: a task that prefers it resumes from a bus callback straight on
/// this thread, instead of detouring through the global pool and being woken back here.
public final class BusExecutor: SerialExecutor, TaskExecutor {
    private let queue = Locked<[UnownedJob]>([])
    private let timers = Locked(TimerQueue())
    /// How many `sd_bus_process` steps (about one message each) a turn takes at most before
    /// queued jobs and due timers get their turn.
    public static let messagesPerTurn = 32
    private let threadID = Atomic<UInt>(0)
    /// How many times the thread has come back from `poll`: a timer set with
    /// `runAfterNextSleep` waits for this to move past the count it was set at.
    private let sleeps = Atomic<UInt64>(0)
    /// How many times the thread has slept (for tests).
    var sleepCount: UInt64 { sleeps.load(ordering: .relaxed) }
    private let stopRequested = Atomic<Bool>(false)
    /// Called once, on this thread, when the bus goes away under the connection.
    let busLostHandler = Locked<(@Sendable () -> Void)?>(nil)
    /// Wakes the thread out of `poll` when work arrives from another thread.
    let wakeFD: Int32

    init() throws(BusError) {
        let fd = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        if fd < 0 { throw BusError.system(function: "eventfd", errno: errno) }
        wakeFD = fd
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        // Only the push that makes the queue non-empty needs to wake the thread: it drains all.
        // The thread itself never needs waking: it looks at the queue before it sleeps.
        let wasEmpty = queue.withLock { jobs in
            jobs.append(job)
            return jobs.count == 1
        }
        if wasEmpty && !isCurrentThread { wake() }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    public func checkIsolated() {
        precondition(isCurrentThread, "not on the bus thread of this connection")
    }

    /// True on this executor's thread.
    public var isCurrentThread: Bool { threadID.load(ordering: .relaxed) == UInt(pthread_self()) }

    func wake() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    // MARK: Timers

    /// A timer set with `runOnce(after:_:)`, for cancelling it.
    public struct TimerID: Hashable, Sendable {
        let raw: UInt64
    }

    /// Runs `body` once on this executor's thread, between turns, when `delay` has passed
    /// (CLOCK_MONOTONIC). Unlike a sleeping task, it needs no other thread to wake it up and
    /// cannot be starved by a flood of messages (see `messagesPerTurn`).
    @discardableResult
    public func runOnce(after delay: Duration, _ body: @escaping @Sendable () -> Void) -> TimerID {
        let deadline = monotonicMicroseconds() + Self.microseconds(delay)
        let (id, earliest) = timers.withLock { $0.add(deadline: deadline, body) }
        // Only a new earliest deadline can shorten the thread's sleep.
        if earliest && !isCurrentThread { wake() }
        return id
    }

    /// Suspends the calling task for `delay`, on this executor's timer rather than the
    /// runtime's: a task running here (its actor's executor, or its executor preference) goes
    /// on without another thread being woken to time it and hand it back.
    public func sleep(for delay: Duration) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            runOnce(after: delay) { continuation.resume() }
        }
    }

    /// Runs `body` once on this executor's thread after it has next slept, once the messages
    /// it woke up for are handled; or, should it not sleep, after the messages of the first
    /// turn that ends `busy` after the call (a flood); or when `fallback` has passed with the
    /// thread asleep. For work that should wait until the processes this thread just sent to
    /// have had their turn, without a wake-up of its own: a wake-up costs a busy broker as much
    /// as a small update does.
    @discardableResult
    public func runAfterNextSleep(orAfter fallback: Duration, whileBusyAfter busy: Duration, _ body: @escaping @Sendable () -> Void) -> TimerID {
        let now = monotonicMicroseconds()
        let deadline = now + Self.microseconds(fallback)
        let waiting = TimerQueue.AfterSleep(sleeps: sleeps.load(ordering: .relaxed), busyUntil: now + Self.microseconds(busy))
        let (id, earliest) = timers.withLock { $0.add(deadline: deadline, afterSleep: waiting, body) }
        if earliest && !isCurrentThread { wake() }
        return id
    }

    private static func microseconds(_ delay: Duration) -> UInt64 {
        UInt64(max(0, delay.components.seconds * 1_000_000 + delay.components.attoseconds / 1_000_000_000_000))
    }

    /// Cancels a timer that has not fired yet; a fired or unknown one is ignored.
    public func cancel(_ timer: TimerID) {
        timers.withLock { $0.remove(timer) }
    }

    func requestStop() {
        stopRequested.store(true, ordering: .releasing)
        wake()
    }

    // MARK: The loop (on the bus thread)

    /// Starts the thread. `setUp` runs first on it (create the bus there); `nil` ends the thread.
    func start(setUp: @escaping @Sendable () -> BusHandle?) {
        DetachedThread.start(named: "nook-bus") { [self] in
            threadID.store(UInt(pthread_self()), ordering: .relaxed)
            if let bus = setUp() { run(bus: bus.raw) }
        }
    }

    private func run(bus: OpaquePointer) {
        var busAlive = true
        while true {
            runQueuedJobs()
            runDueTimers()
            var moreMessages = false
            if busAlive {
                var processed: Int32
                var budget = Self.messagesPerTurn
                repeat {
                    processed = sd_bus_process(bus, nil)
                    budget -= 1
                } while processed > 0 && budget > 0
                moreMessages = processed > 0
                // -ENOTCONN / -ECONNRESET: the bus is gone; keep serving jobs so callers get errors.
                // A bus that is closing also counts: sd-bus then reports no fd or events to
                // poll, and waiting for one would sleep forever (seen under load: a test
                // whose dbus-daemon was killed never saw its connection close).
                if processed < 0 || (processed == 0 && sd_bus_is_open(bus) <= 0) {
                    busAlive = false
                    busLostHandler.withLock { handler in
                        let run = handler
                        handler = nil
                        return run
                    }?()
                }
            }
            // The turn's messages are handled: what waited for a sleep, or for a busy spell, runs.
            let slept = timers.withLock { $0.takeSlept(before: sleeps.load(ordering: .relaxed), now: monotonicMicroseconds()) }
            for timer in slept { timer() }
            if queue.withLock({ !$0.isEmpty }) || timers.withLock({ $0.isDue(now: monotonicMicroseconds()) }) { continue }
            if stopRequested.load(ordering: .acquiring) { break }
            if moreMessages { continue }
            waitForWork(bus: busAlive ? bus : nil)
            sleeps.add(1, ordering: .relaxed)
        }
        runQueuedJobs()
        sd_bus_flush_close_unref(bus)
        close(wakeFD)
    }

    /// Runs the timers whose deadline has passed, earliest first. Timers a body sets run in a
    /// later turn at the earliest.
    private func runDueTimers() {
        let due = timers.withLock { $0.takeDue(now: monotonicMicroseconds()) }
        for timer in due { timer() }
    }

    private func runQueuedJobs() {
        let jobs = queue.withLock { jobs in
            let taken = jobs
            jobs.removeAll(keepingCapacity: true)
            return taken
        }
        for job in jobs { job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor()) }
    }

    private func waitForWork(bus: OpaquePointer?) {
        var fds = [pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
        var timeoutMs: Int32 = -1
        if let bus {
            let events = sd_bus_get_events(bus)
            let fd = sd_bus_get_fd(bus)
            if events >= 0, fd >= 0 { fds.append(pollfd(fd: fd, events: Int16(events), revents: 0)) }
            var deadline: UInt64 = 0
            if sd_bus_get_timeout(bus, &deadline) > 0, deadline != UInt64.max {
                let now = monotonicMicroseconds()
                timeoutMs = deadline <= now ? 0 : Int32(clamping: (deadline - now + 999) / 1000)
            }
        }
        if let next = timers.withLock({ $0.nextDeadline }) {
            let now = monotonicMicroseconds()
            let untilTimer = next <= now ? 0 : Int32(clamping: (next - now + 999) / 1000)
            timeoutMs = timeoutMs < 0 ? untilTimer : min(timeoutMs, untilTimer)
        }
        let ready = poll(&fds, nfds_t(fds.count), timeoutMs)
        if ready > 0, fds[0].revents & Int16(POLLIN) != 0 {
            var counter: UInt64 = 0
            _ = read(wakeFD, &counter, 8)
        }
    }
}

/// One-shot timers of a `BusExecutor`, earliest deadline first. Few at a time (a broker keeps
/// one frame timer), so a sorted array is enough.
struct TimerQueue {
    /// A `runAfterNextSleep` timer: the executor's sleep count when it was set, and when a
    /// thread that has not slept since runs it anyway.
    struct AfterSleep {
        let sleeps: UInt64
        let busyUntil: UInt64
    }

    private var entries: [(id: UInt64, deadline: UInt64, afterSleep: AfterSleep?, body: @Sendable () -> Void)] = []
    private var nextID: UInt64 = 1

    /// Adds a timer; also says whether it is now the earliest.
    mutating func add(deadline: UInt64, afterSleep: AfterSleep? = nil, _ body: @escaping @Sendable () -> Void) -> (BusExecutor.TimerID, Bool) {
        let id = nextID
        nextID += 1
        let index = entries.firstIndex { $0.deadline > deadline } ?? entries.endIndex
        entries.insert((id, deadline, afterSleep, body), at: index)
        return (BusExecutor.TimerID(raw: id), index == 0)
    }

    mutating func remove(_ timer: BusExecutor.TimerID) {
        entries.removeAll { $0.id == timer.raw }
    }

    var nextDeadline: UInt64? { entries.first?.deadline }

    func isDue(now: UInt64) -> Bool { entries.first.map { $0.deadline <= now } ?? false }

    mutating func takeDue(now: UInt64) -> [@Sendable () -> Void] {
        let count = entries.firstIndex { $0.deadline > now } ?? entries.endIndex
        let due = entries.prefix(count).map(\.body)
        entries.removeFirst(count)
        return due
    }

    /// Takes the `runAfterNextSleep` timers set before the thread's sleep number `sleeps`, or
    /// whose busy spell has run out by `now`.
    mutating func takeSlept(before sleeps: UInt64, now: UInt64) -> [@Sendable () -> Void] {
        func ready(_ waiting: AfterSleep?) -> Bool {
            guard let waiting else { return false }
            return waiting.sleeps < sleeps || waiting.busyUntil <= now
        }
        guard entries.contains(where: { ready($0.afterSleep) }) else { return [] }
        var slept: [@Sendable () -> Void] = []
        entries.removeAll { entry in
            guard ready(entry.afterSleep) else { return false }
            slept.append(entry.body)
            return true
        }
        return slept
    }
}

/// An `sd_bus *` on its way from the bus thread that created it to the actor that owns it.
/// Safe to send: it is only ever dereferenced on that same thread.
struct BusHandle: @unchecked Sendable {
    let raw: OpaquePointer
}

func monotonicMicroseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000 + UInt64(ts.tv_nsec) / 1000
}
