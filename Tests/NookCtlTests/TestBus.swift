import Foundation
import NookCtlKit

/// A private `dbus-daemon` for one test (its own socket and a permissive policy), stopped by
/// its pid when the test ends. NookCtlTests keeps its own: the shared test library is not a
/// dependency of this target.
final class TestBus: @unchecked Sendable {
    // @unchecked: every property is set once in init and only read afterwards.
    let address: String
    private let process: Process
    private let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("nookctl-bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = directory.appendingPathComponent("bus.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(directory.appendingPathComponent("socket").path)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """.write(to: config, atomically: true, encoding: .utf8)
        process = Process()
        let candidates = ["/usr/bin/dbus-daemon", "/bin/dbus-daemon", "/usr/local/bin/dbus-daemon"]
        guard let daemon = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw TestBusError(description: "dbus-daemon not found")
        }
        process.executableURL = URL(fileURLWithPath: daemon)
        process.arguments = ["--nofork", "--nopidfile", "--config-file=\(config.path)", "--print-address=1"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        address = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !address.isEmpty else {
            kill(process.processIdentifier, SIGKILL)
            throw TestBusError(description: "dbus-daemon printed no address")
        }
    }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}

struct TestBusError: Error, CustomStringConvertible {
    let description: String
}

/// Captures what nookctl prints.
final class CapturedOutput: @unchecked Sendable {
    // @unchecked: every access takes `lock`.
    private let lock = NSLock()
    private var outText = ""
    private var errText = ""

    var sink: OutputSink { OutputSink(out: { self.appendOut($0) }, err: { self.appendErr($0) }) }
    var out: String { lock.withLock { outText } }
    var err: String { lock.withLock { errText } }

    func appendOut(_ text: String) { lock.withLock { outText += text } }
    func appendErr(_ text: String) { lock.withLock { errText += text } }
}
