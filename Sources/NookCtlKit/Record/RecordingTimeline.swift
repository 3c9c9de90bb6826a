import NookBus
import NookCore

/// The plans of a recording laid out on one clock: when each starts, how long it runs, and
/// when the next one takes over.
///
/// Idle time between plans is shortened to `maxIdle` seconds so a recording of a slow tour
/// still plays briskly; a plan that arrived while the previous one was still running keeps
/// its real start (that is an interruption, and the point of watching it). A plan NookCore's
/// reader refuses is left out, as a renderer would refuse it.
struct RecordingTimeline {
    struct Entry {
        /// The plan as the contract's values, for `PlanPresenter`.
        var value: PropValue
        var plan: ReceivedPlan
        var start: Double
        /// Seconds until everything in the plan has come to rest.
        var duration: Double
        /// When the next plan starts (or the recording ends).
        var end: Double
    }

    static let maxIdle = 0.8
    static let tail = 1.0

    var entries: [Entry]
    var total: Double

    init(_ plans: [RecordedPlan]) {
        var entries: [Entry] = []
        var clock = 0.0
        var previousTime = 0.0
        for recorded in plans {
            var warnings: [String] = []
            let held = entries.last.map { (serial: $0.plan.serial, scene: $0.plan.scene) }
            guard let value = try? PropValue(wire: recorded.plan, at: ""),
                  let plan = try? ReceivedPlan(wire: value, held: held, warnings: &warnings) else { continue }
            if let previous = entries.last {
                let gap = max(0, recorded.time - previousTime)
                clock = previous.start + min(gap, previous.duration + Self.maxIdle)
                entries[entries.count - 1].end = clock
            }
            previousTime = recorded.time
            entries.append(Entry(value: value, plan: plan, start: clock, duration: plan.duration, end: clock + plan.duration))
        }
        let last = entries.last.map { $0.start + $0.duration } ?? 0
        // Whole hundredths, as the SVG's `dur` writes it, so key times land where they were sampled.
        total = (max(1, last + Self.tail) * 100).rounded(.up) / 100
        if !entries.isEmpty { entries[entries.count - 1].end = total }
        self.entries = entries
    }
}
