/// Reads durations written as text: `"240ms"`, `"1.5s"`, `"0.4s"`.
///
/// Shared by theme tokens and the `duration-[…]` / `delay-[…]` classes so both accept the
/// same spellings. Only plain decimal numbers are read: no signs, exponents, `inf` or `nan`.
public enum DurationText {
    /// The duration in seconds, or nil when `text` is not a non-negative number with unit `ms` or `s`.
    public static func seconds(_ text: String) -> Double? {
        if text.hasSuffix("ms") {
            return number(text.dropLast(2)).map { $0 / 1000 }
        }
        if text.hasSuffix("s") {
            return number(text.dropLast())
        }
        return nil
    }

    /// A plain decimal: digits with at most one `.`, at least one digit.
    static func number(_ text: Substring) -> Double? {
        var dots = 0
        var digits = 0
        for character in text {
            if character == "." {
                dots += 1
            } else if character.isASCII, character.isNumber {
                digits += 1
            } else {
                return nil
            }
        }
        guard dots <= 1, digits > 0, let value = Double(text), value.isFinite else { return nil }
        return value
    }
}
