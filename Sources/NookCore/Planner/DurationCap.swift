/// Rule 22: no plan runs longer than `motion.maxDuration`.
///
/// A curve whose delay plus active time exceeds the limit is squeezed in time by one factor
/// f = limit / total: its delay becomes delay × f and its active part is shortened to fit what
/// is left. Timed curves (Bézier, linear) get duration × f. A spring keeps its damping
/// fraction and gets a shorter response; its settle time is proportional to its response when
/// it starts at rest, so response × f fits exactly, and a spring taking over an interrupted
/// move (whose settle time is only nearly proportional) is shortened again, a few times at
/// most, until it fits. The shape of every curve is kept; only its pace changes. The curve's
/// `source` gains `, capped to motion.maxDuration`.
struct DurationCap {
    let limit: Double
    private(set) var capped = 0
    private(set) var longest = 0.0
    private(set) var longestWhat = ""

    /// Settle times already solved (the theme's springs, see `PlannerSettings`).
    private let settled: [Spring: Double]

    init(limit: Double, settled: [Spring: Double] = [:]) {
        self.limit = limit.isFinite && limit > 0 ? limit : 2
        self.settled = settled
    }

    /// A spring and the velocity it starts with: all a curve's settle time depends on (its
    /// delay is added after, and its source plays no part).
    private struct SettleKey: Equatable {
        var spring: Spring
        var velocity: Double
    }

    /// Settle times looked up before `last`: a plan mostly repeats one or two curves, and a
    /// spring's settle time is solved for (then kept in a locked, hashed cache), so it is
    /// worth remembering here. Plain numbers, so keeping them retains nothing.
    private var known: [(key: SettleKey, settle: Double)] = []

    /// The settle time looked up last: most plans ask about one spring that started with a
    /// velocity (an interrupted chrome), and holding it here needs no array.
    private var last: (key: SettleKey, settle: Double)?

    /// `curve.totalDuration`, remembered for springs. Other kinds cost a sum: caching them
    /// (a copy of the curve and its source) cost more than it saved.
    /// Inlined so a plan's many checks read their curves in place (a call copied each one).
    @inline(__always)
    private mutating func total(_ curve: Curve) -> Double {
        guard case .spring(let spring) = curve.kind else { return curve.totalDuration }
        let key = SettleKey(spring: spring, velocity: curve.initialVelocity)
        // Asked first: thousands of layout changes on one spring compare numbers, not hash it.
        if let last, last.key == key { return curve.delay + last.settle }
        let settle = (curve.initialVelocity == 0 ? settled[spring] : nil)
            ?? known.first(where: { $0.key == key })?.settle ?? curve.activeDuration
        if let previous = last, !known.contains(where: { $0.key == previous.key }) {
            if known.count >= 8 { known.removeFirst() }
            known.append(previous)
        }
        last = (key, settle)
        return curve.delay + settle
    }

    /// True when `curve` runs past the limit, so `apply` would shorten it. Most curves do
    /// not, and the caller then leaves them untouched rather than writing them back.
    @inline(__always)
    mutating func exceeds(_ curve: Curve) -> Bool {
        total(curve) > limit + 1e-9
    }

    /// `curve`, shortened when too long; counts what it shortened for the diagnostic.
    mutating func apply(_ curve: Curve, what: @autoclosure () -> String) -> Curve {
        let total = total(curve)
        guard total > limit + 1e-9 else { return curve }
        capped += 1
        if total > longest {
            longest = total
            longestWhat = what()
        }
        let factor = limit / total
        do {
            let delay = curve.delay * factor
            var result = try curve.withDelay(delay)
            switch curve.kind {
            case .spring(let spring):
                var response = spring.response * factor
                result = try result.withDuration(response)
                var attempts = 0
                while result.totalDuration > limit + 1e-9, attempts < 8 {
                    let room = max(limit - delay, 1e-6)
                    response *= room / max(result.activeDuration, 1e-9) * 0.999
                    result = try result.withDuration(response)
                    attempts += 1
                }
            case .bezier(_, let duration), .linear(let duration):
                result = try result.withDuration(min(duration * factor, max(0, limit - delay)))
            case .none:
                break
            }
            result.source = curve.source + ", capped to motion.maxDuration"
            return result
        } catch {
            // Only reachable with a non-finite factor, which `limit > 0` rules out.
            return Curve.none(source: curve.source + ", capped to motion.maxDuration")
        }
    }

    /// The info diagnostic, when anything was capped.
    var diagnostic: Diagnostic? {
        guard capped > 0 else { return nil }
        return Diagnostic(
            .durationCapped, .info,
            "\(capped) curve\(capped == 1 ? "" : "s") ran longer than motion.maxDuration (\(PlanText.number(limit)) s) and "
                + "\(capped == 1 ? "was" : "were") shortened; the longest was \(PlanText.number(longest)) s (\(longestWhat))")
    }
}
