import FoundationEssentials
import Glibc
import NookFiles

/// One piece of a body in one style: what the expanded view draws as one `text` node.
public struct BodyRun: Hashable, Sendable {
    public var text: String
    public var bold = false
    public var italic = false
    public var underline = false
    /// The link's URL (`http`, `https` or `mailto`) when the run is inside `<a href>`.
    public var link: String?

    public init(text: String, bold: Bool = false, italic: Bool = false, underline: Bool = false, link: String? = nil) {
        self.text = text
        self.bold = bold
        self.italic = italic
        self.underline = underline
        self.link = link
    }

    var style: BodyMarkup.Style { BodyMarkup.Style(bold: bold, italic: italic, underline: underline, link: link) }
}

/// The spec's body markup read into styled runs, for the expanded view to draw.
///
/// `<b>`, `<i>`, `<u>` and `<a href="...">` style their text; `<br>` and `<p>` start a line;
/// every other tag (`<img>` included: Nook draws no images in the body) is dropped and its
/// text kept. Entities, whitespace and the byte bound are read exactly as
/// `NotificationMarkup.plainText` reads them, so the runs' text joined is the plain text.
/// Bounds: at most `maxDepth` tags open at once (deeper ones are dropped, their text kept),
/// at most `maxRuns` runs (the rest of the body is one plain run), and a link's URL at most
/// `maxLinkBytes` with a scheme in `linkSchemes` (else its text is plain).
public enum BodyMarkup {
    public static let maxDepth = 16
    public static let maxRuns = 64
    public static let maxLinkBytes = 2048
    /// What a click on a link may open (`xdg-open`): nothing that runs a local program or
    /// reads a local file.
    public static let linkSchemes: Set<String> = ["http", "https", "mailto"]

    struct Style: Hashable {
        var bold = false
        var italic = false
        var underline = false
        var link: String?
        var isPlain: Bool { !bold && !italic && !underline && link == nil }
    }

    enum Tag: Equatable {
        case bold, italic, underline, link(String?)
        var name: String {
            switch self {
            case .bold: "b"
            case .italic: "i"
            case .underline: "u"
            case .link: "a"
            }
        }
    }

    /// The body's lines (split at line breaks), each a list of runs; empty when the body has
    /// no styled run (then `NotificationRequest.body` says it all).
    public static func paragraphs(_ markup: String, maxBytes: Int = 1024, maxInputBytes: Int = 64 * 1024) -> [[BodyRun]] {
        guard markup.utf8.contains(UInt8(ascii: "<")) else { return [] }
        let styled = styledCharacters(markup, maxInputBytes: maxInputBytes)
        guard styled.contains(where: { !$0.style.isPlain }) else { return [] }
        let collapsed = cut(collapse(styled), maxBytes: maxBytes)
        return group(collapsed)
    }

    typealias Styled = (character: Character, style: Style)

    /// Each character of the text with the style of the tags open around it.
    static func styledCharacters(_ markup: String, maxInputBytes: Int) -> [Styled] {
        let input = Substring(Substring(markup).prefixBytes(maxInputBytes))
        var out: [Styled] = []
        var open: [Tag] = []
        // Tags opened beyond `maxDepth`: dropped, and the same number of closes with them.
        var dropped = 0
        var style = Style()
        var index = input.startIndex
        while index < input.endIndex {
            let character = input[index]
            if character == "<", let close = NotificationMarkup.tagEnd(in: input, from: index) {
                let inside = input[input.index(after: index)..<close]
                let tag = inside.lowercased()
                if tag.hasPrefix("br") || tag.hasPrefix("p") && (tag == "p" || tag.hasPrefix("p ")) {
                    out.append(("\n", style))
                } else if tag.hasPrefix("/") {
                    let name = tag.dropFirst().trimmingWhitespace
                    if dropped > 0, ["b", "i", "u", "a"].contains(name) {
                        dropped -= 1
                    } else if let at = open.lastIndex(where: { $0.name == name }) {
                        open.remove(at: at)
                        style = Self.style(of: open)
                    }
                } else if let opened = Self.tag(String(inside)) {
                    if open.count < maxDepth {
                        open.append(opened)
                        style = Self.style(of: open)
                    } else {
                        dropped += 1
                    }
                }
                index = input.index(after: close)
                continue
            }
            if character == "&", let (decoded, next) = NotificationMarkup.entity(in: input, at: index) {
                out.append((decoded, style))
                index = next
                continue
            }
            out.append((character, style))
            index = input.index(after: index)
        }
        return out
    }

