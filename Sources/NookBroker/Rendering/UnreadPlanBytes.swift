/// Bytes of plans sent to each connection that it has not acknowledged, and their sum: what
/// the bus daemon holds on nookd's behalf for renderers that read slowly or not at all, and
/// charges to nookd until they read it (docs/broker.md, "Limits against slow and greedy
/// peers"). A pure value, kept apart from subscriptions: unsubscribing does not make the bus
/// daemon forget what it holds, only reading or leaving the bus does.
///
/// ```swift
/// var unread = UnreadPlanBytes()
/// unread.sent(900_000, to: ":1.7")
/// unread.total                       // 900000
/// unread.read(900_000, by: ":1.7")   // the answer to a ping sent after it
/// ```
public struct UnreadPlanBytes: Hashable, Sendable {
    public private(set) var byConnection: [String: Int] = [:]
    public private(set) var total = 0
    /// Bumped for a connection each time its count is set from what the bus daemon says it
    /// holds (`settle`): acknowledgements of bytes counted before then no longer apply.
    private var generations: [String: Int] = [:]

    public init() {}

    public func unread(_ connection: String) -> Int { byConnection[connection] ?? 0 }

    /// The generation acknowledgements of bytes sent to `connection` now belong to.
    public func generation(of connection: String) -> Int { generations[connection] ?? 0 }

    public mutating func sent(_ bytes: Int, to connection: String) {
        guard bytes > 0 else { return }
        byConnection[connection, default: 0] += bytes
        total += bytes
    }

    /// `bytes` sent to `connection` were read (a ping sent after them was answered), or the bus
    /// daemon dropped them (the connection left). Ignored when the count was settled since
    /// (`generation` is older).
    public mutating func read(_ bytes: Int, by connection: String, generation: Int? = nil) {
        if let generation, generation != self.generation(of: connection) { return }
        let held = byConnection[connection] ?? 0
        let freed = min(max(0, bytes), held)
        byConnection[connection] = held - freed > 0 ? held - freed : nil
        total -= freed
    }

    /// The bus daemon holds only `heldByBus` bytes for `connection` (anyone's): it read more
    /// than it acknowledged (a client that reads without dispatching, so never answers a
    /// ping). Its count drops to that, and acknowledgements still on their way for the bytes
    /// counted before are ignored.
    /// - Returns: whether the count dropped.
    @discardableResult
    public mutating func settle(_ connection: String, heldByBus: Int) -> Bool {
        let held = byConnection[connection] ?? 0
        guard heldByBus < held else { return false }
        byConnection[connection] = heldByBus > 0 ? heldByBus : nil
        total -= held - max(0, heldByBus)
        generations[connection, default: 0] += 1
        return true
    }

    /// Forgets a connection that left the bus: what the daemon held for it is gone.
    public mutating func forget(_ connection: String) {
        total -= byConnection.removeValue(forKey: connection) ?? 0
        generations[connection] = nil
    }
}
