/// Durations as people type them on a command line (NookCore's `DurationText` reads theme
/// durations, `240ms`, `1.5s`): `90` (seconds), `90s`, `5m`, `1h`,
/// `1h30m`, `2m30s`, `1.5h`.
enum DurationArgument {
    /// Seconds, or nil when `text` is not a duration above 0 (finite, at most ~10⁹ s so the
    /// microsecond arithmetic on it cannot overflow).
    static func seconds(_ text: String) -> Double? {
        var total = 0.0
        var number = ""
        var sawUnit = false
        for character in text {
            if character.isASCII, character.isNumber || character == "." {
                number.append(character)
                continue
            }
            let scale: Double
            switch character {
            case "h": scale = 3600
            case "m": scale = 60
            case "s": scale = 1
            default: return nil
            }
            guard let value = Double(number) else { return nil }
            total += value * scale
            number = ""
            sawUnit = true
        }
        if !number.isEmpty {
            // A bare number is seconds; `1h30` (a number after a unit) is ambiguous.
            guard !sawUnit, let value = Double(number) else { return nil }
            total = value
        } else if !sawUnit {
            return nil
        }
        guard total.isFinite, total > 0, total <= 1e9 else { return nil }
        return total
    }

    /// `3600` -> `1h`, `5400` -> `1h30m`, `90` -> `1m30s`: the shortest spelling `seconds` reads.
    static func text(_ seconds: Double) -> String {
        let whole = Int(seconds.rounded())
        var parts = ""
        if whole / 3600 > 0 { parts += "\(whole / 3600)h" }
        if whole % 3600 / 60 > 0 { parts += "\(whole % 3600 / 60)m" }
        if whole % 60 > 0 || parts.isEmpty { parts += "\(whole % 60)s" }
        return parts
    }
}