    /// The tag a `<...>` opens (`b`, `i`, `u`, `a href=...`), nil for any other.
    static func tag(_ inside: String) -> Tag? {
        let trimmed = inside.hasSuffix("/") ? String(inside.dropLast()) : inside
        let words = trimmed.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard let name = words.first?.lowercased() else { return nil }
        switch name {
        case "b": return .bold
        case "i": return .italic
        case "u": return .underline
        case "a": return .link(words.count > 1 ? href(in: String(words[1])) : nil)
        default: return nil
        }
    }

    /// The `href` attribute's URL (quoted with `"` or `'`, entities decoded) when its scheme
    /// is one of `linkSchemes` and it has no space or control character; nil otherwise.
    static func href(in attributes: String) -> String? {
        guard let start = attributes.indices.first(where: { attributes[$0...].prefix(4).lowercased() == "href" }) else { return nil }
        var rest = attributes[attributes.index(start, offsetBy: 4)...].drop { $0 == " " }
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        let value = rest.dropFirst().prefix { $0 != quote }
        var url = ""
        var index = value.startIndex
        while index < value.endIndex {
            if value[index] == "&", let (decoded, next) = NotificationMarkup.entity(in: value, at: index) {
                url.append(decoded)
                index = next
            } else {
                url.append(value[index])
                index = value.index(after: index)
            }
        }
        return isOpenable(url) ? url : nil
    }

    /// Whether `url` may be given to `xdg-open`: a scheme of `linkSchemes`, at most
    /// `maxLinkBytes`, nothing but printable ASCII and no space (a URL is percent-encoded).
    public static func isOpenable(_ url: String) -> Bool {
        guard url.utf8.count <= maxLinkBytes, url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }),
              let colon = url.firstIndex(of: ":") else { return false }
        let scheme = url[..<colon].lowercased()
        guard linkSchemes.contains(scheme) else { return false }
        let rest = url[url.index(after: colon)...]
        return scheme == "mailto" ? rest.count > 0 : rest.hasPrefix("//") && rest.count > 2
    }

    static func style(of open: [Tag]) -> Style {
        var style = Style()
        for tag in open {
            switch tag {
            case .bold: style.bold = true
            case .italic: style.italic = true
            case .underline: style.underline = true
            case .link(let url): style.link = url
            }
        }
        return style
    }

    /// `NotificationMarkup.collapsedWorkedOut` on styled characters: a kept space takes the
    /// style of the first space of its run.
    static func collapse(_ text: [Styled]) -> [Styled] {
        var out: [Styled] = []
        var pendingSpace: Style?
        var newlines = 0
        for (character, style) in text {
            if character == "\n" || character == "\r\n" || character == "\r" {
                newlines += 1
                pendingSpace = nil
                if newlines <= 2, !out.isEmpty { out.append(("\n", style)) }
            } else if character.isWhitespace {
                if pendingSpace == nil { pendingSpace = style }
            } else {
                if let space = pendingSpace, newlines == 0, !out.isEmpty { out.append((" ", space)) }
                pendingSpace = nil
                newlines = 0
                out.append((character, style))
            }
        }
        while out.last?.character == "\n" { out.removeLast() }
        return out
    }

    /// At most `maxBytes` UTF-8 bytes, ending in `…` when cut, as `prefixBytes(_:ellipsis:)`.
    static func cut(_ text: [Styled], maxBytes: Int) -> [Styled] {
        var total = 0
        for item in text { total += item.character.utf8.count }
        guard total > maxBytes else { return text }
        let budget = max(0, maxBytes - 3)
        var used = 0
        var out: [Styled] = []
        for item in text {
            let size = item.character.utf8.count
            guard used + size <= budget else { break }
            used += size
            out.append(item)
        }
        out.append(("…", out.last?.style ?? Style()))
        return out
    }

    /// Lines of runs of one style. Spaces that end a run move to the start of the next (the
    /// layout gives a line's trailing spaces no room, and the gap between two runs would go);
    /// past `maxRuns` the rest of the body is one plain run.
    static func group(_ text: [Styled]) -> [[BodyRun]] {
        var lines: [[BodyRun]] = [[]]
        var runs = 0
        var current: (text: String, style: Style)?
        func finish() {
            guard let run = current else { return }
            lines[lines.count - 1].append(BodyRun(text: run.text, bold: run.style.bold, italic: run.style.italic,
                                                  underline: run.style.underline, link: run.style.link))
            current = nil
        }
        for (character, original) in text {
            if character == "\n" {
                finish()
                lines.append([])
                continue
            }
            let style = runs >= maxRuns ? Style() : original
            if var run = current, run.style == style || runs >= maxRuns {
                run.text.append(character)
                current = run
                continue
            }
            var carried = ""
            if var run = current {
                while run.text.last == " " {
                    run.text.removeLast()
                    carried.append(" ")
                }
                current = run.text.isEmpty ? nil : run
                finish()
            }
            runs += 1
            current = (carried + String(character), style)
        }
        finish()
        return lines
    }
}
