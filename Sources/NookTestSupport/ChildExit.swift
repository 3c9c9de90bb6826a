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

    /// The exit status of `process` once it has exited, read from Foundation when it has
    /// noticed, else from the kernel (`/proc/PID/stat`'s `exit_code` of the zombie): a
    /// termination handler can fire late or, while a process spawned alongside lives, never
    /// (see above). A signal's death reads as 128 + the signal, as a shell reports it.
    /// Nil when it is still running after `timeout`.
    public static func status(of process: Process, timeout: Duration = .seconds(120)) async -> Int32? {
        let pid = process.processIdentifier
        let clock = ContinuousClock()
        let deadline = clock.now + TestDeadlines.scaled(timeout)
        while clock.now < deadline {
            if !process.isRunning {
                return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
            }
            if let raw = zombieStatus(pid) {
                return raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
            }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return nil
    }

    /// The wait status a zombie `pid` left (`exit_code`, field 52 of `/proc/PID/stat`).
    static func zombieStatus(_ pid: Int32) -> Int32? {
        guard pid > 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after the command name start at field 3 (the state).
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.first == "Z", fields.count >= 50, let code = Int32(fields[49].trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        return code
    }

    /// Waits, polling without spinning, until `pid` has exited or `timeout` passes.
    public static func wait(_ pid: Int32, timeout: Duration = .seconds(30)) async -> Bool {
        await eventually(timeout: timeout, poll: .milliseconds(10)) { hasExited(pid) }
    }

    /// The same for synchronous callers (deinit, `stop()`): sleeps between looks, so a thread
    /// it blocks is not burned, and gives up after `timeout`.
    public static func waitBlocking(_ pid: Int32, timeout: Duration = .seconds(30)) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + TestDeadlines.scaled(timeout)
        while !hasExited(pid) {
            if clock.now >= deadline { return false }
            usleep(10_000)
        }
        return true
    }
}
