import Foundation

/// A private `dbus-daemon` for one test: its own socket in a temporary directory, a permissive
/// policy, no service activation. Tests never touch the user's session bus.
///
/// ```swift
/// try await PrivateBus.with { bus in
///     let connection = try await BusConnection.connect(to: .address(bus.address))
/// }
/// ```
public final class PrivateBus: Sendable {
    public let address: String
    public let pid: Int32
    private let process: Process
    private let directory: URL

    /// Starts a daemon and waits until it prints its address.
    public init() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nook-bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("bus.conf")
        try Self.config(socket: directory.appendingPathComponent("socket").path).write(to: config, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Tools.path(of: "dbus-daemon"))
        process.arguments = ["--nofork", "--nopidfile", "--config-file=\(config.path)", "--print-address=1"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line is the address; the daemon accepts connections once it is printed.
        var line = Data()
        let handle = output.fileHandleForReading
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        let address = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !address.isEmpty else {
            process.terminate()
            throw TestSupportError("dbus-daemon printed no address")
        }
        self.address = address
        self.pid = process.processIdentifier
        self.process = process
        self.directory = directory
    }

    /// Stops the daemon (by its pid) and removes its directory.
    public func stop() {
        if process.isRunning {
            // dbus-daemon ignores SIGTERM in a session config; it holds no state worth a clean exit.
            kill(pid, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }

    /// Runs `body` with a fresh private bus, stopping it afterwards whatever happens.
    public static func with<T>(_ body: (PrivateBus) async throws -> T) async throws -> T {
        let bus = try PrivateBus()
        defer { bus.stop() }
        return try await body(bus)
    }

    static func config(socket: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
          <!-- The limits of a desktop session bus (session.conf), so tests meet the same ones. -->
          <limit name="max_incoming_bytes">1000000000</limit>
          <limit name="max_outgoing_bytes">1000000000</limit>
          <limit name="max_message_size">1000000000</limit>
          <limit name="max_completed_connections">100000</limit>
          <limit name="max_connections_per_user">100000</limit>
          <limit name="max_names_per_connection">50000</limit>
          <limit name="max_match_rules_per_connection">50000</limit>
          <limit name="max_replies_per_connection">50000</limit>
        </busconfig>
        """
    }
}

public struct TestSupportError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
