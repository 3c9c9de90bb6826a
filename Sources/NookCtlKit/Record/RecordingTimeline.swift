import NookCore

/// The plans of a recording laid out on one clock: when each starts, how long it runs, and
/// when the next one takes over.
///
/// Idle time between plans is shortened to `maxIdle` seconds so a recording of a slow tour
/// still plays briskly; a plan that arrived while the previous one was still running keeps
/// its real start (that is an interruption, and the point of watching it).
struct RecordingTimeline {
    struct Entry {
        var plan: WireRecord
        var start: Double
        /// Seconds until everything in the plan has come to rest.
        var duration: Double
        /// When the next plan starts (or the recording ends).
        var end: Double
        /// For `via_hidden`: seconds the chrome spends hidden before it grows again.
        var dip: Double
    }

    static let maxIdle = 0.8
    static let tail = 1.0

    var entries: [Entry]
    var total: Double

    init(_ plans: [RecordedPlan]) {
        var entries: [Entry] = []
        var clock = 0.0
        for (index, recorded) in plans.enumerated() {
            let plan = WireRecord(recorded.plan)
            let dip = plan.string("conversion") == "via_hidden" ? max(0, plan.record("chrome").double("hide_dip") ?? 0.12) : 0
            // The dip is in the curves' delays already.
            let duration = Self.duration(of: plan)
            if index > 0 {
                let previous = entries[index - 1]
                let gap = max(0, recorded.time - plans[index - 1].time)
                clock = previous.start + min(gap, previous.duration + Self.maxIdle)
                entries[index - 1].end = clock
            }
            entries.append(Entry(plan: plan, start: clock, duration: duration, end: clock + duration, dip: dip))
        }
        let last = entries.last.map { $0.start + $0.duration } ?? 0
        total = max(1, last + Self.tail)
        if !entries.isEmpty { entries[entries.count - 1].end = total }
        self.entries = entries
    }

    /// The longest curve of the plan, its delay included.
    static func duration(of plan: WireRecord) -> Double {
        var curves = [plan.record("chrome").record("curve")]
        for key in ["elements", "layout", "slots", "reveals"] {
            curves += plan.records(key).map { $0.record("curve") }
        }
        return curves.map { WireCurve.curve($0).totalDuration }.max() ?? 0
    }
}
