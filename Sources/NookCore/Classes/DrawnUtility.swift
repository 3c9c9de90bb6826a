/// The utilities renderers draw: the class DSL's passthrough vocabulary
/// (docs/classes-and-tokens.md, "What renderers draw").
///
/// The broker owns the other families (groups, shared marks, animation, layout) and reads them
/// itself; what is left after a theme's named rules are expanded is passed to renderers, and
/// must be one of these to mean anything. A class that is neither earns `unknown-class` when
/// the view is published, with the nearest known class as a suggestion (`text-blu-400`:
/// `text-blue-400`). nook-renderer's `ClassStyle` draws exactly this set (a test holds them
/// together).
public enum DrawnUtility {
    /// Tailwind's hue names, in Tailwind's order.
    public static let hues = [
        "slate", "gray", "zinc", "neutral", "stone", "red", "orange", "amber", "yellow", "lime", "green", "emerald", "teal",
        "cyan", "sky", "blue", "indigo", "violet", "purple", "fuchsia", "pink", "rose",
    ]
    /// Tailwind's shades; renderers take any whole number from 50 to 950.
    public static let shades = [50, 100, 200, 300, 400, 500, 600, 700, 800, 900, 950]
    /// `rounded-<size>`.
    public static let radii = ["none", "sm", "md", "lg", "xl", "2xl", "3xl", "full"]
    /// Utilities that are a word alone.
    public static let words = ["italic", "not-italic", "underline", "no-underline", "rounded", "text-left", "text-center", "text-right"]

    private static let hueSet = Set(hues)

    /// True when renderers draw `utility` (a class with its variant chain taken off).
    public static func isKnown(_ utility: some StringProtocol) -> Bool {
        let text = Substring(utility)
        if words.contains(where: { $0 == text }) { return true }
        if let value = text.dropPrefix("opacity-") ?? text.dropPrefix("scale-") { return isNumber(value) }
        if let size = text.dropPrefix("rounded-") { return radii.contains(where: { $0 == size }) || isBracketedNumber(size) }
        if let colour = text.dropPrefix("bg-") ?? text.dropPrefix("text-") { return isColour(colour) }
        return false
    }

    /// A colour as renderers read it: `white`, `black`, `transparent`, `<hue>`, `<hue>-<shade>`
    /// or `[#RRGGBB]` / `[#RRGGBBAA]`, each optionally with `/<percent>` or `/[<0...1>]`.
    public static func isColour(_ text: Substring) -> Bool {
        var name = text
        if let slash = name.lastIndex(of: "/"), !name[..<slash].hasSuffix("[") {
            let alpha = name[name.index(after: slash)...]
            if let percent = Int(alpha) {
                guard (0...100).contains(percent) else { return false }
            } else {
                guard let value = bracketed(alpha).flatMap({ Double($0) }), (0...1).contains(value) else { return false }
            }
            name = name[..<slash]
        }
        if let hex = bracketed(name) {
            return hex.first == "#" && (hex.count == 7 || hex.count == 9) && hex.dropFirst().allSatisfy(\.isHexDigit)
        }
        if name == "white" || name == "black" || name == "transparent" { return true }
        if let dash = name.lastIndex(of: "-"), let shade = Int(name[name.index(after: dash)...]) {
            return hueSet.contains(String(name[..<dash])) && (50...950).contains(shade)
        }
        return hueSet.contains(String(name))
    }

    /// The known class nearest to `unknown` by edit distance (at most 1 edit in 4 characters,
    /// and at most 3), or nil. `names` are more candidates: the theme's named rules.
    public static func suggestion(for unknown: String, names: some Sequence<String> = [String]()) -> String? {
        let typed = Array(unknown.utf8)
        guard !typed.isEmpty, typed.count <= 64 else { return nil }
        let limit = min(3, max(1, typed.count / 4))
        var best: (distance: Int, candidate: String)?
        for candidate in candidates(near: unknown) + Array(names) {
            let distance = editDistance(typed, Array(candidate.utf8), limit: limit)
            if distance <= limit, distance < (best?.distance ?? .max) { best = (distance, candidate) }
        }
        return best?.candidate
    }

    /// Every class a suggestion is chosen from: the words, the radii, each colour class, and
    /// the numeric families with `unknown`'s own value (`opacity-5O` is near `opacity-50`
    /// only if 50 is tried; the value is taken from after its last `-`).
    public static func candidates(near unknown: String) -> [String] {
        var out = words + radii.map { "rounded-" + $0 }
        // `text-blu-400/50`: the alpha stays as written.
        let alpha = unknown.lastIndex(of: "/").map { String(unknown[$0...]) } ?? ""
        for family in ["bg-", "text-"] {
            for base in ["white", "black", "transparent"] { out.append(family + base + alpha) }
            for hue in hues {
                out.append(family + hue + alpha)
                for shade in shades { out.append(family + hue + "-" + String(shade) + alpha) }
            }
        }
        let value = unknown.lastIndex(of: "-").map { String(unknown[unknown.index(after: $0)...]) } ?? ""
        let numbers = ["0", "5", "10", "20", "25", "30", "40", "50", "60", "70", "75", "80", "90", "95", "100", "105", "110", "125", "150"]
        for family in ["opacity-", "scale-"] {
            out += numbers.map { family + $0 }
            if !value.isEmpty { out.append(family + value) }
        }
        if !value.isEmpty {
            // The broker's own numeric families: a typo in their prefix is passed through.
            for family in ["w-", "h-", "size-", "p-", "px-", "py-", "pt-", "pb-", "ps-", "pe-", "gap-", "duration-", "delay-"] {
                out.append(family + value)
            }
        }
        return out
    }

    /// Edit distance between `a` and `b`, a swap of two neighbours counting as one edit (the
    /// commonest typo: `gpa-2`), or `limit + 1` as soon as it must exceed `limit`.
    static func editDistance(_ a: [UInt8], _ b: [UInt8], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowBest = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var distance = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { distance = min(distance, beforePrevious[j - 2] + 1) }
                current[j] = distance
                rowBest = min(rowBest, distance)
            }
            if rowBest > limit { return limit + 1 }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }

    private static func isNumber(_ text: Substring) -> Bool {
        if let inner = bracketed(text) { return Double(inner).map(\.isFinite) == true }
        return !text.isEmpty && text.allSatisfy(\.isASCII) && Double(text).map { $0.isFinite && $0 >= 0 } == true
    }

    private static func isBracketedNumber(_ text: Substring) -> Bool {
        bracketed(text).flatMap { Double($0) }.map(\.isFinite) == true
    }

    private static func bracketed(_ text: Substring) -> Substring? {
        text.hasPrefix("[") && text.hasSuffix("]") && text.count >= 2 ? text.dropFirst().dropLast() : nil
    }
}

extension Substring {
    fileprivate func dropPrefix(_ prefix: String) -> Substring? {
        hasPrefix(prefix) ? dropFirst(prefix.count) : nil
    }
}
