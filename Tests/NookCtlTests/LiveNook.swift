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
final class LiveNook: StoppableFixture {
    let stack: NookStack
    let bus: PrivateBus
    let nookd: NookdProcess
    let modules: [PackageProcess]
    var scratch: URL { stack.scratch }

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
        try await NookStack.build(named: "nookctl-live") { stack in
            let bus = try stack.bus()
            var modules: [PackageProcess] = []
            if music { modules.append(try stack.process("nook-mpris", ["--address", bus.address, "--simulate", "--track-seconds", "600"])) }
            if timers > 0 {
                modules.append(try stack.process("TimerModule", ["--address", bus.address, "--timers", String(timers), "--duration", "900"]))
            }
            // The modules start with nookd, not after it (as before the shared fixture): one that
            // is up before the broker sends its whole model (activity and content) together when
            // the broker appears. Started after nookd, the music module's content sometimes came
            // as a plan of its own after its activity was listed, inside a test's plans.
            let nook = LiveNook(stack: stack, bus: bus, nookd: try await stack.nookd(on: bus), modules: modules)
            let expected = timers + (music ? 1 : 0)
            try await stack.waitUntil("nookd and \(expected) activities", logs: nook.logs) {
                guard nook.nookd.isRunning, let state = try? await nook.state() else { return false }
                return (try? StateText.activities(state))?.count ?? 0 >= expected
            }
            return nook
        }
    }

    private init(stack: NookStack, bus: PrivateBus, nookd: NookdProcess, modules: [PackageProcess]) {
        self.stack = stack
        self.bus = bus
        self.nookd = nookd
        self.modules = modules
    }

    /// Ends the modules, nookd and the bus, each by its pid, and removes the scratch directory.
    func stop() async { await stack.stop() }

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
    var logs: String { PackageProcess.logs([nookd.process] + modules) }

    /// Runs `body` with a fresh nook, stopping everything afterwards whatever happens.
    static func with<T>(timers: Int = 0, music: Bool = false, _ body: (LiveNook) async throws -> T) async throws -> T {
        try await start(timers: timers, music: music).use(body)
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
