import Foundation
import Glibc
import NookBus
import NookCore
import NookTestSupport
import Synchronization

/// Issue 42's renderer figures, with nook-renderer (this build) on a 1920x1080 output at scale
/// 1: on a private Xvfb (X11, no compositor) and, when the sway package is installed, on a
/// headless sway 1.7 (wlroots' pixman renderer, run as the Wayland test user).
/// - Transitions: one activity in the pill, opened onto its expanded view and closed again
///   (`nookctl open --activity` / `nookctl close`) `cycles` times: the renderer's CPU per
///   transition (its threads' `schedstat`), and per frame drawn the paint's mean time (the
///   renderer's own `settled` lines, `--log-settled`, which logs nothing else, so the CPU measured is
///   what a renderer spends without logging; goal a tenth of a 60 Hz frame, 1.67 ms).
/// - Update to pixels (sway): a module's `UpdateActivity` changing the pill's text, from just
///   before the call to the renderer's next `wl_surface.commit` (its `WAYLAND_DEBUG` trace,
///   stamped by libwayland with the wall clock), each update from rest; p50 and p99, goal p99
///   within one 60 Hz frame.
func runRendererTransitionBenchmark(cycles: Int = 10, updates: Int = 60) async throws -> [Figure] {
    print("renderer: pill to expanded and back (\(cycles) cycles), and update to committed frame, at 1920x1080")
    var figures: [Figure] = []
    if (try? Tools.path(of: "Xvfb")) != nil {
        let host = try await RendererHost.xvfb()
        defer { host.stop() }
        figures += try await measureTransitions(on: host, cycles: cycles)
    } else {
        print("  Xvfb: not measured (apt install xvfb)")
    }
    if (try? Tools.path(of: "sway")) != nil {
        // Without the protocol trace for the CPU figure (writing it costs the renderer more
        // than its frames), with it for the commit times.
        do {
            let host = try await RendererHost.sway(tracingProtocol: false)
            defer { host.stop() }
            figures += try await measureTransitions(on: host, cycles: cycles)
        }
        // GTK drawing on its own surface (`NOOK_RENDERER_GTK_BUFFERS=1`), as before the
        // subsurface canvas (FrameTarget.swift): for comparison.
        do {
            let host = try await RendererHost.sway(tracingProtocol: false, gtkBuffers: true)
            defer { host.stop() }
            figures += try await measureTransitions(on: host, cycles: cycles)
        }
        let host = try await RendererHost.sway(tracingProtocol: true)
        defer { host.stop() }
        figures += try await measureUpdateToCommit(on: host, updates: updates)
    } else {
        print("  sway: not measured (apt install sway)")
    }
    return figures
}

/// nookd and nook-renderer on a display, and the renderer's log as it grows.
private final class RendererHost: @unchecked Sendable {
    // @unchecked: built once, then only read; `stops` runs once, from `stop()`.
    let name: String
    let bus: PrivateBus
    let bin: URL
    let environment: [String: String]
    let rendererPID: Int32
    let log: LogTail
    let compositorPID: Int32?
    /// A run for comparison only (GTK's own buffers on sway): its figures have no goal.
    var isComparison: Bool { name.contains("GTK's buffers") }
    private let stops: [() -> Void]

    private init(name: String, bus: PrivateBus, bin: URL, environment: [String: String], rendererPID: Int32, compositorPID: Int32? = nil,
                 log: LogTail, stops: [() -> Void]) {
        self.name = name
        self.compositorPID = compositorPID
        self.bus = bus
        self.bin = bin
        self.environment = environment
        self.rendererPID = rendererPID
        self.log = log
        self.stops = stops
    }

    func stop() { for stop in stops.reversed() { stop() } }

    /// The renderer's CPU time so far, in ms.
    var rendererCPUMilliseconds: Double { threadsCPUMicroseconds(rendererPID) / 1000 }
    /// The compositor's CPU so far (sway; nil on Xvfb, whose X server composites nothing).
    var compositorCPUMilliseconds: Double? { compositorPID.map { threadsCPUMicroseconds($0) / 1000 } }
    /// The renderer's minor page faults so far (`/proc/PID/stat`, field 10): pages it touched
    /// for the first time, such as a new shared-memory buffer's.
    var rendererMinorFaults: Double {
        let stat = ProcFile.text("/proc/\(rendererPID)/stat") ?? ""
        // Fields after the command's closing parenthesis: state is field 3, minflt field 10.
        guard let end = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        return fields.count > 7 ? Double(fields[7]) ?? 0 : 0
    }

