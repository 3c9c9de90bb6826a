/// The one table of ranges: every number that enters nookd, by the keys that carry it.
extension NumberDomain {
    /// Lengths in points: up to the SDK's "unbounded" maximum (`nookUnboundedLength`, 10⁶ pt,
    /// far past any display), small enough that 4096 nodes' worth of sums stays far from overflow.
    public static let length = NumberDomain(
        "length", keys: "view `width`, `height`, `min_*`, `max_*`, `padding` edges, `spacing`, `min_length`, `font_size`, "
            + "`corner_radius`; `dimension` tokens; display `width`, `height`, `notch_width`, `notch_height`",
        0, 1_000_000, unit: "pt")
    public static let unitInterval = NumberDomain("fraction", keys: "`opacity`, progress `value`", 0, 1, unit: "")
    /// Unix microseconds from 1970-01-01 to 2200-01-01: differences of two never overflow Int64.
    public static let unixDate = NumberDomain(
        "date", keys: "`timer_end`, progress `start` and `end`, `stale_date`", 0, 7_258_118_400_000_000, unit: "µs (years 1970..2200)")
    public static let relevance = NumberDomain("relevance", keys: "`relevance`", -1_000_000_000, 1_000_000_000, unit: "")
    /// View `params` are handed to renderers untouched; they only need to be real numbers.
    public static let paramNumber = NumberDomain(
        "param", keys: "numbers inside view `params`", -Double.greatestFiniteMagnitude, Double.greatestFiniteMagnitude, unit: "")
    /// A curve's own time; a plan as a whole is held to `motion.maxDuration` (DurationCap).
    public static let duration = NumberDomain(
        "duration", keys: "curve `duration` and `delay`; `duration` tokens and a transition's `duration` and `delay` (except the two below)",
        0, 60, unit: "s")
    public static let maxDuration = NumberDomain("max duration", keys: "token `motion.maxDuration`", 0.01, 60, unit: "s")
    public static let grace = NumberDomain("grace", keys: "token `broker.moduleGrace`", 0, 86_400, unit: "s")
    /// Below a millisecond a spring's stiffness heads for infinity; above a minute it is no animation.
    public static let springResponse = NumberDomain("response", keys: "spring `response`", 0.001, 60, unit: "s")
    /// Near 0 a spring rings for hours (its samples run to gigabytes); above 10 it creeps for as long.
    public static let dampingFraction = NumberDomain(
        "damping fraction", keys: "spring `damping_fraction` (`dampingFraction`)", 0.01, 10, unit: "")
    public static let bezierX = NumberDomain("bezier x", keys: "cubic Bézier `x1`, `x2`", 0, 1, unit: "")
    public static let bezierY = NumberDomain("bezier y", keys: "cubic Bézier `y1`, `y2`", -100, 100, unit: "")
    public static let tokenNumber = NumberDomain("number", keys: "`number` tokens", -1_000_000, 1_000_000, unit: "")
    public static let refreshRate = NumberDomain("refresh rate", keys: "display `refresh_rate`", 1, 1000, unit: "Hz")
    public static let displayScale = NumberDomain("scale", keys: "display `scale`", 0.1, 10, unit: "")
    /// Class problems are diagnostics, never errors, so class values are clamped instead.
    public static let classLength = NumberDomain(
        "class length", keys: "`w-*`, `h-*`, `size-*`, `p*-*`, `gap-*` classes", 0, 1_000_000, unit: "pt", overflow: .clamp)
    public static let classTiming = NumberDomain(
        "class timing", keys: "`duration-*`, `delay-*` classes", 0, 60, unit: "s", overflow: .clamp)

    /// Every domain, in the order docs/contract.md lists them.
    public static let all: [NumberDomain] = [
        length, unitInterval, unixDate, relevance, paramNumber, duration, maxDuration, grace, springResponse,
        dampingFraction, bezierX, bezierY, tokenNumber, refreshRate, displayScale, classLength, classTiming,
    ]

    /// The table docs/contract.md shows, generated from `all`.
    public static var markdownTable: String {
        var lines = ["| domain | keys | range | outside it |", "|---|---|---|---|"]
        for domain in all {
            let range =
                domain.lower == -Double.greatestFiniteMagnitude && domain.upper == Double.greatestFiniteMagnitude
                ? "any finite number" : domain.rangeText
            let outside = domain.overflow == .refuse ? "refused" : "clamped"
            lines.append("| \(domain.name) | \(domain.keys) | \(range) | \(outside) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
