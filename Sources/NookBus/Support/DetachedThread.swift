#if canImport(Glibc)
import Glibc
#endif

/// A plain detached POSIX thread running `body`: the bus threads and the signal readers need
/// a thread of their own, and Foundation's `Thread` would pull libFoundation into nookd.
package enum DetachedThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts `body` on a new thread named `name` (at most 15 bytes are kept): a thread takes
    /// its creator's name otherwise, and top, perf and gdb then show every bus thread as the
    /// runtime's `com.apple.root.default-qos`.
    package static func start(named name: String, _ body: @escaping @Sendable () -> Void) {
        let context = Unmanaged.passRetained(Body {
            setThreadName(name)
            body()
        }).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            Unmanaged<Body>.fromOpaque(raw!).takeRetainedValue().run()
            return nil
        }, context)
        precondition(result == 0, "pthread_create failed: \(result)")
        pthread_detach(thread)
    }

    /// Names the calling thread through /proc (glibc's `pthread_setname_np` is not visible to
    /// Swift, and `prctl` is variadic); the kernel keeps the first 15 bytes.
    private static func setThreadName(_ name: String) {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    }
}
