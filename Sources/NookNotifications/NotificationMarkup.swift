/// The spec's body markup (`<b>`, `<i>`, `<u>`, `<a href>`, `<img>`) turned into plain text.
///
/// The renderer draws plain text only, so tags are dropped and their text kept; entities
/// (`&amp;` `&lt;` `&gt;` `&quot;` `&apos;`, `&#NN;`, `&#xNN;`) are decoded. Broken markup never
/// fails: a `<` that opens no tag before the end (or before a newline) is kept as text, an
/// unknown entity stays as written. Whitespace runs collapse to one space, newlines stay.
public enum NotificationMarkup {
    /// Plain text of `markup`, cut to at most `maxBytes` UTF-8 bytes on a character boundary
    /// (with `…` when cut). Reads at most `maxInputBytes` of input, so a 1 MiB body costs a
    /// bounded, small amount of work.
    public static func plainText(_ markup: String, maxBytes: Int = 1024, maxInputBytes: Int = 64 * 1024) -> String {
        if isPlain(markup, maxBytes: min(maxBytes, maxInputBytes), markup: true) { return markup }
        return workedOut(markup, maxBytes: maxBytes, maxInputBytes: maxInputBytes)
    }

    /// `plainText` read character by character, without the shortcut for plain text.
    static func workedOut(_ markup: String, maxBytes: Int, maxInputBytes: Int) -> String {
        let input = Substring(Substring(markup).prefixBytes(maxInputBytes))
        var out = ""
        var index = input.startIndex
        while index < input.endIndex {
            let character = input[index]
            if character == "<", let close = tagEnd(in: input, from: index) {
                let tag = input[input.index(after: index)..<close].lowercased()
                if tag.hasPrefix("br") || tag.hasPrefix("p") && (tag == "p" || tag.hasPrefix("p ")) { out.append("\n") }
                index = input.index(after: close)
                continue
            }
            if character == "&", let (decoded, next) = entity(in: input, at: index) {
                out.append(decoded)
                index = next
                continue
            }
            out.append(character)
            index = input.index(after: index)
        }
        return collapsedWorkedOut(out).prefixBytes(maxBytes, ellipsis: true)
    }

    /// The index of the `>` closing a tag opened at `start`; nil when none comes before a
    /// newline, another `<`, or 512 characters (then the `<` is text).
    static func tagEnd(in text: Substring, from start: String.Index) -> String.Index? {
        var index = text.index(after: start)
        var budget = 512
        while index < text.endIndex, budget > 0 {
            switch text[index] {
            case ">": return index
            case "<", "\n": return nil
            default: break
            }
            index = text.index(after: index)
            budget -= 1
        }
        return nil
    }

    static let named: [String: Character] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " "]

    /// The character an entity at `start` stands for, and where the text goes on.
    static func entity(in text: Substring, at start: String.Index) -> (Character, String.Index)? {
        guard let semicolon = text[start...].prefix(12).firstIndex(of: ";") else { return nil }
        let name = text[text.index(after: start)..<semicolon]
        let next = text.index(after: semicolon)
        if let character = named[String(name)] { return (character, next) }
        guard name.hasPrefix("#") else { return nil }
        let digits = name.dropFirst()
        let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
        guard let value, value != 0, let scalar = Unicode.Scalar(value) else { return nil }
        return (Character(scalar), next)
    }

    /// Runs of spaces and tabs as one space; at most two newlines in a row; no edge blanks.
    static func collapsed(_ text: String) -> String {
        isPlain(text, maxBytes: .max, markup: false) ? text : collapsedWorkedOut(text)
    }

    /// `collapsed` read character by character, without the shortcut for plain text.
    static func collapsedWorkedOut(_ text: String) -> String {
        var out = ""
        var pendingSpace = false
        var newlines = 0
        for character in text {
            if character == "\n" || character == "\r\n" || character == "\r" {
                newlines += 1
                pendingSpace = false
                if newlines <= 2, !out.isEmpty { out.append("\n") }
            } else if character.isWhitespace {
                pendingSpace = true
            } else {
                if pendingSpace, newlines == 0, !out.isEmpty { out.append(" ") }
                pendingSpace = false
                newlines = 0
                out.append(character)
            }
        }
        while out.last == "\n" { out.removeLast() }
        return out
    }
}

extension NotificationMarkup {
    /// Whether `text` is already what `plainText` (with `markup`) or `collapsed` makes of it:
    /// printable ASCII within `maxBytes`, spaces single and inside, and with `markup` no `<` or
    /// `&`. Most notifications are such text (a progress line), and reading their bytes once
    /// is all they then cost.
    static func isPlain(_ text: String, maxBytes: Int, markup: Bool) -> Bool {
        let bytes = text.utf8
        guard bytes.count <= maxBytes else { return false }
        var afterSpace = true
        for byte in bytes {
            switch byte {
            case UInt8(ascii: " "):
                if afterSpace { return false }
                afterSpace = true
            case UInt8(ascii: "<"), UInt8(ascii: "&"):
                if markup { return false }
                afterSpace = false
            case 0x21...0x7E:
                afterSpace = false
            default:
                return false
            }
        }
        return !afterSpace || bytes.isEmpty
    }
}

extension StringProtocol {
    /// At most `limit` UTF-8 bytes, cut on a character boundary; with `ellipsis`, a cut text
    /// ends in `…` (counted within the limit).
    func prefixBytes(_ limit: Int, ellipsis: Bool = false) -> String {
        guard utf8.count > limit else { return String(self) }
        let budget = ellipsis ? Swift.max(0, limit - 3) : limit
        var used = 0
        var out = ""
        for character in self {
            let size = character.utf8.count
            guard used + size <= budget else { break }
            used += size
            out.append(character)
        }
        return ellipsis ? out + "…" : out
    }
}
