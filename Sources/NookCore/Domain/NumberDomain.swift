/// The range a number entering nookd must lie in, and what happens outside it.
///
/// Every number a client can send (view props, activity spec keys, curves, tokens, display
/// keys) belongs to one domain in `NumberDomain.all`. Keeping them finite and of the order
/// of a display means no later arithmetic (layout sums, curve sampling, date differences,
/// Double -> Int conversions) can overflow, trap or yield NaN. docs/contract.md shows the
/// same table, `NumberDomain.markdownTable`; a test keeps the two equal.
public struct NumberDomain: Hashable, Sendable {
    /// What a value outside the range gets.
    public enum Overflow: String, Hashable, Sendable {
        /// Refused with the caller's error (InvalidArgs, InvalidView, InvalidTheme) naming the key.
        case refuse
        /// Moved to the nearest bound (classes, whose problems are never errors).
        case clamp
    }

    /// A short name for messages and the docs table: `length`, `duration`.
    public let name: String
    /// Which keys use this domain, as the docs table lists them.
    public let keys: String
    public let lower: Double
    public let upper: Double
    /// False when `lower` itself is outside (a spring's response must be above 0).
    public let includesLower: Bool
    public let unit: String
    public let overflow: Overflow

    public init(
        _ name: String, keys: String, _ lower: Double, _ upper: Double, includesLower: Bool = true, unit: String,
        overflow: Overflow = .refuse
    ) {
        self.name = name
        self.keys = keys
        self.lower = lower
        self.upper = upper
        self.includesLower = includesLower
        self.unit = unit
        self.overflow = overflow
    }

    public func contains(_ value: Double) -> Bool {
        value.isFinite && value <= upper && (includesLower ? value >= lower : value > lower)
    }

    /// The nearest value in the domain; NaN goes to the lower bound (or just above it).
    public func clamped(_ value: Double) -> Double {
        if contains(value) { return value }
        if value.isNaN || value <= lower { return includesLower ? lower : lower.nextUp }
        return upper
    }

    /// Why `value` is outside, as the tail of a message after the key (`key 'width': ...`);
    /// nil when it is inside.
    public func problem(_ value: Double) -> String? {
        if contains(value) { return nil }
        if value.isNaN { return "NaN is not a finite number" }
        if value.isInfinite { return "\(value < 0 ? "-inf" : "inf") is not a finite number" }
        return "\(NumberText.short(value)) is outside \(rangeText) (\(name))"
    }

    /// `0...100000 pt`, `(0, 60] s`.
    public var rangeText: String {
        let unitText = unit.isEmpty ? "" : " " + unit
        if includesLower { return "\(NumberText.short(lower))...\(NumberText.short(upper))\(unitText)" }
        return "(\(NumberText.short(lower)), \(NumberText.short(upper))]\(unitText)"
    }
}

/// Numbers in messages and docs: integers without a fraction, others as Swift prints them,
/// and never more than a couple of dozen characters whatever the value.
public enum NumberText {
    public static func short(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 9e15 {  // below 2^53: exact
            return String(Int64(value))
        }
        return String(value)
    }
}
