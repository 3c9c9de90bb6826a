import Foundation

/// Whether a child has exited, read from `/proc` instead of Foundation's `Process`.
///
/// Foundation notices a child's exit through a descriptor the child holds; under load a
/// concurrently spawned process can hold it too, so `isRunning` stays true long after the
/// child died and `waitUntilExit()` spins a cooperative thread at full speed until that other
/// process exits (swift-corelibs-foundation #4795). A suite that waits that way can stall
/// whole: here, waits read the kernel's view and are bounded.
public enum ChildExit {
    /// True once `pid` is a zombie or gone.
    public static func hasExited(_ pid: Int32) -> Bool {
        guard pid > 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        // "pid (comm) S ...": the state follows the command name's closing parenthesis.
        let rest = stat[stat.index(after: close)...].drop { $0 == " " }
        guard let state = rest.first else { return true }
        return state == "Z" || state == "X"
    }

    /// Waits, polling without spinning, until `pid` has exited or `timeout` passes.
    public static func wait(_ pid: Int32, timeout: Duration = .seconds(30)) async -> Bool {
        await eventually(timeout: timeout, poll: .milliseconds(10)) { hasExited(pid) }
    }

    /// The same for synchronous callers (deinit, `stop()`): sleeps between looks, so a thread
    /// it blocks is not burned, and gives up after `timeout`.
    public static func waitBlocking(_ pid: Int32, timeout: Duration = .seconds(30)) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while !hasExited(pid) {
            if clock.now >= deadline { return false }
            usleep(10_000)
        }
        return true
    }
}
