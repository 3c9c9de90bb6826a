import NookCore

/// Numbers as nookctl prints them: at most `decimals` decimals, trailing zeros dropped, no
/// `-0`; the same value always prints the same way.
enum NumberText {
    static func format(_ value: Double, decimals: Int = 3) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * Double(scale)).rounded()
        guard abs(scaled) < 9e17 else { return String(value) }
        let units = Int64(scaled)
        let magnitude = units < 0 ? -units : units
        var text = String(magnitude / scale)
        let fraction = magnitude % scale
        if fraction != 0 {
            var digits = String(fraction)
            digits = String(repeating: "0", count: decimals - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        return units < 0 ? "-" + text : text
    }

    static func rect(_ rect: Rect) -> String {
        "(" + [rect.x, rect.y, rect.width, rect.height].map { format($0) }.joined(separator: ",") + ")"
    }
}
