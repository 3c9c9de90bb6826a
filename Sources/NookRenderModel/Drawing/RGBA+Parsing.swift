extension RGBA {
    /// `#RRGGBB` or `#RRGGBBAA` (the contract's colour strings), else nil.
    public init?(hex text: String) {
        var digits = Substring(text)
        guard digits.first == "#" else { return nil }
        digits = digits.dropFirst()
        guard digits.count == 6 || digits.count == 8, let value = UInt64(digits, radix: 16) else { return nil }
        let hasAlpha = digits.count == 8
        let rgb = hasAlpha ? value >> 8 : value
        self.init(
            red: Double((rgb >> 16) & 0xFF) / 255, green: Double((rgb >> 8) & 0xFF) / 255, blue: Double(rgb & 0xFF) / 255,
            alpha: hasAlpha ? Double(value & 0xFF) / 255 : 1)
    }

    /// A Tailwind-style colour name with an optional opacity: `white`, `black/40`,
    /// `transparent`, `red-500`, `sky-300/50`, `[#4B0082]`, `white/[0.35]`.
    ///
    /// Hues use Tailwind's 500 shade; other shades are approximated by mixing that shade with
    /// white (below 500) or black (above), which is close enough for a badge or a tint.
    public init?(tailwind text: String) {
        var name = Substring(text)
        var alpha = 1.0
        if let slash = name.lastIndex(of: "/"), !name[..<slash].hasSuffix("[") {
            let suffix = name[name.index(after: slash)...]
            if suffix.hasPrefix("["), suffix.hasSuffix("]"), let value = Double(suffix.dropFirst().dropLast()) {
                alpha = value
            } else if let percent = Int(suffix) {
                alpha = Double(percent) / 100
            } else {
                return nil
            }
            name = name[..<slash]
        }
        guard (0...1).contains(alpha) else { return nil }
        var colour: RGBA
        if name.hasPrefix("["), name.hasSuffix("]") {
            guard let parsed = RGBA(hex: String(name.dropFirst().dropLast())) else { return nil }
            colour = parsed
        } else if name == "white" {
            colour = .white
        } else if name == "black" {
            colour = .black
        } else if name == "transparent" {
            colour = RGBA(red: 0, green: 0, blue: 0, alpha: 0)
        } else {
            var hue = name
            var shade = 500
            if let dash = name.lastIndex(of: "-"), let number = Int(name[name.index(after: dash)...]) {
                hue = name[..<dash]
                shade = number
            }
            guard let base = Self.tailwindHues[String(hue)], (50...950).contains(shade) else { return nil }
            colour = base.mixed(toward: shade < 500 ? .white : .black,
                                amount: shade < 500 ? Double(500 - shade) / 500 * 0.9 : Double(shade - 500) / 500 * 0.8)
        }
        colour.alpha *= alpha
        self = colour
    }

    /// Tailwind's 500 shades.
    static let tailwindHues: [String: RGBA] = [
        "slate": 0x64748B, "gray": 0x6B7280, "zinc": 0x71717A, "neutral": 0x737373, "stone": 0x78716C,
        "red": 0xEF4444, "orange": 0xF97316, "amber": 0xF59E0B, "yellow": 0xEAB308, "lime": 0x84CC16,
        "green": 0x22C55E, "emerald": 0x10B981, "teal": 0x14B8A6, "cyan": 0x06B6D4, "sky": 0x0EA5E9,
        "blue": 0x3B82F6, "indigo": 0x6366F1, "violet": 0x8B5CF6, "purple": 0xA855F7, "fuchsia": 0xD946EF,
        "pink": 0xEC4899, "rose": 0xF43F5E,
    ].mapValues { (rgb: Int) in
        RGBA(red: Double((rgb >> 16) & 0xFF) / 255, green: Double((rgb >> 8) & 0xFF) / 255, blue: Double(rgb & 0xFF) / 255)
    }

    /// `f` of the way from `a` to `b`; a missing end is the other colour, fully transparent.
    static func mix(_ a: RGBA?, _ b: RGBA?, _ f: Double) -> RGBA? {
        guard a != b else { return b }
        guard let start = a ?? b.map({ RGBA(red: $0.red, green: $0.green, blue: $0.blue, alpha: 0) }),
              let end = b ?? a.map({ RGBA(red: $0.red, green: $0.green, blue: $0.blue, alpha: 0) }) else { return nil }
        var out = start.mixed(toward: end, amount: f)
        out.alpha = start.alpha + (end.alpha - start.alpha) * f
        return out
    }

    func mixed(toward other: RGBA, amount: Double) -> RGBA {
        RGBA(red: red + (other.red - red) * amount, green: green + (other.green - green) * amount,
             blue: blue + (other.blue - blue) * amount, alpha: alpha)
    }
}
