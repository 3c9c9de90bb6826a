#if canImport(Glibc)
import Glibc
#endif

/// Signals as async streams: SIGTERM and SIGINT so nookd writes its state and a module ends its
/// activities before they exit (`install()`), SIGHUP so nookd reloads its theme (`reloads()`).
///
/// The handler only writes the signal's number into its set's pipe (all a signal handler may
/// safely do); a thread per set reads the pipe and yields to the stream. A real handler, unlike
/// an ignored signal watched by a dispatch source, catches the signal on whichever thread the
/// kernel picks.
public enum TerminationSignals {
    /// Each signal's pipe write end, by number (1...64), read by the handler. A raw buffer, so
    /// the handler does a plain load (no reference counting); an entry is written before the
    /// handler for that signal is installed.
    nonisolated(unsafe) static let writeEnds: UnsafeMutablePointer<Int32> = {
        let ends = UnsafeMutablePointer<Int32>.allocate(capacity: 65)
        ends.initialize(repeating: -1, count: 65)
        return ends
    }()

    /// SIGTERM and SIGINT. Installs the handlers and returns the stream of signal numbers.
    public static func install() -> AsyncStream<Int32> { stream(of: [SIGTERM, SIGINT]) }

    /// SIGHUP, the conventional "reload your configuration" (systemd's `ExecReload=kill -HUP`).
    public static func reloads() -> AsyncStream<Int32> { stream(of: [SIGHUP]) }

    /// Installs handlers for `numbers` (each 1...64) that feed one new stream.
    public static func stream(of numbers: [Int32]) -> AsyncStream<Int32> {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { fatalError("pipe() failed: \(errno)") }
        let readEnd = ends[0]
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        DetachedThread.start(named: "nook-signals") {
            // A parent may hand the signals over blocked (the mask survives exec): this thread
            // takes them, so they are delivered even if every other thread blocks them.
            var wanted = sigset_t()
            sigemptyset(&wanted)
            for number in numbers { sigaddset(&wanted, number) }
            pthread_sigmask(SIG_UNBLOCK, &wanted, nil)
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) == 1 { continuation.yield(Int32(byte)) }
        }
        for number in numbers {
            precondition(number > 0 && number <= 64, "signal \(number) out of range")
            writeEnds[Int(number)] = ends[1]
            signal(number) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(TerminationSignals.writeEnds[Int(number)], &byte, 1)
            }
        }
        return stream
    }
}
