import Foundation
import NookBus
import NookTestSupport
import Synchronization

/// Signals a connection received, collected on its bus thread.
final class SignalLog: Sendable {
    private let signals = Locked<[BusSignal]>([])
    func append(_ signal: BusSignal) { signals.withLock { $0.append(signal) } }
    var all: [BusSignal] { signals.withLock { $0 } }
}