    /// nookd on a private bus with a scratch state directory.
    private static func nookd(_ label: String, allowingOtherUsers: Bool) async throws -> (PrivateBus, URL, [String: String], URL, [() -> Void]) {
        let bin = URL(fileURLWithPath: try BenchProcess.nookdPath()).deletingLastPathComponent()
        let bus = try PrivateBus(allowingOtherUsers: allowingOtherUsers)
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("nook-bench-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        // Readable by the sway user (its renderer's HOME and log live under it).
        chmod(state.path, 0o755)
        let environment = ["XDG_RUNTIME_DIR": state.path, "XDG_STATE_HOME": state.path, "XDG_CONFIG_HOME": state.path, "HOME": state.path]
        let nookd = try BenchProcess(bin.appendingPathComponent("nookd").path, ["--address", bus.address, "--state-dir", state.path + "/nookd"],
                                     environment: environment)
        let watcher = try await BusConnection.connect(to: .address(bus.address))
        _ = try await eventually { try await watcher.nameOwner(of: "org.nook.Nook1") != nil }
        await watcher.close()
        return (bus, bin, environment, state, [{ bus.stop() }, { try? FileManager.default.removeItem(at: state) }, { nookd.stop() }])
    }

    static func xvfb() async throws -> RendererHost {
        let (bus, bin, environment, state, stops) = try await nookd("renderer-x11", allowingOtherUsers: false)
        let display = try XvfbDisplay(width: 1920, height: 1080)
        let logFile = state.appendingPathComponent("renderer.log")
        let renderer = try BenchProcess(bin.appendingPathComponent("nook-renderer").path, ["--address", bus.address, "--log-settled"],
                                        environment: environment.merging(["DISPLAY": display.display, "GDK_BACKEND": "x11"]) { $1 },
                                        standardError: logFile)
        let host = RendererHost(name: "Xvfb", bus: bus, bin: bin, environment: environment, rendererPID: renderer.pid, log: LogTail(logFile),
                                stops: stops + [{ display.stop() }, { renderer.stop() }])
        try await host.waitForSubscription()
        return host
    }

    static func sway(tracingProtocol: Bool, gtkBuffers: Bool = false) async throws -> RendererHost {
        let (bus, bin, environment, state, stops) = try await nookd("renderer-sway", allowingOtherUsers: true)
        let rendererPath = bin.appendingPathComponent("nook-renderer").path
        let sway = try await SwayServer(size: (1920, 1080), in: state, reaching: [rendererPath])
        let home = state.appendingPathComponent("home")
        try sway.user.makePrivateDirectory(home)
        let (executable, arguments) = try sway.user.command(rendererPath, ["--address", bus.address, "--log-settled"], environment: sway.clientEnvironment.merging([
            "GDK_BACKEND": "wayland", "HOME": home.path, "NO_AT_BRIDGE": "1",
            "XDG_CONFIG_HOME": home.path, "XDG_CONFIG_DIRS": home.path,
        ].merging(tracingProtocol ? ["WAYLAND_DEBUG": "1"] : [:]) { $1 }.merging(gtkBuffers ? ["NOOK_RENDERER_GTK_BUFFERS": "1"] : [:]) { $1 }) { $1 })
        let renderer = try PackageProcess(executable, arguments, logDirectory: state)
        let host = RendererHost(name: gtkBuffers ? "sway, GTK's buffers" : "sway", bus: bus, bin: bin, environment: environment, rendererPID: renderer.pid, compositorPID: sway.pid, log: LogTail(renderer.logFile),
                                stops: stops + [{ let done = DispatchSemaphore(value: 0); Task { await sway.stop(); done.signal() }; done.wait() },
                                                { let done = DispatchSemaphore(value: 0); Task { _ = await renderer.stop(); done.signal() }; done.wait() }])
        try await host.waitForSubscription()
        return host
    }

    private func waitForSubscription() async throws {
        guard await eventually(timeout: .seconds(60), poll: .milliseconds(50), { self.log.text.contains("subscribed") }) else {
            stop()
            throw TestSupportError("nook-renderer on \(name) never subscribed:\n\(log.text.suffix(2000))")
        }
    }

    /// `nookctl ARGUMENTS` on this host's bus.
    func nookctl(_ arguments: [String]) async throws {
        let result = try await Tools.run(bin.appendingPathComponent("nookctl").path, ["--address", bus.address] + arguments, environment: environment)
        guard result.status == 0 else { throw TestSupportError("nookctl \(arguments.joined(separator: " ")): \(result.stderr)") }
    }

    var settledCount: Int { log.lines.filter { $0.contains("settled serial=") }.count }

    /// Runs `step`, then waits until the renderer has settled once more.
    func settle(_ step: () async throws -> Void) async throws {
        let before = settledCount
        try await step()
        guard await eventually(timeout: .seconds(30), poll: .milliseconds(20), { self.settledCount > before }) else {
            throw TestSupportError("the renderer on \(name) never settled:\n\(log.text.suffix(2000))")
        }
    }
}

/// A growing log file, read from where the last read stopped.
private final class LogTail: Sendable {
    private struct State {
        var offset: UInt64 = 0
        var collected: [Substring] = []
        var partial = ""
    }

