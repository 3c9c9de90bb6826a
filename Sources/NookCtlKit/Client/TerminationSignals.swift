import Foundation

/// SIGINT and SIGTERM for `watch` and `record`: the first one cancels the running command
/// (so `record` still writes its file and `watch` unsubscribes); a second one ends the process
/// the default way.
///
/// The handler only writes the signal's number into a pipe (all a signal handler may safely
/// do); a thread of its own reads the pipe and cancels the task. The handler is installed
/// explicitly, so a recorder started in the background by a shell (which ignores SIGINT for
/// background jobs) still stops cleanly on `kill -INT`.
enum TerminationSignals {
    /// The pipe's write end, read by the handler. Set once, before the handler is installed.
    nonisolated(unsafe) static var writeEnd: Int32 = -1

    /// Cancels `task` on the first SIGINT or SIGTERM.
    static func cancel<T: Sendable>(_ task: Task<T, Never>) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }  // no pipe: the signals keep their default action
        writeEnd = ends[1]
        let readEnd = ends[0]
        let thread = Thread {
            var byte: UInt8 = 0
            guard read(readEnd, &byte, 1) == 1 else { return }
            // From now on a second signal ends the process at once.
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
            task.cancel()
        }
        thread.start()
        for number in [SIGINT, SIGTERM] {
            signal(number) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(TerminationSignals.writeEnd, &byte, 1)
            }
        }
    }
}
