/// The token types a theme may hold: DTCG's `duration`, `cubicBezier`, `number`, `dimension`
/// and `transition`, plus our `spring` and `string` (class strings for `rules.named`).
public enum TokenType: String, Hashable, Sendable, CaseIterable {
    case duration, cubicBezier, number, dimension, spring, transition, string

    /// Types a curve can be built from (`Theme.curve(at:)`).
    public var isCurve: Bool { self == .spring || self == .transition || self == .cubicBezier }
}

/// A token's value after parsing. Durations are seconds, dimensions points (1 px = 1 pt).
public enum TokenValue: Hashable, Sendable {
    case duration(Double)
    case cubicBezier(CubicBezier)
    case number(Double)
    case dimension(Double)
    case spring(Spring)
    /// DTCG's composite transition: a timing function run over a duration after a delay.
    case transition(duration: Double, delay: Double, timing: CubicBezier)
    case string(String)

    public var type: TokenType {
        switch self {
        case .duration: .duration
        case .cubicBezier: .cubicBezier
        case .number: .number
        case .dimension: .dimension
        case .spring: .spring
        case .transition: .transition
        case .string: .string
        }
    }
}

/// One resolved token: its value and the alias chain it was reached through.
public struct ResolvedToken: Hashable, Sendable {
    public var path: String
    public var value: TokenValue
    /// The token itself first, then each alias target: `["motion.sharedElement.convert", "transition.convert"]`.
    public var chain: [String]

    public var type: TokenType { value.type }
    /// The chain as a curve `source`: `motion.sharedElement.convert -> transition.convert`.
    public var source: String { chain.joined(separator: " -> ") }
}
