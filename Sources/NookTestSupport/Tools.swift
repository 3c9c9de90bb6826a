import Foundation

/// Runs the command-line tools integration tests talk to (busctl, gdbus, helper scripts).
public enum Tools {
    /// The absolute path of `name` on PATH (also /usr/bin and /usr/sbin, which CI may lack).
    public static func path(of name: String) throws -> String {
        if name.hasPrefix("/") { return name }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for directory in path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/sbin", "/bin"] {
            let candidate = directory + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw TestSupportError("\(name) is not installed (make test installs it)")
    }

    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    /// Runs a tool to completion without blocking a cooperative thread.
    public static func run(_ name: String, _ arguments: [String], environment: [String: String]? = nil) async throws -> Result {
        // A script a test has just written can be refused with ETXTBSY: a process another test
        // started at that moment inherited the still-open file (fork before exec). It clears
        // once that child execs, so the launch is tried again.
        var attempt = 0
        while true {
            do {
                return try await runOnce(name, arguments, environment: environment)
            } catch let error as NSError where error.isTextFileBusy && attempt < 20 {
                attempt += 1
                try await Task.sleep(for: .milliseconds(10 * attempt))
            }
        }
    }

    private static func runOnce(_ name: String, _ arguments: [String], environment: [String: String]?) async throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try path(of: name))
        process.arguments = arguments
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        // Read both pipes while the process runs so a chatty tool cannot fill them and stall.
        async let outData = PipeDrain.readToEnd(out.fileHandleForReading)
        async let errData = PipeDrain.readToEnd(err.fileHandleForReading)
        do { try process.runSerialized() } catch {
            // Nothing will write: end the pipes so their readers finish.
            try? out.fileHandleForWriting.close()
            try? err.fileHandleForWriting.close()
            _ = await (outData, errData)
            throw error
        }
        let (stdout, stderr) = await (outData, errData)
        // Read to the end: our ends are closed, not kept for the life of the suite.
        try? out.fileHandleForReading.close()
        try? err.fileHandleForReading.close()
        // Not through `terminationHandler`, which may never fire (ChildExit).
        guard let status = await ChildExit.status(of: process) else {
            kill(process.processIdentifier, SIGKILL)
            throw TestSupportError("\(name) \(arguments.prefix(3)) did not exit within two minutes of closing its output")
        }
        return Result(status: status, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }
}

extension NSError {
    /// Launching failed because the executable was open for writing somewhere.
    var isTextFileBusy: Bool {
        if domain == NSPOSIXErrorDomain, code == Int(ETXTBSY) { return true }
        return (userInfo[NSUnderlyingErrorKey] as? NSError)?.isTextFileBusy ?? false
    }
}

/// A long-running helper process started by a test and ended by its pid.
public final class HelperProcess: @unchecked Sendable {
    // Process is not Sendable; this wrapper only reads `processIdentifier` and signals by pid.
    private let process: Process
    private let output: FileHandle
    public var pid: Int32 { process.processIdentifier }

    public init(_ name: String, _ arguments: [String]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: try Tools.path(of: name))
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        output = pipe.fileHandleForReading
        try process.runSerialized()
    }

    /// The next line the helper prints (blocking; helpers print promptly).
    public func readLine() -> String? {
        var line = Data()
        while true {
            let byte = output.readData(ofLength: 1)
            if byte.isEmpty { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if byte[0] == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte)
        }
    }

    public func kill(_ signal: Int32 = SIGKILL) {
        if process.isRunning { Foundation.kill(pid, signal) }
    }

    /// Waits until it exited (bounded; see `ChildExit`).
    public func waitUntilExit() { _ = ChildExit.waitBlocking(pid) }

    deinit {
        kill()
        _ = ChildExit.waitBlocking(pid, timeout: .seconds(10))
    }
}

/// Waits for a condition with a generous deadline, polling: the machines are shared and slow.
/// The deadline only matters when the condition never comes: a minute by default, as 20 s
/// was outlasted by events that did come (a module's replay of 33 activities to a restarted
/// nookd, with the suite and a stress load sharing two cores).
public func eventually(
    timeout: Duration = .seconds(60), poll: Duration = .milliseconds(10), _ condition: @Sendable () async throws -> Bool
) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + TestDeadlines.scaled(timeout)
    while clock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: poll)
    }
    return try await condition()
}
