import Dispatch
import NookBus
import NookTestSupport
import Synchronization

/// Holds a connection's bus thread until released: meanwhile the connection reads nothing
/// and answers no `Peer.Ping` (sd-bus answers them as it processes messages), as a renderer
/// that stopped reading does. What arrives meanwhile waits in its socket and the bus daemon,
/// and is read, in order, once released.
final class BusThreadHold: Sendable {
    private let gate: DispatchSemaphore

    /// Returns once the bus thread is held.
    init(_ connection: BusConnection) async throws {
        let gate = DispatchSemaphore(value: 0)
        let entered = Locked(false)
        self.gate = gate
        Task {
            try await connection.perform { _ in
                entered.withLock { $0 = true }
                Self.wait(gate)
            }
        }
        guard await eventually(timeout: .seconds(60), { entered.withLock { $0 } }) else {
            gate.signal()
            throw TestSupportError("the connection's bus thread never ran the hold")
        }
    }

    /// Blocks the calling thread (the bus thread) until `release`.
    private static func wait(_ gate: DispatchSemaphore) { gate.wait() }

    /// Lets the bus thread go on; it reads what waited.
    func release() { gate.signal() }
}
