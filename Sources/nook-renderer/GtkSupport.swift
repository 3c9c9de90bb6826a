import CGtk

/// The C cast macros (`GTK_WINDOW(w)`) do not import: one generic reinterpretation instead.
func gtkCast<T>(_ pointer: UnsafeMutableRawPointer?, to type: T.Type) -> UnsafeMutablePointer<T> {
    pointer!.assumingMemoryBound(to: type)
}

func gtkCast<From, T>(_ pointer: UnsafeMutablePointer<From>?, to type: T.Type) -> UnsafeMutablePointer<T> {
    UnsafeMutableRawPointer(pointer!).assumingMemoryBound(to: type)
}

/// `g_signal_connect`, which is a macro: `handler` is a `@convention(c)` function whose
/// signature matches the signal's, passed as a `GCallback`.
@discardableResult
func connectSignal<Handler>(_ instance: UnsafeMutableRawPointer, _ signal: String, _ handler: Handler,
                            _ userData: UnsafeMutableRawPointer? = nil) -> gulong {
    g_signal_connect_data(instance, signal, unsafeBitCast(handler, to: GCallback.self), userData, nil, GConnectFlags(rawValue: 0))
}

/// Runs closures on the GTK main loop. The bus thread posts here and never touches GTK itself.
enum MainLoop {
    private final class Job {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Queues `body` on the GTK main loop (`g_idle_add`, thread-safe in GLib).
    static func post(_ body: @escaping @Sendable () -> Void) {
        let job = Unmanaged.passRetained(Job(body)).toOpaque()
        g_idle_add({ data in
            let job = Unmanaged<Job>.fromOpaque(data!).takeRetainedValue()
            job.body()
            return 0  // G_SOURCE_REMOVE
        }, job)
    }

    /// Calls `body` on the main loop every `milliseconds` for as long as it returns true.
    static func every(milliseconds: UInt32, _ body: @escaping @Sendable () -> Bool) {
        let job = Unmanaged.passRetained(Repeating(body)).toOpaque()
        g_timeout_add(milliseconds, { data in
            if Unmanaged<Repeating>.fromOpaque(data!).takeUnretainedValue().body() { return 1 }  // G_SOURCE_CONTINUE
            Unmanaged<Repeating>.fromOpaque(data!).release()
            return 0  // G_SOURCE_REMOVE
        }, job)
    }

    private final class Repeating {
        let body: @Sendable () -> Bool
        init(_ body: @escaping @Sendable () -> Bool) { self.body = body }
    }

    /// Calls `body` on the main loop just after each whole second of the wall clock, so a
    /// countdown changes digit when the second does, until `body` returns false.
    static func onEachWallSecond(_ body: @escaping @Sendable () -> Bool) {
        armWallSecond(Unmanaged.passRetained(SecondJob(body)).toOpaque())
    }

    private final class SecondJob {
        let body: @Sendable () -> Bool
        init(_ body: @escaping @Sendable () -> Bool) { self.body = body }
    }

    private static func armWallSecond(_ job: UnsafeMutableRawPointer) {
        let intoSecond = UInt32((g_get_real_time() / 1000) % 1000)
        g_timeout_add(1000 - intoSecond + 2, { data in
            let job = Unmanaged<SecondJob>.fromOpaque(data!)
            if job.takeUnretainedValue().body() {
                MainLoop.armWallSecond(data!)
            } else {
                job.release()
            }
            return 0  // G_SOURCE_REMOVE: armed again for the next second, or done
        }, job)
    }
}

/// A value that lives on the GTK main thread and is reached from closures that must be
/// `Sendable` to cross from the bus thread.
final class MainThreadBox<Value>: @unchecked Sendable {
    // @unchecked: `value` is only read or written on the GTK main thread, which `value`
    // checks (the thread that created the box runs gtk_main).
    private var stored: Value
    private let owner = pthread_self()

    init(_ value: Value) { stored = value }

    var value: Value {
        get { precondition(pthread_equal(owner, pthread_self()) != 0, "GTK state touched off the main thread"); return stored }
        set { precondition(pthread_equal(owner, pthread_self()) != 0, "GTK state touched off the main thread"); stored = newValue }
    }
}

/// Monotonic seconds on the clock GDK's frame clock uses (`g_get_monotonic_time`).
func monotonicSeconds() -> Double { Double(g_get_monotonic_time()) / 1_000_000 }

/// Seconds since 1970, for `timer_end` countdowns.
func unixSeconds() -> Double { Double(g_get_real_time()) / 1_000_000 }
