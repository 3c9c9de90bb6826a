import Foundation

/// An executable of this package (nookd, nookctl, the example modules) or any absolute path,
/// started by a test, its stdout and stderr in a log file, and ended by its pid.
///
/// ```swift
/// let nookd = try PackageProcess("nookd", ["--address", bus.address], logDirectory: scratch)
/// defer { Task { await nookd.stop() } }
/// ```
public final class PackageProcess: @unchecked Sendable {
    // @unchecked: Process is not Sendable; this wrapper only reads its status, signals by pid
    // and waits for the exit, which Foundation allows from any thread.
    private let process: Process
    public let logFile: URL
    public var pid: Int32 { process.processIdentifier }

    /// The executable `name` built next to the test bundle (`swift build --build-tests` builds
    /// every product), or in `.build/debug` of this checkout.
    public static func executable(_ name: String) throws -> URL {
        var candidates: [URL] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent(name))
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/\(name)"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw TestSupportError("\(name) is not built (looked at \(candidates.map(\.path)))")
        }
        return found
    }

    /// Starts `product` (a name of this package's executables, or an absolute path).
    /// - Parameters:
    ///   - logDirectory: where the log file goes (`<name>-<uuid>.log`).
    ///   - environment: added to (and overriding) this process's environment; a nil value
    ///     removes the variable.
    public init(_ product: String, _ arguments: [String], logDirectory: URL, environment extra: [String: String?] = [:]) throws {
        logFile = logDirectory.appendingPathComponent("\((product as NSString).lastPathComponent)-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        process = Process()
        process.executableURL = product.hasPrefix("/") ? URL(fileURLWithPath: product) : try Self.executable(product)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        let log = try FileHandle(forWritingTo: logFile)
        // The child has its own copy: ours is closed once it runs, or a whole suite keeps one
        // descriptor per process it ever started (and Foundation's Process.run misreads
        // /proc/self/fd once a process holds about 1,340 of them: see scripts/sanitizers).
        defer { try? log.close() }
        process.standardOutput = log
        process.standardError = log
        try process.runSerialized()
    }

    /// Everything it printed so far.
    public var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }
    /// The kernel's view: Foundation can go on saying a killed child runs (`ChildExit`).
    public var isRunning: Bool { process.isRunning && !ChildExit.hasExited(pid) }

    /// The exit status once it has exited by itself (nil while running or when a signal ended it).
    public var exitStatus: Int32? {
        guard !process.isRunning, process.terminationReason == .exit else { return nil }
        return process.terminationStatus
    }

    public func signal(_ number: Int32) {
        if isRunning { kill(pid, number) }
    }

    /// Waits (polling, with a generous deadline) until it exits; true when it did.
    public func waitForExit(timeout: Duration = .seconds(30)) async -> Bool {
        let process = self.process, pid = self.pid
        guard await eventually(timeout: timeout, { !process.isRunning || ChildExit.hasExited(pid) }) else { return false }
        // The kernel says it exited; give Foundation, which may notice late, time to agree, so
        // its exit status can be read.
        _ = await eventually(timeout: timeout) { !process.isRunning }
        return true
    }

    /// Sends `number` and waits for the exit; the exit status, or nil when a signal ended it
    /// (or it had to be killed because it did not exit in time).
    @discardableResult
    public func stop(_ number: Int32 = SIGTERM) async -> Int32? {
        signal(number)
        if await !ChildExit.wait(pid) {
            kill(pid, SIGKILL)
            _ = await ChildExit.wait(pid)
            return nil
        }
        // Foundation may notice the exit late, or (while a process spawned alongside holds its
        // descriptor) not at all: then the status is the kernel's, read from the zombie. Under
        // ThreadSanitizer at load 15 Foundation had not noticed within 240 s, and a clean exit
        // read as none.
        guard let status = await ChildExit.status(of: process) else { return nil }
        return status < 128 ? status : nil
    }

    deinit {
        if !ChildExit.hasExited(pid) {
            kill(pid, SIGKILL)
            _ = ChildExit.waitBlocking(pid, timeout: .seconds(10))
        }
    }
}
