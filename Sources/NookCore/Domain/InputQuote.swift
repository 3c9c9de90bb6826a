/// Client input quoted in an error message: at most `maxCharacters` of it, so a megabyte
/// slot name gives a short error rather than a megabyte one.
public enum InputQuote {
    public static let maxCharacters = 200

    /// `text` itself when short, else its first `maxCharacters` characters, an ellipsis and
    /// how long the whole was. No quotation marks: callers add their own.
    public static func text(_ text: String) -> String {
        // utf8.count is O(1) for native strings; a short string needs no character walk.
        if text.utf8.count <= maxCharacters { return text }
        // Scalars, not Characters: one grapheme may be arbitrarily long (a letter followed
        // by a million combining marks), a scalar never is.
        let scalars = text.unicodeScalars
        var end = scalars.startIndex
        var count = 0
        while end < scalars.endIndex, count < maxCharacters {
            end = scalars.index(after: end)
            count += 1
        }
        if end == scalars.endIndex { return text }
        return String(scalars[..<end]) + "… (\(text.utf8.count) bytes)"
    }
}
