import Foundation

/// A bare Xvfb on a free display (`-displayfd`), ended by its pid: the renderer tests'
/// `XvfbServer` (which adds screenshots) and the dunst benchmark both start their X server so.
public final class XvfbDisplay: @unchecked Sendable {
    // @unchecked: the Process is only signalled and waited on by pid; `display` is immutable.
    private let process: Process
    /// `:N`
    public let display: String

    public init(width: Int = 1512, height: Int = 982, arguments extra: [String] = []) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: try Tools.path(of: "Xvfb"))
        process.arguments = ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24", "-nolisten", "tcp"] + extra
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        // Xvfb writes the display number once it accepts connections.
        let number = try ChildOutput.firstLine(of: process)
        guard !number.isEmpty, Int(number) != nil else {
            kill(process.processIdentifier, SIGKILL)
            _ = ChildExit.waitBlocking(process.processIdentifier)
            throw TestSupportError("Xvfb printed no display number")
        }
        display = ":" + number
    }

    public func stop() {
        if !ChildExit.hasExited(process.processIdentifier) { kill(process.processIdentifier, SIGKILL) }
        _ = ChildExit.waitBlocking(process.processIdentifier)
    }
}

/// Reading what a starting child announces on its stdout.
public enum ChildOutput {
    /// Runs `process` with its stdout on a pipe and returns its first line, trimmed (empty when
    /// it closed stdout first): daemons that print where they listen once ready (dbus-daemon's
    /// address, Xvfb's display number).
    public static func firstLine(of process: Process) throws -> String {
        let output = Pipe()
        process.standardOutput = output
        try process.runSerialized()
        var line = Data()
        let handle = output.fileHandleForReading
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        return String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
