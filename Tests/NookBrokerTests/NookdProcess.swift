import Foundation
import NookBus
import NookTestSupport
import Synchronization

/// The real `nookd` executable, started by a test on a private bus and ended by its pid.
final class NookdProcess: @unchecked Sendable {
    // Process is not Sendable; this wrapper only signals by pid and waits for the exit.
    private let process: Process
    let stateDirectory: URL
    let logFile: URL
    var pid: Int32 { process.processIdentifier }

    /// The executable built next to the test bundle (`swift build` builds it before tests).
    static func executable() throws -> URL {
        var candidates: [URL] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("nookd"))
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/nookd"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw TestSupportError("nookd is not built (looked at \(candidates.map(\.path)))")
        }
        return found
    }

    /// Starts nookd and waits until it owns `org.nook.Nook1`.
    /// - Parameters:
    ///   - stateDirectory: reuse one to test restarts.
    ///   - grace: a `broker.moduleGrace` override, written to a theme in a private config home.
    init(bus: PrivateBus, stateDirectory: URL, grace: String? = nil, notifySocket: String? = nil) async throws {
        self.stateDirectory = stateDirectory
        let home = stateDirectory.deletingLastPathComponent()
        let config = home.appendingPathComponent("config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: config.appendingPathComponent("nook"), withIntermediateDirectories: true)
        if let grace {
            let theme = #"{"broker": {"moduleGrace": {"$type": "duration", "$value": "\#(grace)"}}}"#
            try theme.write(to: config.appendingPathComponent("nook/theme.json"), atomically: true, encoding: .utf8)
        }
        logFile = home.appendingPathComponent("nookd-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        process = Process()
        process.executableURL = try Self.executable()
        process.arguments = ["--address", bus.address, "--state-dir", stateDirectory.path, "--verbose"]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = config.path
        environment["NOTIFY_SOCKET"] = notifySocket
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: logFile)
        try process.run()
        let watcher = try await BusConnection.connect(to: .address(bus.address))
        defer { Task { await watcher.close() } }
        let process = self.process
        let up = try await eventually { try await watcher.nameOwner(of: "org.nook.Nook1") != nil || !process.isRunning }
        guard up, process.isRunning else {
            throw TestSupportError("nookd did not start: \(log)")
        }
    }

    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }
    var isRunning: Bool { process.isRunning }

    func signal(_ number: Int32) {
        if process.isRunning { kill(pid, number) }
    }

    /// Sends `signal` and waits for the exit; returns the exit status (nil: killed by a signal).
    @discardableResult
    func stop(_ number: Int32 = SIGTERM) async -> Int32? {
        signal(number)
        let process = self.process
        _ = await eventually { !process.isRunning }
        if process.isRunning {
            kill(pid, SIGKILL)
            process.waitUntilExit()
        }
        return process.terminationReason == .exit ? process.terminationStatus : nil
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }
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
