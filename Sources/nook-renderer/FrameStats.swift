/// What painting one plan's frames cost, for the `settled` log line: how many paints, how
/// long they took (the first one on its own: a new presentation's first paint lays out and
/// shapes all its text), and whether the frame clock's ticks came late (a dropped frame shows
/// as a gap of two refresh intervals or more).
struct FrameStats {
    private(set) var paints = 0
    private(set) var totalPaint = 0.0
    private(set) var longestPaint = 0.0
    private(set) var firstPaint: Double?
    private(set) var longestGap = 0.0
    /// Ticks that came 1.5 refresh intervals or more after the one before.
    private(set) var lateTicks = 0
    private var lastTick: Double?

    mutating func painted(taking seconds: Double) {
        paints += 1
        totalPaint += seconds
        longestPaint = max(longestPaint, seconds)
        if firstPaint == nil { firstPaint = seconds }
    }

    /// A frame-clock tick at `time` (seconds) on a display refreshing every `interval` seconds.
    mutating func ticked(at time: Double, interval: Double) {
        if let lastTick, time > lastTick {
            let gap = time - lastTick
            longestGap = max(longestGap, gap)
            if gap >= interval * 1.5 { lateTicks += 1 }
        }
        lastTick = time
    }

    var meanPaint: Double { paints > 0 ? totalPaint / Double(paints) : 0 }

    /// `frames=.. paint_ms_mean=.. paint_ms_max=.. first_paint_ms=.. tick_gap_ms_max=.. late_ticks=..`
    var logFields: String {
        "frames=\(paints) paint_ms_mean=\(Self.milliseconds(meanPaint)) paint_ms_max=\(Self.milliseconds(longestPaint)) "
            + "first_paint_ms=\(Self.milliseconds(firstPaint ?? 0)) tick_gap_ms_max=\(Self.milliseconds(longestGap)) late_ticks=\(lateTicks)"
    }

    static func milliseconds(_ seconds: Double) -> String { String(Double(Int((seconds * 10_000).rounded())) / 10) }
}
