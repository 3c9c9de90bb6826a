/// Small text helpers for writing SVG deterministically.
enum SVGText {
    /// Coordinates: at most two decimals.
    static func number(_ value: Double) -> String { NumberText.format(value, decimals: 2) }

    /// Key times: at most five decimals.
    static func keyTime(_ value: Double) -> String { NumberText.format(value, decimals: 5) }

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                // XML 1.0 allows no control characters but tab, newline and carriage return.
                if let ascii = character.asciiValue, ascii < 0x20, ascii != 0x09, ascii != 0x0A, ascii != 0x0D { continue }
                out.append(character)
            }
        }
        return out
    }

    /// `name="value"` pairs, escaped, in the given order.
    static func attributes(_ pairs: [(String, String)]) -> String {
        pairs.map { " \($0.0)=\"\(escape($0.1))\"" }.joined()
    }

    /// `<animate>` for one track, or nothing when the value never changes.
    static func animate(_ attribute: String, _ track: Track, total: Double) -> String {
        guard !track.isConstant else { return "" }
        let frames = track.normalized(total: total)
        let keyTimes = frames.map { keyTime($0.time / total) }
        var times = keyTimes
        times[0] = "0"
        times[times.count - 1] = "1"
        return "<animate" + attributes([
            ("attributeName", attribute), ("dur", number(total) + "s"), ("repeatCount", "indefinite"), ("calcMode", "linear"),
            ("keyTimes", times.joined(separator: ";")), ("values", frames.map { number($0.value) }.joined(separator: ";")),
        ]) + "/>"
    }
}
