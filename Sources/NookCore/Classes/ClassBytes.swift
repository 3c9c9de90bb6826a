/// Byte-level helpers for class strings that are pure ASCII, where every byte is one
/// `Character`, so comparing bytes gives exactly what comparing characters would, without
/// grapheme breaking.
enum ClassBytes {
    static func isASCII(_ text: Substring) -> Bool {
        text.utf8.allSatisfy { $0 < 0x80 }
    }

    /// The ASCII bytes `Character.isWhitespace` accepts: tab, line feed, vertical tab, form
    /// feed, carriage return and space (Unicode `White_Space`).
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    /// `text.hasPrefix(prefix)` for an ASCII `text` and ASCII `prefix`.
    static func hasPrefix(_ text: Substring, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        let utf8 = text.utf8
        guard utf8.count >= count else { return false }
        var index = utf8.startIndex
        for offset in 0..<count {
            if utf8[index] != prefix.utf8Start[offset] { return false }
            index = utf8.index(after: index)
        }
        return true
    }

    /// `text == word` for an ASCII `text` and ASCII `word`.
    static func equals(_ text: Substring, _ word: StaticString) -> Bool {
        text.utf8.count == word.utf8CodeUnitCount && hasPrefix(text, word)
    }
}