    private let file: URL
    private let state = Mutex(State())

    init(_ file: URL) { self.file = file }

    /// Every complete line so far.
    var lines: [Substring] {
        state.withLock { state in
            guard let handle = try? FileHandle(forReadingFrom: file) else { return state.collected }
            defer { try? handle.close() }
            try? handle.seek(toOffset: state.offset)
            let data = (try? handle.readToEnd()) ?? Data()
            state.offset += UInt64(data.count)
            state.partial += String(decoding: data, as: UTF8.self)
            if let end = state.partial.lastIndex(of: "\n") {
                state.collected += state.partial[..<end].split(separator: "\n").map { Substring(String($0)) }
                state.partial = String(state.partial[state.partial.index(after: end)...])
            }
            return state.collected
        }
    }

    var text: String { lines.joined(separator: "\n") }
}

private func measureTransitions(on host: RendererHost, cycles: Int) async throws -> [Figure] {
    try await host.settle { try await host.nookctl(["activity", "start", "bench/build", "--title", "Building nook", "--subtitle", "step 3 of 10"]) }
    try await Task.sleep(for: .milliseconds(500))
    let firstMeasured = host.settledCount
    let cpuBefore = host.rendererCPUMilliseconds
    let compositorBefore = host.compositorCPUMilliseconds
    let faultsBefore = host.rendererMinorFaults
    for _ in 0..<cycles {
        try await host.settle { try await host.nookctl(["open", "--activity", "bench/build"]) }
        try await host.settle { try await host.nookctl(["close"]) }
    }
    let cpu = (host.rendererCPUMilliseconds - cpuBefore) / Double(cycles * 2)
    let faults = (host.rendererMinorFaults - faultsBefore) / Double(cycles * 2)
    let compositor: Double? = if let after = host.compositorCPUMilliseconds, let compositorBefore {
        (after - compositorBefore) / Double(cycles * 2)
    } else { nil }
    let measured = host.log.lines.filter { $0.contains("settled serial=") }.dropFirst(firstMeasured)
    func field(_ name: String, in line: Substring) -> Double? {
        guard let range = line.range(of: " " + name + "=") else { return nil }
        return Double(line[range.upperBound...].prefix { $0 != " " })
    }
    let frames = measured.compactMap { field("frames", in: $0) }.reduce(0, +)
    let paintTotal = measured.reduce(0.0) { $0 + (field("frames", in: $1) ?? 0) * (field("paint_ms_mean", in: $1) ?? 0) }
    let paintMean = frames > 0 ? paintTotal / frames : 0
    let framesPerTransition = frames / Double(cycles * 2)
    print("  \(host.name): renderer CPU per transition \(fmt(cpu)) ms; \(fmt(framesPerTransition)) frames a transition, "
          + "paint \(fmt(paintMean)) ms mean a frame, \(fmt(faults)) page faults a transition"
          + (compositor.map { "; the compositor \(fmt($0)) ms a transition" } ?? ""))
    try await host.nookctl(["activity", "end", "bench/build"])
    // The comparison run (GTK's own buffers on sway) has no goal of its own.
    let judged = !host.isComparison
    return [
        Figure(name: "renderer CPU per transition (1920x1080 \(host.name))", value: cpu, unit: "ms",
               goal: judged ? "<= 41 ms, a fifth of issue 42's 205 ms" : "informational (the renderer before the canvas)",
               ratio: nil, met: judged ? cpu <= 41 : nil),
        Figure(name: "renderer paint per frame, mean (1920x1080 \(host.name))", value: paintMean, unit: "ms",
               goal: judged ? "<= 1.67 ms, a tenth of a 60 Hz frame" : "informational", ratio: nil, met: judged ? paintMean <= 1.67 : nil),
        Figure(name: "renderer frames per transition (\(host.name))", value: framesPerTransition, unit: "frames", goal: "informational",
               ratio: nil, met: nil),
        // Where the CPU outside painting goes: pages touched for the first time (new buffers).
        Figure(name: "renderer page faults per transition (\(host.name))", value: faults, unit: "faults", goal: "informational",
               ratio: nil, met: nil),
    ] + (compositor.map { [Figure(name: "compositor CPU per transition (\(host.name))", value: $0, unit: "ms",
                                  goal: "informational (issue 42: shrinks with the renderer's)", ratio: nil, met: nil)] } ?? [])
}

/// The wall clock in µs, truncated to 32 bits as libwayland's `WAYLAND_DEBUG` stamps are
/// (`[ms.µs]` of that value).
private func waylandStampNow() -> UInt32 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return UInt32(truncatingIfNeeded: Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000)
}

