import Glibc
import NookBus

/// SIGINT and SIGTERM for `watch` and `record`: the first one cancels the running command (so
/// `record` still writes its file and `watch` unsubscribes); a second one ends the process the
/// default way. The handlers are installed explicitly, so a recorder started in the background
/// by a shell (which ignores SIGINT for background jobs) still stops cleanly on `kill -INT`.
extension TerminationSignals {
    /// Cancels `task` on the first SIGINT or SIGTERM.
    static func cancel<T: Sendable>(_ task: Task<T, Never>) {
        let signals = install()
        Task.detached {
            for await _ in signals {
                // From now on a second signal ends the process at once.
                signal(SIGINT, SIG_DFL)
                signal(SIGTERM, SIG_DFL)
                task.cancel()
                return
            }
        }
    }
}
