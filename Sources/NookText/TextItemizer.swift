import CFontText

/// Splits a paragraph the way Pango's itemizer (1.50) does before it picks fonts: a new run
/// starts where the script changes (characters common to all scripts, such as spaces, digits
/// and punctuation, take the script before them, or after them at the start) and where an
/// emoji sequence starts or ends.
enum TextItemizer {
    struct Segment {
        var range: Range<Int>
        var script: hb_script_t
        var isEmoji: Bool
    }

    static func segments(_ text: UnsafeBufferPointer<UInt32>, _ paragraph: Range<Int>) -> [Segment] {
        if let ascii = asciiSegment(text, paragraph) { return [ascii] }
        return unicodeSegments(text, paragraph)
    }

    /// `segments`, one by one: an ASCII paragraph's one segment goes without an array.
    static func forEachSegment(_ text: UnsafeBufferPointer<UInt32>, _ paragraph: Range<Int>, _ body: (Segment) -> Void) {
        if let ascii = asciiSegment(text, paragraph) { return body(ascii) }
        for segment in unicodeSegments(text, paragraph) { body(segment) }
    }

    /// An ASCII paragraph (most labels) is one segment, read from its bytes: letters are
    /// Latin and everything else is common to all scripts, so the whole paragraph takes
    /// Latin if it has a letter (common otherwise), and no ASCII character starts an emoji
    /// sequence without a non-ASCII one after it. Nil when the paragraph is not all ASCII.
    static func asciiSegment(_ text: UnsafeBufferPointer<UInt32>, _ paragraph: Range<Int>) -> Segment? {
        var hasLetter = false
        for position in paragraph {
            let value = text[position]
            guard value < 0x80 else { return nil }
            if isASCIILetter(value) { hasLetter = true }
        }
        guard !paragraph.isEmpty else { return nil }
        return Segment(range: paragraph, script: hasLetter ? HB_SCRIPT_LATIN : HB_SCRIPT_COMMON, isEmoji: false)
    }

    /// A to Z and a to z: the only ASCII characters not common to all scripts (Latin).
    static func isASCIILetter(_ value: UInt32) -> Bool {
        (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
    }

    /// The general way: each scalar's script and emoji flag.
    static func unicodeSegments(_ text: UnsafeBufferPointer<UInt32>, _ paragraph: Range<Int>) -> [Segment] {
        let unicode = hb_unicode_funcs_get_default()
        let count = paragraph.count
        var scripts = [hb_script_t?](repeating: nil, count: count)
        for offset in 0..<count {
            let script = hb_unicode_script(unicode, text[paragraph.lowerBound + offset])
            if script != HB_SCRIPT_COMMON, script != HB_SCRIPT_INHERITED, script != HB_SCRIPT_UNKNOWN { scripts[offset] = script }
        }
        let firstScript = scripts.lazy.compactMap { $0 }.first ?? HB_SCRIPT_COMMON
        let emoji = emojiFlags(text, paragraph)
        var segments: [Segment] = []
        var script = firstScript
        for offset in 0..<count {
            script = scripts[offset] ?? script
            let position = paragraph.lowerBound + offset
            if let last = segments.last, last.script == script, last.isEmoji == emoji[offset] {
                segments[segments.count - 1].range = last.range.lowerBound..<(position + 1)
            } else {
                segments.append(Segment(range: position..<(position + 1), script: script, isEmoji: emoji[offset]))
            }
        }
        return segments
    }

    /// Which scalars belong to emoji-presentation sequences: an emoji-presentation character,
    /// an emoji followed by VS16, a keycap, regional-indicator flags, and what modifiers,
    /// tags, VS16 and joiners attach to them.
    static func emojiFlags(_ text: UnsafeBufferPointer<UInt32>, _ paragraph: Range<Int>) -> [Bool] {
        var flags = [Bool](repeating: false, count: paragraph.count)
        var inSequence = false
        var afterJoiner = false
        for offset in 0..<paragraph.count {
            let value = text[paragraph.lowerBound + offset]
            let next = offset + 1 < paragraph.count ? text[paragraph.lowerBound + offset + 1] : 0
            let attaches = value == 0xFE0F || value == 0x200D || value == 0x20E3
                || (0x1F3FB...0x1F3FF).contains(value) || (0xE0020...0xE007F).contains(value)
            if inSequence && (attaches || afterJoiner) {
                flags[offset] = true
            } else if let scalar = Unicode.Scalar(value) {
                let properties = scalar.properties
                let starts = (properties.isEmojiPresentation && next != 0xFE0E)
                    || (properties.isEmoji && (next == 0xFE0F || next == 0x20E3))
                    || (0x1F1E6...0x1F1FF).contains(value)
                flags[offset] = starts
                inSequence = starts
            } else {
                inSequence = false
            }
            afterJoiner = value == 0x200D
        }
        return flags
    }
}