/// The stamp of a `WAYLAND_DEBUG` line (`[1234567.890] ...`), in µs mod 2^32.
private func waylandStamp(of line: Substring) -> UInt32? {
    guard line.first == "[", let close = line.firstIndex(of: "]") else { return nil }
    let parts = line[line.index(after: line.startIndex)..<close].trimmingCharacters(in: .whitespaces).split(separator: ".")
    guard parts.count == 2, let milliseconds = UInt64(parts[0]), let micros = UInt64(parts[1]) else { return nil }
    return UInt32(truncatingIfNeeded: milliseconds * 1000 + micros)
}

private func measureUpdateToCommit(on host: RendererHost, updates: Int) async throws -> [Figure] {
    let module = try await BusConnection.connect(to: .address(host.bus.address))
    try await nookCall(module, NookContract.Modules.register, [.string("bench"), .vardict([:])])
    try await host.settle {
        try await nookCall(module, NookContract.Modules.startActivity, [.string("song"), WireCodec.vardict(benchSpec(0))])
    }
    try await Task.sleep(for: .milliseconds(500))
    var samples = Samples()
    for index in 1...updates {
        let seen = host.log.lines.count
        let sent = waylandStampNow()
        try await host.settle {
            try await nookCall(module, NookContract.Modules.updateActivity, [.string("song"), WireCodec.vardict(benchSpec(index))])
        }
        // The first commit after the call (at rest the renderer commits nothing).
        let commit = host.log.lines.dropFirst(seen).first { line in
            guard line.contains(" -> wl_surface@"), line.contains(".commit()"), let stamp = waylandStamp(of: line) else { return false }
            return stamp &- sent < 1 << 31
        }
        if let commit, let stamp = waylandStamp(of: commit) { samples.append(Double(stamp &- sent)) }
        try await Task.sleep(for: .milliseconds(50))
    }
    await module.close()
    let frame = 1_000_000 / 60.0
    print("  sway: update to committed frame p50 \(fmt(samples.p50)) µs, p99 \(fmt(samples.p99)) µs (\(samples.count) of \(updates) updates)")
    return [
        Figure(name: "renderer update to committed frame p50 (sway)", value: samples.p50, unit: "µs", goal: "informational", ratio: nil, met: nil),
        Figure(name: "renderer update to committed frame p99 (sway)", value: samples.p99, unit: "µs", goal: "<= 16,667 µs, one 60 Hz frame",
               ratio: nil, met: samples.p99 <= frame),
    ]
}
