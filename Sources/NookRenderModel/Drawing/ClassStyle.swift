import NookCore

/// What a node's drawing utilities say: the classes the broker passes through to renderers
/// (`opacity-50`, `bg-white/10`, `text-sky-400`, `scale-110`, `rounded-lg`), from the class
/// string at rest and from every variant whose conditions hold.
///
/// Layout utilities, groups, shared marks and animation classes belong to the broker and are
/// skipped silently; anything else is unknown and ignored (`unknownClasses` lists it, so the
/// presenter can warn once).
struct ClassStyle: Hashable, Sendable {
    var opacity: Double = 1
    var background: RGBA?
    /// Corner radius of the background; nil uses `defaultBackgroundRadius`.
    var backgroundRadius: Double?
    var foreground: RGBA?
    var scale: Double = 1
    var alignment: Alignment?
    /// `italic` / `not-italic`, `underline` / `no-underline` (Tailwind's names): text drawn in
    /// the italic face, underlined. The broker measures text upright; an italic face is about
    /// as wide (docs/renderer.md, "Text").
    var italic = false
    var underline = false

    static let defaultBackgroundRadius = 8.0

    /// Applies the utilities of `classes` in order; later ones win. Variant chains
    /// (`hover:...`) are skipped: they arrive resolved in the node's `variants`.
    mutating func apply(_ classes: String) {
        for token in classes.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) where !token.contains(":") {
            _ = apply(utility: String(token))
        }
    }

    /// Applies one utility; false when it is not one a renderer draws (nor one the broker owns).
    @discardableResult
    mutating func apply(utility: String) -> Bool {
        if let value = Self.number(after: "opacity-", in: utility) { opacity = min(max(value / 100, 0), 1); return true }
        if let value = Self.number(after: "scale-", in: utility) { scale = max(value / 100, 0); return true }
        switch utility {
        case "italic": italic = true; return true
        case "not-italic": italic = false; return true
        case "underline": underline = true; return true
        case "no-underline": underline = false; return true
        default: break
        }
        if utility == "rounded" { backgroundRadius = 4; return true }
        if utility.hasPrefix("rounded-") {
            let size = utility.dropFirst("rounded-".count)
            let radii: [Substring: Double] = ["none": 0, "sm": 2, "md": 6, "lg": 8, "xl": 12, "2xl": 16, "3xl": 24, "full": 9999]
            if let radius = radii[size] { backgroundRadius = radius; return true }
            if size.hasPrefix("["), size.hasSuffix("]"), let radius = Double(size.dropFirst().dropLast()) { backgroundRadius = radius; return true }
            return false
        }
        if utility.hasPrefix("bg-"), let colour = RGBA(tailwind: String(utility.dropFirst(3))) { background = colour; return true }
        if utility.hasPrefix("text-") {
            let rest = String(utility.dropFirst(5))
            switch rest {
            case "left": alignment = .leading; return true
            case "center": alignment = .center; return true
            case "right": alignment = .trailing; return true
            default: break
            }
            if let colour = RGBA(tailwind: rest) { foreground = colour; return true }
            return false
        }
        return Self.isBrokerUtility(utility)
    }

    /// Families the broker reads (layout, groups, shared marks, animation): nothing to draw.
    static func isBrokerUtility(_ utility: String) -> Bool {
        if utility == "group" || utility.hasPrefix("group/") || utility.hasPrefix("shared-") || utility.hasPrefix("animate-") {
            return true
        }
        let layout = ["w-", "h-", "size-", "p-", "px-", "py-", "pt-", "pb-", "ps-", "pe-", "gap-", "duration-", "delay-",
                      "min-w-", "max-w-", "min-h-", "max-h-"]
        return layout.contains { utility.hasPrefix($0) }
    }

    /// `opacity-50` -> 50, `scale-[1.5]`-style brackets -> the number ×100.
    private static func number(after prefix: String, in utility: String) -> Double? {
        guard utility.hasPrefix(prefix) else { return nil }
        let rest = utility.dropFirst(prefix.count)
        if rest.hasPrefix("["), rest.hasSuffix("]"), let value = Double(rest.dropFirst().dropLast()) { return value * 100 }
        return Double(rest)
    }

    /// The class tokens of `classes` (variant chains included, by their last utility) that no
    /// renderer utility or broker family explains.
    static func unknownClasses(in classes: String) -> [String] {
        var probe = ClassStyle()
        var out: [String] = []
        for token in classes.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
            let utility = token.split(separator: ":").last.map(String.init) ?? String(token)
            if !probe.apply(utility: utility) { out.append(utility) }
        }
        return out
    }
}
