/// The broker's stand-in for a font: a small, deterministic model of how wide text is.
///
/// The broker never sees the renderer's fonts, yet it must size text the same way on every
/// run and every machine. So each character gets an advance that is a fixed fraction of the
/// font size, chosen by character class and weight class:
///
/// Advances are per Unicode scalar (not per grapheme, which is far slower to find):
///
/// | character | advance (× font size) |
/// |---|---|
/// | space | 0.30 |
/// | digit, when `monospaced_digits` (and always in a timer) | 0.62 |
/// | wide (CJK, Hangul, fullwidth forms, emoji) | 1.00 |
/// | combining mark, variation selector, emoji modifier, joiner, and what a joiner joins | 0 |
/// | anything else | the weight factor below |
///
/// Weight factors: `ultralight`/`thin` 0.50, `light` 0.52, `regular`/`medium` (default) 0.55,
/// `semibold` 0.58, `bold` 0.60, `heavy`/`black` 0.63; CSS numbers map onto the same classes
/// (100-200, 300, 400-500, 600, 700, 800-900). A line is `font_size × 1.2` tall. The default
/// font size is 13.
public enum TextMetrics {
    public static let defaultFontSize = 13.0
    public static let lineHeightFactor = 1.2
    public static let spaceFactor = 0.30
    public static let monospacedDigitFactor = 0.62
    public static let wideFactor = 1.0
    /// What a `timer_end` text without `text` is measured as: its widest format under an hour.
    public static let timerPlaceholder = "00:00"

    /// The widest text a countdown `seconds` long shows (`Countdown` rounds whole seconds
    /// up): `00:00` under an hour, `0:00:00` under ten hours, `00:00:00` beyond. A module
    /// whose countdown may show hours sends it as the node's `text` beside `timer_end`: the
    /// layout measures `text`, the renderer draws the countdown. NaN or negative: `00:00`.
    public static func timerPlaceholder(seconds: Double) -> String {
        guard seconds > 3599 else { return timerPlaceholder }
        return seconds > 35_999 ? "00:00:00" : "0:00:00"
    }

    /// Average advance of ordinary characters for a `font_weight` value.
    public static func weightFactor(_ weight: String?) -> Double {
        switch weight {
        case "ultralight", "thin", "100", "200": 0.50
        case "light", "300": 0.52
        case "semibold", "600": 0.58
        case "bold", "700": 0.60
        case "heavy", "black", "800", "900": 0.63
        default: 0.55
        }
    }

    /// The advance of one Unicode scalar, as a fraction of the font size. Scalars that join
    /// or decorate the one before (combining marks, variation selectors, emoji modifiers, the
    /// zero-width joiner, and whatever a joiner joins) take no room.
    public static func advanceFactor(of scalar: Unicode.Scalar, weight: Double, monospacedDigits: Bool) -> Double {
        let value = scalar.value
        if value < 0x80 { return asciiAdvanceFactor(of: UInt8(value), weight: weight, monospacedDigits: monospacedDigits) }
        if isZeroWidth(value) { return 0 }
        if isWide(value) { return wideFactor }
        return weight
    }

    /// `advanceFactor` of an ASCII scalar.
    @inline(__always)
    static func asciiAdvanceFactor(of byte: UInt8, weight: Double, monospacedDigits: Bool) -> Double {
        if byte == 0x20 || byte == 0x09 { return spaceFactor }
        if monospacedDigits, byte >= 0x30, byte <= 0x39 { return monospacedDigitFactor }
        return weight
    }

    static func isZeroWidth(_ value: UInt32) -> Bool {
        switch value {
        case 0x0300...0x036F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x200B...0x200F, 0x20D0...0x20FF,
            0xFE00...0xFE0F, 0xFE20...0xFE2F, 0x1F3FB...0x1F3FF, 0xE0020...0xE007F:
            true
        default:
            false
        }
    }

    /// East Asian wide and fullwidth ranges plus the common emoji blocks.
    static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF,
            0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1FAFF, 0x20000...0x3FFFD:
            true
        default:
            false
        }
    }
}
