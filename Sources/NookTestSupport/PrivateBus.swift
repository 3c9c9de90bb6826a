import Foundation
import Synchronization

/// A private `dbus-daemon` for one test: its own socket in a temporary directory, a permissive
/// policy, no service activation. Tests never touch the user's session bus.
///
/// ```swift
/// try await PrivateBus.with { bus in
///     let connection = try await BusConnection.connect(to: .address(bus.address))
/// }
/// ```
public final class PrivateBus: Sendable {
    /// The running daemon's address (with its `guid`, which changes on `restart()`).
    public var address: String { daemon.withLock { $0.address } }
    /// The running daemon's pid.
    public var pid: Int32 { daemon.withLock { $0.process.processIdentifier } }
    private let daemon: Mutex<Daemon>
    private let directory: URL
    /// Added to the daemon's environment (which services it activates inherit).
    private let environment: [String: String]

    private struct Daemon {
        var process: Process
        var address: String
    }

    private var configFile: URL { directory.appendingPathComponent("bus.conf") }
    private var socketFile: URL { directory.appendingPathComponent("socket") }

    /// Whether users other than the daemon's own may connect (`init(allowingOtherUsers:)`).
    private let allowsOtherUsers: Bool

    /// Starts a daemon and waits until it prints its address.
    /// - Parameters:
    ///   - allowingOtherUsers: let processes of any local user connect, not only this process's
    ///     user (dbus-daemon's default): the Wayland suite runs the renderer as an unprivileged
    ///     user beside a nookd run as root. The socket is made writable by all (connecting to a
    ///     Unix socket needs write permission) and the policy allows every user.
    ///   - serviceDirectories: D-Bus `.service` files to activate from, as a session bus reads
    ///     `share/dbus-1/services`: the daemon starts the program a file names on the first call
    ///     to its bus name. Activated programs inherit this process's environment with
    ///     `environment` added (point their state and config away from the user's). They are
    ///     the daemon's children, not the test's: end them by the pid
    ///     `GetConnectionUnixProcessID` reports.
    ///   - limits: dbus-daemon `<limit>`s to set instead of the session bus's, by name
    ///     (`max_incoming_bytes`: lower it to reach a sender's quota quickly).
    public init(allowingOtherUsers: Bool = false, serviceDirectories: [URL] = [], environment: [String: String] = [:],
                limits: [String: Int] = [:]) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nook-bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.environment = environment
        allowsOtherUsers = allowingOtherUsers
        let socket = directory.appendingPathComponent("socket").path
        try Self.config(socket: socket, allowingOtherUsers: allowingOtherUsers, serviceDirectories: serviceDirectories, limits: limits)
            .write(to: directory.appendingPathComponent("bus.conf"), atomically: true, encoding: .utf8)
        let (process, address) = try Self.launch(config: directory.appendingPathComponent("bus.conf"), environment: environment)
        daemon = Mutex(Daemon(process: process, address: address))
        try openSocketToOtherUsers()
    }

    /// With `allowsOtherUsers`, the socket (and its directory) as every user may use them.
    private func openSocketToOtherUsers() throws {
        guard allowsOtherUsers else { return }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: socketFile.path)
    }

    /// Starts `dbus-daemon` with `config` and waits until it prints its address.
    private static func launch(config: URL, environment: [String: String]) throws -> (Process, String) {
        let process = Process()
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.executableURL = URL(fileURLWithPath: try Tools.path(of: "dbus-daemon"))
        process.arguments = ["--nofork", "--nopidfile", "--config-file=\(config.path)", "--print-address=1"]
        process.standardError = FileHandle.nullDevice
        // The first line is the address; the daemon accepts connections once it is printed.
        let address = try ChildOutput.firstLine(of: process)
        guard !address.isEmpty else {
            process.terminate()
            throw TestSupportError("dbus-daemon printed no address")
        }
        return (process, address)
    }

    /// Stops the daemon (by its pid) and removes its directory.
    public func stop() {
        killDaemon()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Kills the daemon (by its pid) as a crash would, keeping its directory and config so
    /// `restart()` can bring a new one up at the same socket path.
    public func killDaemon() {
        daemon.withLock { daemon in
            let process = daemon.process
            if !ChildExit.hasExited(process.processIdentifier) {
                // dbus-daemon ignores SIGTERM in a session config; it holds no state worth a clean exit.
                kill(process.processIdentifier, SIGKILL)
            }
            _ = ChildExit.waitBlocking(process.processIdentifier)
        }
    }

    /// Kills the daemon if it still runs and starts a new one with the same config, listening
    /// at the same socket path; `address` and `pid` then name the new one (its guid is new).
    public func restart() throws {
        killDaemon()
        try daemon.withLock { daemon in
            try? FileManager.default.removeItem(at: socketFile)
            let (process, address) = try Self.launch(config: configFile, environment: environment)
            daemon = Daemon(process: process, address: address)
        }
        try openSocketToOtherUsers()
    }

    deinit { stop() }

    /// Runs `body` with a fresh private bus (with `limits` as in `init`), stopping it afterwards
    /// whatever happens.
    public static func with<T>(limits: [String: Int] = [:], _ body: (PrivateBus) async throws -> T) async throws -> T {
        let bus = try PrivateBus(limits: limits)
        defer { bus.stop() }
        return try await body(bus)
    }

    static func xmlEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    /// The limits of a desktop session bus (session.conf), so tests meet the same ones.
    static let sessionLimits: [(name: String, value: Int)] = [
        ("max_incoming_bytes", 1_000_000_000), ("max_outgoing_bytes", 1_000_000_000), ("max_message_size", 1_000_000_000),
        ("max_completed_connections", 100_000), ("max_connections_per_user", 100_000), ("max_names_per_connection", 50_000),
        ("max_match_rules_per_connection", 50_000), ("max_replies_per_connection", 50_000),
    ]

    /// A session bus's policy and limits (`limits` replacing some), and a `<servicedir>` for
    /// each directory to activate from.
    static func config(socket: String, allowingOtherUsers: Bool = false, serviceDirectories: [URL] = [], limits: [String: Int] = [:]) -> String {
        let limitLines = sessionLimits.map { "  <limit name=\"\($0.name)\">\(limits[$0.name] ?? $0.value)</limit>\n" }.joined()
            + limits.filter { name, _ in !sessionLimits.contains { $0.name == name } }.sorted { $0.key < $1.key }
                .map { "  <limit name=\"\($0.key)\">\($0.value)</limit>\n" }.joined()
        return """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
        \(serviceDirectories.map { "  <servicedir>\(xmlEscaped($0.path))</servicedir>\n" }.joined())\
          <policy context="default">
        \(allowingOtherUsers ? "    <allow user=\"*\"/>\n" : "")\
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        \(limitLines)</busconfig>
        """
    }
}

public struct TestSupportError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
