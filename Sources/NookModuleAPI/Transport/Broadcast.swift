import NookCore
import NookBus
import Synchronization

/// Hands each value to every current subscriber's `AsyncStream`. Safe from any thread: the
/// subscriber table sits behind a mutex, and continuations are themselves thread-safe.
final class Broadcast<Element: Sendable>: Sendable {
    private let subscribers = Locked<[Int: AsyncStream<Element>.Continuation]>([:])
    private let nextId = Atomic<Int>(0)
    private let finished = Atomic<Bool>(false)

    /// A new stream that receives every value yielded from now on (the newest `limit` when
    /// the reader falls behind).
    func subscribe(limit: Int = 256) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .bufferingNewest(limit))
        if finished.load(ordering: .acquiring) {
            continuation.finish()
            return stream
        }
        let id = nextId.add(1, ordering: .relaxed).newValue
        subscribers.withLock { $0[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.subscribers.withLock { $0.removeValue(forKey: id) }
        }
        return stream
    }

    func yield(_ element: Element) {
        for continuation in subscribers.withLock({ Array($0.values) }) { continuation.yield(element) }
    }

    /// Ends every stream; later subscribers get a finished stream.
    func finish() {
        finished.store(true, ordering: .releasing)
        for continuation in subscribers.withLock({ table in defer { table.removeAll() }; return Array(table.values) }) {
            continuation.finish()
        }
    }
}
