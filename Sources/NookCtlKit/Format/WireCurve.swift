import NookCore

/// A plan's curve `a{sv}` as one line of text; read leniently, so whatever a broker sends is
/// shown. (Sampling a received curve is NookCore's `Curve(wire:)`.)
enum WireCurve {
    /// `spring(response 0.42, damping 0.82)`, `bezier(0.25,0.1,0.25,1) 0.3s`, `linear 0.2s`,
    /// `none`; then ` after 0.1s` for a delay and ` <source>` when known.
    static func text(_ record: WireRecord) -> String {
        let n = { (key: String) in NumberText.format(record.double(key) ?? 0) }
        var text: String
        switch record.string("type") {
        case "spring": text = "spring(response \(n("response")), damping \(n("damping_fraction")))"
        case "bezier":
            let points = record.numbers("points").map { NumberText.format($0) }
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
