#if canImport(Glibc)
import Glibc
#endif

/// A value behind a `pthread_mutex_t`: what `Synchronization.Mutex` offers, with locking that
/// ThreadSanitizer sees. `Mutex` on Linux waits on a futex through the standard library, which
/// is not built with ThreadSanitizer, so every hand-off through it (a bus thread queueing a job,
/// a test collecting signals) was reported as a race. Used where values cross threads.
package final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
