#if canImport(Glibc)
import Glibc
#endif

/// A pipe that wakes a thread sleeping in `poll` so it can stop: the thread polls `readEnd`
/// beside what it watches, and `stop()` writes a byte to `writeEnd`. Both ends close on exec.
/// The thread closes both as it leaves (`close()`), so `stop()` is called once, before.
package struct StopPipe: Sendable {
    package let readEnd: Int32
    package let writeEnd: Int32

    package init?() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        (readEnd, writeEnd) = (ends[0], ends[1])
    }

    package func stop() {
        var one: UInt8 = 1
        _ = write(writeEnd, &one, 1)
    }

    package func close() {
        _ = Glibc.close(readEnd)
        _ = Glibc.close(writeEnd)
    }
}
