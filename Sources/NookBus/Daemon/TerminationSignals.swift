import Foundation

/// SIGTERM and SIGINT as an async stream: nookd writes its state and a module ends its
/// activities before they exit.
///
/// The handler only writes the signal's number into a pipe (all a signal handler may safely
/// do); a thread of its own reads the pipe and yields to the stream. A real handler, unlike
/// an ignored signal watched by a dispatch source, catches the signal on whichever thread the
/// kernel picks.
public enum TerminationSignals {
    /// The pipe's write end, read by the handler. Set once, before the handler is installed.
    nonisolated(unsafe) static var writeEnd: Int32 = -1

    /// Installs the handlers once and returns the stream of signal numbers.
    public static func install() -> AsyncStream<Int32> {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { fatalError("pipe() failed: \(errno)") }
        writeEnd = ends[1]
        let readEnd = ends[0]
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        let thread = Thread {
            // A parent may hand the signals over blocked (the mask survives exec): this thread
            // takes them, so they are delivered even if every other thread blocks them.
            var wanted = sigset_t()
            sigemptyset(&wanted)
            sigaddset(&wanted, SIGTERM)
            sigaddset(&wanted, SIGINT)
            pthread_sigmask(SIG_UNBLOCK, &wanted, nil)
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) == 1 { continuation.yield(Int32(byte)) }
        }
        thread.start()
        for number in [SIGTERM, SIGINT] {
            signal(number) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(TerminationSignals.writeEnd, &byte, 1)
            }
        }
        return stream
    }
}
