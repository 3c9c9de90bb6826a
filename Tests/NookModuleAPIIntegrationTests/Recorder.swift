import NookBus
import Synchronization

/// Collects what a stream yields, on a task of its own, so a test can wait for an element
/// with `eventually` without owning the stream's iterator.
final class Recorder<Element: Sendable>: Sendable {
    private let items = Locked<[Element]>([])
    private let task = Locked<Task<Void, Never>?>(nil)

    init(_ stream: AsyncStream<Element>) {
        let reader = Task { [self] in
            for await item in stream { self.items.withLock { $0.append(item) } }
        }
        task.withLock { $0 = reader }
    }

    var all: [Element] { items.withLock { $0 } }

    func stop() { task.withLock { $0?.cancel() } }
}
