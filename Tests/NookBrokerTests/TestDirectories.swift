import Foundation
import NookBus
import NookTestSupport
import Synchronization

/// A temporary directory for one test, removed afterwards.
struct TemporaryDirectory {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("nook-broker-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func remove() { try? FileManager.default.removeItem(at: url) }
    var stateDirectory: URL { url.appendingPathComponent("state") }
}

/// Signals a connection received, collected on its bus thread.
final class SignalLog: Sendable {
    private let signals = Locked<[BusSignal]>([])
    func append(_ signal: BusSignal) { signals.withLock { $0.append(signal) } }
    var all: [BusSignal] { signals.withLock { $0 } }
}
