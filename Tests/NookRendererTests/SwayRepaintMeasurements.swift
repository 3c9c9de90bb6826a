import Foundation
import NookBus
import NookTestSupport
import Testing

/// Figures for docs/PERFORMANCE.md, not checks: what damage-only repaint saves on a
/// software-rendered compositor, and whether the first expanded paint drops a frame. It runs
/// only when asked (`NOOK_MEASURE_REPAINT=1 swift test --filter SwayRepaintMeasurements`) and
/// prints its figures; it asserts only that every transition played and settled.
@Suite(.serialized)
struct SwayRepaintMeasurements {
    static let transitions = 20

    @Test(.enabled(if: ProcessInfo.processInfo.environment["NOOK_MEASURE_REPAINT"] == "1",
                   "a measurement: NOOK_MEASURE_REPAINT=1 swift test --filter SwayRepaintMeasurements"))
    func cpuPerTransitionWithDamageOnlyAndFullRepaint() async throws {
        for fullRepaint in [false, true] {
            try await SwayNook.with(slowMotion: 1, rendererEnvironment: [
                // No Wayland trace: writing it costs the renderer more than painting.
                "WAYLAND_DEBUG": "0", "NOOK_RENDERER_FULL_REPAINT": fullRepaint ? "1" : "0",
            ]) { nook in
                try await nook.showPill()
                let settledBefore = nook.logLines("settled").count
                let rendererBefore = Self.cpuSeconds(of: nook.renderer.pid)
                let swayBefore = Self.cpuSeconds(of: nook.sway.pid)
                for index in 0..<Self.transitions {
                    let serial: UInt64
                    if index.isMultiple(of: 2) {
                        serial = try await nook.open()
                    } else {
                        _ = try await nook.control("Close", [.vardict([String: DBusValue]())])
                        serial = try await nook.state().serial
                    }
                    try await nook.waitUntilSettled(serial: serial)
                }
                let rendererCPU = Self.cpuSeconds(of: nook.renderer.pid) - rendererBefore
                let swayCPU = Self.cpuSeconds(of: nook.sway.pid) - swayBefore
                let settled = Array(nook.logLines("settled").dropFirst(settledBefore))
                #expect(settled.count >= Self.transitions, "\(settled.map(\.text))")
                let expanded = settled.filter { $0["presentation"] == "expanded" }
                func values(_ key: String, _ lines: [LogLine]) -> [Double] { lines.compactMap { Double($0[key] ?? "") } }
                func summary(_ numbers: [Double]) -> String {
                    guard !numbers.isEmpty else { return "-" }
                    let sorted = numbers.sorted()
                    return "median \(sorted[sorted.count / 2]) max \(sorted.last!)"
                }
                print("""
                    MEASURE repaint=\(fullRepaint ? "full" : "damage-only") transitions=\(Self.transitions) \
                    renderer_cpu_ms_per_transition=\(Int(rendererCPU * 1000 / Double(Self.transitions))) \
                    sway_cpu_ms_per_transition=\(Int(swayCPU * 1000 / Double(Self.transitions))) \
                    frames_per_transition=\(summary(values("frames", settled))) paint_ms_mean=\(summary(values("paint_ms_mean", settled))) \
                    expanded_first_paint_ms=\(summary(values("first_paint_ms", expanded))) (in order: \(values("first_paint_ms", expanded))) \
                    tick_gap_ms_max=\(summary(values("tick_gap_ms_max", settled))) late_ticks=\(summary(values("late_ticks", settled)))
                    """)
            }
        }
    }

    /// User plus system CPU time of `pid` so far (`/proc/PID/stat`, in clock ticks).
    static func cpuSeconds(of pid: Int32) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return 0 }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command: state is field 3, utime 14 and stime 15.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
