#if canImport(Glibc)
import Glibc
#endif
import NookBus
import NookCore

/// Expensive calls (`Render.Subscribe`, `Control.PreviewPlan`, `Modules.Register`) charged to
/// the process that makes them (`CallLimits`, `WorkLimiter`).
extension Broker {
    /// Runs the work of `member` for `caller`, charging the bus thread's CPU time it takes to
    /// the caller's process; a process that has used its share is refused before any work.
    /// - Throws: `LimitsExceeded` naming the call, the limit and when to try again; or what
    ///   `body` throws.
    /// - Parameter refused: runs when the call is refused (to release what `body` would have).
    func limited<Result>(_ member: String, caller: String, refused: () -> Void = {}, _ body: () throws -> Result) throws -> Result {
        let peer = self.peer(of: caller)
        if let wait = work.wait(peer, at: now.seconds) {
            refused()
            // Percent to a tenth: a share below 1% (set with --limits) still reads as itself.
            let share = NumberText.short((work.share * 1000).rounded() / 10)
            throw DBusError(nook: .limitsExceeded, "\(member): \(peer) has used its share of nookd's time for Subscribe, PreviewPlan and Register (workShare \(share)% of each second, workBurst \(work.burst) s); try again in \(Int((wait * 1000).rounded(.up))) ms")
        }
        let started = Self.threadCPUSeconds()
        defer { work.charge(peer, max(0, Self.threadCPUSeconds() - started), at: now.seconds) }
        return try body()
    }

    /// The CPU time the calling thread has used, in seconds: what a call costs the bus thread,
    /// whatever else the machine runs (wall time would charge a process for being preempted).
    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The process behind the connection `name`, asked of the bus daemon once per connection;
    /// the connection itself when the daemon cannot say.
    func peer(of name: String) -> Peer {
        if let known = callerProcesses[name] { return known }
        let peer = connection.assumeIsolated { $0.processIDNow(of: name) }.map(Peer.process) ?? .connection(name)
        // Unique names are never reused; forgetting them all now and then bounds the table.
        if callerProcesses.count >= WorkLimiter.maxTracked { callerProcesses.removeAll() }
        callerProcesses[name] = peer
        return peer
    }
}
