import NookCore
/// A colour as the contract sends it: `#RRGGBB` or `#RRGGBBAA`.
///
/// Write a hex string literal (`.fill("#4F46E5")`) or use a named colour (`.fill(.indigo)`).
/// The string is sent as written; the broker refuses a malformed one with the node's path.
public struct NookColor: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var hex: String

    public init(hex: String) { self.hex = hex }
    public init(stringLiteral value: String) { hex = value }

    public var description: String { hex }

    /// The same colour with its alpha set (0...1), as `#RRGGBBAA`.
    public func opacity(_ alpha: Double) -> NookColor {
        let rgb = hex.hasPrefix("#") ? String(hex.dropFirst().prefix(6)) : hex
        let byte = Int((min(1, max(0, alpha.isNaN ? 0 : alpha)) * 255).rounded())
        let digits = String(byte, radix: 16, uppercase: true)
        return NookColor(hex: "#" + rgb + (digits.count == 1 ? "0" + digits : digits))
    }

    // A small palette close to the usual system colours (light appearance).
    public static let black: NookColor = "#000000"
    public static let white: NookColor = "#FFFFFF"
    public static let gray: NookColor = "#8E8E93"
    public static let red: NookColor = "#FF3B30"
    public static let orange: NookColor = "#FF9500"
    public static let yellow: NookColor = "#FFCC00"
    public static let green: NookColor = "#34C759"
    public static let mint: NookColor = "#00C7BE"
    public static let teal: NookColor = "#30B0C7"
    public static let cyan: NookColor = "#32ADE6"
    public static let blue: NookColor = "#007AFF"
    public static let indigo: NookColor = "#5856D6"
    public static let purple: NookColor = "#AF52DE"
    public static let pink: NookColor = "#FF2D55"
    public static let brown: NookColor = "#A2845E"
    public static let clear: NookColor = "#00000000"
}
