import Foundation
import NookCore

/// The real `nookd` on a private bus, with its own state and config directories, its output
/// in a log file, ended by its pid: the one nookd fixture of every test suite.
public final class NookdProcess: Sendable {
    public let process: PackageProcess
    public let stateDirectory: URL
    /// Its private `XDG_CONFIG_HOME`: the theme file is `nook/theme.json` in it.
    public let configDirectory: URL
    public var logFile: URL { process.logFile }
    public var pid: Int32 { process.pid }
    public var log: String { process.log }
    public var isRunning: Bool { process.isRunning }

    /// A `grace` no test run comes near, for tests whose module must come back within its
    /// grace (after a kill, or to a restarted nookd that restored it): the grace is a time by
    /// definition, and nookd's default 10 s was outlasted under load, the module coming back
    /// to a table that no longer had it.
    public static let graceNoRunOutlasts = "3600s"

    /// The nookd executable built next to the test bundle.
    public static func executable() throws -> URL { try PackageProcess.executable("nookd") }

    /// Starts nookd and waits until it serves `org.nook.Nook1` (it logs so once it owns the
    /// name), or throws with its log when it exits first.
    /// - Parameters:
    ///   - stateDirectory: reuse one to test restarts.
    ///   - configDirectory: its `XDG_CONFIG_HOME`; nil: a fresh one next to `stateDirectory`.
    ///   - logDirectory: nil: `stateDirectory`'s parent.
    ///   - grace: a `broker.moduleGrace` override, written to `nook/theme.json` in the config home.
    ///   - limits: nookd's `--limits` (`NAME=VALUE,...`), when given.
    public init(
        bus: PrivateBus, stateDirectory: URL, configDirectory: URL? = nil, logDirectory: URL? = nil,
        grace: String? = nil, notifySocket: String? = nil, limits: String? = nil
    ) async throws {
        let home = stateDirectory.deletingLastPathComponent()
        let config = configDirectory ?? home.appendingPathComponent("config-\(UUID().uuidString)")
        self.stateDirectory = stateDirectory
        self.configDirectory = config
        try FileManager.default.createDirectory(at: config.appendingPathComponent("nook"), withIntermediateDirectories: true)
        if let grace {
            let theme = #"{"broker": {"moduleGrace": {"$type": "duration", "$value": "\#(grace)"}}}"#
            try theme.write(to: config.appendingPathComponent("nook/theme.json"), atomically: true, encoding: .utf8)
        }
        let process = try PackageProcess(
            "nookd", ["--address", bus.address, "--state-dir", stateDirectory.path, "--verbose"] + (limits.map { ["--limits", $0] } ?? []),
            logDirectory: logDirectory ?? home,
            environment: ["XDG_CONFIG_HOME": config.path, "NOTIFY_SOCKET": notifySocket])
        self.process = process
        let up = await eventually(timeout: .seconds(60), poll: .milliseconds(20)) {
            process.log.contains("serving \(NookNames.busName) at") || !process.isRunning
        }
        guard up, process.isRunning else {
            await process.stop()
            throw TestSupportError("nookd did not start: \(process.log)")
        }
    }

    /// nookd with `home/state` and `home/config`, its log in `home`.
    public convenience init(bus: PrivateBus, home: URL, grace: String? = nil) async throws {
        try await self.init(
            bus: bus, stateDirectory: home.appendingPathComponent("state"), configDirectory: home.appendingPathComponent("config"),
            logDirectory: home, grace: grace)
    }

    public func signal(_ number: Int32) { process.signal(number) }

    /// Sends `signal` and waits for the exit; returns the exit status (nil: killed by a signal).
    @discardableResult
    public func stop(_ number: Int32 = SIGTERM) async -> Int32? { await process.stop(number) }
}
