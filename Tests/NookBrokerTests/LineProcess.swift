import NookBus
import Foundation
import NookTestSupport
import Synchronization

/// A helper process a test talks to line by line: commands on its stdin, replies on its
/// stdout. Ended by its pid (SIGKILL) when the test is done with it.
final class LineProcess: Sendable {
    private let process: Process
    private let input: FileHandle
    private let lines = LineBuffer()
    var pid: Int32 { process.processIdentifier }

    /// Starts `python3 -u -c script`; its stderr goes to `stderrFile` when given.
    init(python script: String, stderrFile: URL? = nil) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")  // Debian's, with python3-dbus
        process.arguments = ["-u", "-c", script]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        var stderrHandle: FileHandle?
        // The child has its own copy; ours would stay open for the rest of the suite.
        defer { try? stderrHandle?.close() }
        if let stderrFile {
            _ = FileManager.default.createFile(atPath: stderrFile.path, contents: nil)
            stderrHandle = try FileHandle(forWritingTo: stderrFile)
            process.standardError = stderrHandle
        } else {
            process.standardError = FileHandle.nullDevice
        }
        input = stdin.fileHandleForWriting
        try process.runSerialized()
        let reader = stdout.fileHandleForReading
        let lines = self.lines
        // One reader thread per helper: blocking reads stay off the cooperative pool.
        Thread.detachNewThread {
            var pending = Data()
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    lines.state.withLock { $0.buffer.append(line) }
                }
            }
            lines.state.withLock { $0.closed = true }
        }
    }

    func send(_ line: String) {
        input.write(Data((line + "\n").utf8))
    }

    /// Waits (generously) for the next line starting with `prefix`, dropping lines before it.
    func line(startingWith prefix: String, timeout: Duration = .seconds(30)) async -> String? {
        let lines = self.lines
        let found = Locked<String?>(nil)
        _ = await eventually(timeout: timeout, poll: .milliseconds(2)) {
            lines.state.withLock { state in
                while !state.buffer.isEmpty {
                    let line = state.buffer.removeFirst()
                    if line.hasPrefix(prefix) {
                        found.withLock { $0 = line }
                        return true
                    }
                }
                return state.closed
            }
        }
        return found.withLock { $0 }
    }

    var isRunning: Bool { process.isRunning }

    /// Ends the helper by its pid and waits for it.
    func stop() {
        if !ChildExit.hasExited(process.processIdentifier) { kill(process.processIdentifier, SIGKILL) }
        _ = ChildExit.waitBlocking(process.processIdentifier)
    }

    deinit { stop() }
}

/// Lines a helper printed and not yet consumed, shared with its reader thread.
private final class LineBuffer: Sendable {
    let state = Locked<(buffer: [String], closed: Bool)>(([], false))
}
