import Foundation
import NookBus
import NookTestSupport

/// Issue 42's "cheap transitions": nook-renderer on a private 1920x1080 Xvfb (scale 1, no
/// compositor), one activity in the pill, opened onto its expanded view and closed again
/// (`nookctl open --activity` / `nookctl close`) `cycles` times. Measured:
/// - the renderer's CPU per transition (its threads' `schedstat`, from the first call to the
///   last `settled`, divided by the transitions);
/// - per frame drawn, the paint's mean time (the renderer's own `settled` lines, `--verbose`):
///   goal at most a tenth of a 60 Hz frame, 1.67 ms;
/// - frames drawn per transition, for information.
func runRendererTransitionBenchmark(cycles: Int = 10) async throws -> [Figure] {
    print("renderer: pill to expanded and back, nook-renderer on a 1920x1080 Xvfb (\(cycles) cycles)")
    guard (try? Tools.path(of: "Xvfb")) != nil else {
        print("  not measured: Xvfb is not installed (apt install xvfb)")
        return []
    }
    let bin = URL(fileURLWithPath: try BenchProcess.nookdPath()).deletingLastPathComponent()
    let bus = try PrivateBus()
    defer { bus.stop() }
    let state = FileManager.default.temporaryDirectory.appendingPathComponent("nook-bench-renderer-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: state) }
    let environment = ["XDG_RUNTIME_DIR": state.path, "XDG_STATE_HOME": state.path, "XDG_CONFIG_HOME": state.path, "HOME": state.path]
    let nookd = try BenchProcess(bin.appendingPathComponent("nookd").path, ["--address", bus.address, "--state-dir", state.path + "/nookd"],
                                 environment: environment)
    defer { nookd.stop() }
    let watcher = try await BusConnection.connect(to: .address(bus.address))
    _ = try await eventually { try await watcher.nameOwner(of: "org.nook.Nook1") != nil }
    let display = try XvfbDisplay(width: 1920, height: 1080)
    defer { display.stop() }
    let log = state.appendingPathComponent("renderer.log")
    let renderer = try BenchProcess(bin.appendingPathComponent("nook-renderer").path, ["--address", bus.address, "--verbose"],
                                    environment: environment.merging(["DISPLAY": display.display, "GDK_BACKEND": "x11"]) { $1 },
                                    standardError: log)
    defer { renderer.stop() }
    @Sendable func settledLines() -> [Substring] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { $0.contains("settled serial=") }
    }
    func nookctl(_ arguments: [String]) async throws {
        let result = try await Tools.run(bin.appendingPathComponent("nookctl").path, ["--address", bus.address] + arguments, environment: environment)
        guard result.status == 0 else { throw TestSupportError("nookctl \(arguments.joined(separator: " ")): \(result.stderr)") }
    }
    /// Runs `step`, then waits until the renderer has settled once more.
    func settle(_ step: () async throws -> Void) async throws {
        let before = settledLines().count
        try await step()
        guard await eventually(timeout: .seconds(30), poll: .milliseconds(20), { settledLines().count > before }) else {
            throw TestSupportError("the renderer never settled:\n\((try? String(contentsOf: log, encoding: .utf8))?.suffix(2000) ?? "")")
        }
    }
    try await settle { try await nookctl(["activity", "start", "bench/build", "--title", "Building nook", "--subtitle", "step 3 of 10"]) }
    try await Task.sleep(for: .milliseconds(500))
    let firstMeasured = settledLines().count
    let cpuBefore = renderer.cpuMicroseconds
    for _ in 0..<cycles {
        try await settle { try await nookctl(["open", "--activity", "bench/build"]) }
        try await settle { try await nookctl(["close"]) }
    }
    let cpu = (renderer.cpuMicroseconds - cpuBefore) / 1000 / Double(cycles * 2)
    let measured = settledLines().dropFirst(firstMeasured)
    func field(_ name: String, in line: Substring) -> Double? {
        guard let range = line.range(of: name + "=") else { return nil }
        return Double(line[range.upperBound...].prefix { $0 != " " })
    }
    let frames = measured.compactMap { field("frames", in: $0) }.reduce(0, +)
    let paintTotal = measured.reduce(0.0) { $0 + (field("frames", in: $1) ?? 0) * (field("paint_ms_mean", in: $1) ?? 0) }
    let paintMean = frames > 0 ? paintTotal / frames : 0
    let framesPerTransition = frames / Double(cycles * 2)
    print("  renderer CPU per transition \(fmt(cpu)) ms; \(fmt(framesPerTransition)) frames a transition, paint \(fmt(paintMean)) ms mean a frame")
    await watcher.close()
    return [
        Figure(name: "renderer CPU per transition (1920x1080 Xvfb)", value: cpu, unit: "ms", goal: "<= 41 ms, a fifth of issue 42's 205 ms",
               ratio: nil, met: cpu <= 41),
        Figure(name: "renderer paint per frame, mean (1920x1080 Xvfb)", value: paintMean, unit: "ms", goal: "<= 1.67 ms, a tenth of a 60 Hz frame",
               ratio: nil, met: paintMean <= 1.67),
        Figure(name: "renderer frames per transition", value: framesPerTransition, unit: "frames", goal: "informational", ratio: nil, met: nil),
    ]
}
