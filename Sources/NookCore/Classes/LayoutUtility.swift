/// A layout utility from a class string: `w-20`, `h-[37]`, `size-5`, `p-2`, `px-3`, `gap-1`.
///
/// Scale: one unit is 4 points (`w-20` is 80 pt); an arbitrary value in brackets is in points
/// (`w-[37]` and `w-[37pt]` are 37 pt). Only plain utilities are layout: a variant chain
/// (`hover:w-20`) depends on state the renderer owns, so the broker never lays it out.
public enum LayoutUtility: Hashable, Sendable {
    case width(Double)
    case height(Double)
    /// Width and height together.
    case size(Double)
    case padding(PaddingEdges, Double)
    /// Spacing between a stack's children.
    case gap(Double)

    /// Points per unit of the class scale.
    public static let pointsPerUnit = 4.0

    /// Parses one utility token (no variants). Returns nil for anything that is not a layout
    /// utility or whose value is not a finite, non-negative number.
    public static func parse(_ token: Substring) -> LayoutUtility? {
        guard let dash = token.firstIndex(of: "-") else { return nil }
        let prefix = token[..<dash]
        let rest = token[token.index(after: dash)...]
        guard let points = parseValue(rest) else { return nil }
        switch prefix {
        case "w": return .width(points)
        case "h": return .height(points)
        case "size": return .size(points)
        case "gap": return .gap(points)
        case "p": return .padding(.all, points)
        case "px": return .padding(.horizontal, points)
        case "py": return .padding(.vertical, points)
        case "pt": return .padding(.top, points)
        case "pb": return .padding(.bottom, points)
        case "ps": return .padding(.leading, points)
        case "pe": return .padding(.trailing, points)
        default: return nil
        }
    }

    public static func parse(_ token: String) -> LayoutUtility? { parse(token[...]) }

    /// `20` -> 80 pt, `0.5` -> 2 pt, `[37]` / `[37pt]` -> 37 pt.
    static func parseValue(_ text: Substring) -> Double? {
        let value: Double?
        if text.first == "[", text.last == "]", text.count >= 3 {
            var inner = text.dropFirst().dropLast()
            if inner.hasSuffix("pt") || inner.hasSuffix("px") { inner = inner.dropLast(2) }
            value = Double(inner)
        } else if let units = Double(text), text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) {
            value = units * pointsPerUnit
        } else {
            value = nil
        }
        guard let value, value.isFinite, value >= 0 else { return nil }
        return NumberDomain.classLength.clamped(value)
    }
}

/// Which edges a padding utility sets.
public enum PaddingEdges: Hashable, Sendable {
    case all, horizontal, vertical, top, bottom, leading, trailing

    /// Applies `points` to the chosen edges of `insets`.
    public func apply(_ points: Double, to insets: inout EdgeInsets) {
        switch self {
        case .all: insets = EdgeInsets(all: points)
        case .horizontal: insets.leading = points; insets.trailing = points
        case .vertical: insets.top = points; insets.bottom = points
        case .top: insets.top = points
        case .bottom: insets.bottom = points
        case .leading: insets.leading = points
        case .trailing: insets.trailing = points
        }
    }
}
