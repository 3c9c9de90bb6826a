import Foundation
import NookBus
import NookTestSupport
import Synchronization

/// The real `nookd` executable, started by a test on a private bus and ended by its pid
/// (through NookTestSupport's `PackageProcess`).
final class NookdProcess: Sendable {
    private let process: PackageProcess
    let stateDirectory: URL
    /// Its private `XDG_CONFIG_HOME`: the theme file is `nook/theme.json` in it.
    let configDirectory: URL
    var logFile: URL { process.logFile }
    var pid: Int32 { process.pid }

    /// The nookd executable built next to the test bundle.
    static func executable() throws -> URL { try PackageProcess.executable("nookd") }

    /// Starts nookd and waits until it owns `org.nook.Nook1`.
    /// - Parameters:
    ///   - stateDirectory: reuse one to test restarts.
    ///   - grace: a `broker.moduleGrace` override, written to a theme in a private config home.
    init(bus: PrivateBus, stateDirectory: URL, grace: String? = nil, notifySocket: String? = nil) async throws {
        self.stateDirectory = stateDirectory
        let home = stateDirectory.deletingLastPathComponent()
        let config = home.appendingPathComponent("config-\(UUID().uuidString)")
        configDirectory = config
        try FileManager.default.createDirectory(at: config.appendingPathComponent("nook"), withIntermediateDirectories: true)
        if let grace {
            let theme = #"{"broker": {"moduleGrace": {"$type": "duration", "$value": "\#(grace)"}}}"#
            try theme.write(to: config.appendingPathComponent("nook/theme.json"), atomically: true, encoding: .utf8)
        }
        process = try PackageProcess(
            "nookd", ["--address", bus.address, "--state-dir", stateDirectory.path, "--verbose"], logDirectory: home,
            environment: ["XDG_CONFIG_HOME": config.path, "NOTIFY_SOCKET": notifySocket])
        let watcher = try await BusConnection.connect(to: .address(bus.address))
        defer { Task { await watcher.close() } }
        let process = self.process
        let up = try await eventually { try await watcher.nameOwner(of: "org.nook.Nook1") != nil || !process.isRunning }
        guard up, process.isRunning else {
            throw TestSupportError("nookd did not start: \(log)")
        }
    }

    var log: String { process.log }
    var isRunning: Bool { process.isRunning }

    func signal(_ number: Int32) { process.signal(number) }

    /// Sends `signal` and waits for the exit; returns the exit status (nil: killed by a signal).
    @discardableResult
    func stop(_ number: Int32 = SIGTERM) async -> Int32? { await process.stop(number) }
}

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
    private let signals = Mutex<[BusSignal]>([])
    func append(_ signal: BusSignal) { signals.withLock { $0.append(signal) } }
    var all: [BusSignal] { signals.withLock { $0 } }
}
