import Foundation
import NookBus
import NookCore
import NookTestSupport
@testable import NookCtlKit

/// The real thing for nookctl's tests: a private dbus-daemon, the real `nookd`, and (when
/// asked) the real example modules, each a process ended by its pid in `stop()`.
///
/// nookctl itself runs in-process through `NookCtl.run` (the same code the executable runs),
/// so a test sees its exit status and output directly; `process(_:)` runs the executable.
final class LiveNook: Sendable {
    let bus: PrivateBus
    let scratch: URL
    let nookd: NookdProcess
    let modules: [PackageProcess]

    /// What one nookctl invocation gave.
    struct Run: Sendable {
        let status: NookCtlKit.ExitStatus
        let out: String
        let err: String
    }

    /// Starts the bus and nookd (with a private config and state), then the modules, and
    /// waits until the broker answers and lists `activities` live activities.
    /// - Parameters:
    ///   - timers: `TimerModule --timers N` (long countdowns), none when 0.
    ///   - music: `nook-mpris --simulate`.
    static func start(timers: Int = 0, music: Bool = false) async throws -> LiveNook {
        let bus = try PrivateBus()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nookctl-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        var modules: [PackageProcess] = []
        if music {
            modules.append(try PackageProcess("nook-mpris", ["--address", bus.address, "--simulate", "--track-seconds", "600"],
                                              logDirectory: scratch))
        }
        if timers > 0 {
            modules.append(try PackageProcess("TimerModule", ["--address", bus.address, "--timers", String(timers), "--duration", "900"],
                                              logDirectory: scratch))
        }
        // The modules start with nookd, not after it (as before the shared fixture): one that
        // is up before the broker sends its whole model (activity and content) together when
        // the broker appears. Started after nookd, the music module's content sometimes came
        // as a plan of its own after its activity was listed, inside a test's plans.
        let nookd: NookdProcess
        do { nookd = try await NookdProcess(bus: bus, home: scratch) } catch {
            for module in modules { await module.stop() }
            bus.stop()
            throw error
        }
        let nook = LiveNook(bus: bus, scratch: scratch, nookd: nookd, modules: modules)
        let expected = timers + (music ? 1 : 0)
        let ready = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
            guard nookd.isRunning, let state = try? await nook.state() else { return false }
            return (try? StateText.activities(state))?.count ?? 0 >= expected
        }
        guard ready else {
            let logs = ([nookd.process] + modules).map { "\($0.logFile.lastPathComponent):\n\($0.log)" }.joined(separator: "\n")
            await nook.stop()
            throw TestSupportError("nookd and \(expected) activities did not come up:\n\(logs)")
        }
        return nook
    }

    private init(bus: PrivateBus, scratch: URL, nookd: NookdProcess, modules: [PackageProcess]) {
        self.bus = bus
        self.scratch = scratch
        self.nookd = nookd
        self.modules = modules
    }

    /// Ends the modules, then nookd, then the bus, each by its pid, and removes the scratch directory.
    func stop() async {
        for module in modules { await module.stop() }
        await nookd.stop()
        bus.stop()
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Runs nookctl in-process with `--address` of the private bus.
    func ctl(_ arguments: [String]) async -> Run {
        let captured = CapturedOutput()
        let status = await NookCtl.run(arguments: ["--address", bus.address] + arguments, output: captured.sink)
        return Run(status: status, out: captured.out, err: captured.err)
    }

    /// `Control.GetState` through a connection of the test's own.
    func state() async throws -> WireFields {
        let connection = try await BusConnection.connect(to: .address(bus.address), description: "nookctl-test")
        defer { Task { await connection.close() } }
        let reply = try await NookControlClient(connection: connection, timeout: .seconds(20)).call(.getState)
        guard let first = reply.first else { throw TestSupportError("GetState replied with nothing") }
        return try WireFields(reply: first)
    }

    /// `module/activity` of every live activity, in display order.
    func activities() async throws -> [String] {
        try StateText.activities(try await state()).map { "\($0.module)/\($0.activity)" }
    }

    /// The nookctl executable on this bus, its output in a log file, ended by its pid.
    func process(_ arguments: [String]) throws -> PackageProcess {
        try PackageProcess("nookctl", ["--address", bus.address] + arguments, logDirectory: scratch)
    }

    /// Every process's log, for a failure message.
    var logs: String {
        ([nookd.process] + modules).map { "--- \($0.logFile.lastPathComponent)\n\($0.log)" }.joined(separator: "\n")
    }

    /// Runs `body` with a fresh nook, stopping everything afterwards whatever happens.
    static func with<T>(timers: Int = 0, music: Bool = false, _ body: (LiveNook) async throws -> T) async throws -> T {
        let nook = try await start(timers: timers, music: music)
        do {
            let result = try await body(nook)
            await nook.stop()
            return result
        } catch {
            await nook.stop()
            throw error
        }
    }
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
    var lines: [Substring] { out.split(separator: "\n") }

    func appendOut(_ text: String) { lock.withLock { outText += text } }
    func appendErr(_ text: String) { lock.withLock { errText += text } }
}
