import NookCore

/// A plan's curve `a{sv}` back into NookCore's `Curve`, so nookctl samples it exactly as the
/// planner does. Unknown or broken curves become `none` (the value jumps after the delay).
enum WireCurve {
    static func curve(_ record: WireRecord) -> Curve {
        let delay = max(0, record.double("delay") ?? 0)
        let source = record.string("source")
        let kind: Curve.Kind
        switch record.string("type") {
        case "spring":
            guard let spring = try? Spring(response: record.double("response") ?? 0,
                                           dampingFraction: record.double("damping_fraction") ?? 0) else { return fallback(delay, source) }
            kind = .spring(spring)
        case "bezier":
            let points = record["points"].map(WireRecord.numbers) ?? []
            guard points.count == 4, let bezier = try? CubicBezier(points[0], points[1], points[2], points[3]) else {
                return fallback(delay, source)
            }
            kind = .bezier(bezier, duration: record.double("duration") ?? 0)
        case "linear":
            kind = .linear(duration: record.double("duration") ?? 0)
        default:
            return fallback(delay, source)
        }
        let velocity = record.double("initial_velocity") ?? 0
        return (try? Curve(kind, delay: delay, source: source, initialVelocity: velocity)) ?? fallback(delay, source)
    }

    private static func fallback(_ delay: Double, _ source: String) -> Curve {
        (try? Curve(.none, delay: delay, source: source)) ?? .none(source: source)
    }

    /// `spring(response 0.42, damping 0.82)`, `bezier(0.25,0.1,0.25,1) 0.3s`, `linear 0.2s`,
    /// `none`; then ` after 0.1s` for a delay and ` <source>` when known.
    static func text(_ record: WireRecord) -> String {
        let n = { (key: String) in NumberText.format(record.double(key) ?? 0) }
        var text: String
        switch record.string("type") {
        case "spring": text = "spring(response \(n("response")), damping \(n("damping_fraction")))"
        case "bezier":
            let points = (record["points"].map(WireRecord.numbers) ?? []).map { NumberText.format($0) }
            text = "bezier(\(points.joined(separator: ","))) \(n("duration"))s"
        case "linear": text = "linear \(n("duration"))s"
        case "": text = "none"
        case let other: text = other
        }
        if let delay = record.double("delay"), delay != 0 { text += " after \(NumberText.format(delay))s" }
        let source = record.string("source")
        if !source.isEmpty { text += " <\(source)>" }
        return text
    }
}
