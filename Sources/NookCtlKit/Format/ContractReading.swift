import NookBus
import NookCore

// nookctl reads what the broker sends with NookCore's readers, as renderers do: plans with
// `ReceivedPlan(wire:)`, other `a{sv}` records with `FieldReader`. What they refuse is
// reported with the key it names, never shown half-read.

extension FieldReader where Failure == WireFieldError {
    /// A reply's or signal's `a{sv}` (variants around it unwrapped).
    init(reply value: DBusValue) throws(WireFieldError) {
        try self.init(path: "", value: try PropValue(reply: value))
    }
}

extension Plan where Scene == WireScene {
    /// A plan as the `Plan` signal or a reply carries it; words a newer broker may use that
    /// NookCore does not know read as it says (its warnings are not shown).
    init(reply value: DBusValue, held: (serial: UInt64, scene: WireScene)? = nil) throws(WireFieldError) {
        var warnings: [String] = []
        try self.init(wire: try PropValue(reply: value), held: held, warnings: &warnings)
    }
}

extension PropValue {
    /// `value` as the contract's values; a D-Bus type no contract value has throws naming where.
    init(reply value: DBusValue) throws(WireFieldError) {
        do { self = try PropValue(wire: value, at: "") } catch {
            throw WireFieldError(key: error.path.isEmpty ? "(argument)" : error.path, message: error.message, kind: .wrongType)
        }
    }
}

/// A plan's curve as one line of text: `spring(response 0.42, damping 0.82)`,
/// `bezier(0.25,0.1,0.25,1) 0.3s`, `linear 0.2s`, `none`; then ` after 0.1s` for a delay and
/// ` <source>` when known.
enum CurveText {
    static func text(_ curve: Curve) -> String {
        let n = { (value: Double) in NumberText.format(value) }
        var text = switch curve.kind {
        case .spring(let spring): "spring(response \(n(spring.response)), damping \(n(spring.dampingFraction)))"
        case .bezier(let points, let duration): "bezier(\(points.points.map(n).joined(separator: ","))) \(n(duration))s"
        case .linear(let duration): "linear \(n(duration))s"
        case .none: "none"
        }
        if curve.delay != 0 { text += " after \(n(curve.delay))s" }
        if !curve.source.isEmpty { text += " <\(curve.source)>" }
        return text
    }
}
