/// A text node's characters, measured once, ready to be wrapped at any width.
///
/// Wrapping is greedy: words (runs of non-space characters) fill a line while they fit; a
/// word wider than the line is broken between characters; every line holds at least one
/// character; `\n` always starts a new line. Spaces at the end of a line take no room.
/// Lines that do not fit a finite proposed height are cut (the renderer truncates), but a text
/// always keeps at least one line.
struct TextRun: Sendable {
    /// A word and the spaces that follow it.
    struct Word: Sendable {
        var width: Double
        var trailingSpace: Double
        /// Range of the word's characters in `advances`.
        var start: Int
        var end: Int
        /// The word ends its paragraph (a `\n` or the end of the text follows).
        var endsParagraph: Bool
    }

    var words: [Word] = []
    var advances: [Double] = []
    let lineHeight: Double
    /// Width of the longest paragraph on one line.
    let idealWidth: Double
    let paragraphCount: Int

    init(text: String, fontSize: Double, weight: String?, monospacedDigits: Bool) {
        let weightFactor = TextMetrics.weightFactor(weight)
        lineHeight = fontSize * TextMetrics.lineHeightFactor
        var current: Word? = nil
        var paragraphs = 1
        for character in text {
            if character == "\n" || character == "\r\n" {
                if var word = current {
                    word.endsParagraph = true
                    words.append(word)
                } else if var last = words.last, !last.endsParagraph {
                    last.endsParagraph = true
                    words[words.count - 1] = last
                } else {
                    // An empty paragraph still takes a line.
                    words.append(Word(width: 0, trailingSpace: 0, start: advances.count, end: advances.count, endsParagraph: true))
                }
                current = nil
                paragraphs += 1
                continue
            }
            let advance = fontSize * TextMetrics.advanceFactor(of: character, weight: weightFactor, monospacedDigits: monospacedDigits)
            if character == " " || character == "\t" {
                if var word = current {
                    word.trailingSpace += advance
                    current = word
                } else {
                    // Leading spaces: an empty word that only carries space.
                    current = Word(width: 0, trailingSpace: advance, start: advances.count, end: advances.count, endsParagraph: false)
                }
                continue
            }
            if var word = current, word.trailingSpace == 0 {
                word.width += advance
                word.end += 1
                current = word
            } else {
                if let word = current { words.append(word) }
                current = Word(width: advance, trailingSpace: 0, start: advances.count, end: advances.count + 1, endsParagraph: false)
            }
            advances.append(advance)
        }
        if var word = current {
            word.endsParagraph = true
            words.append(word)
        } else if var last = words.last, !last.endsParagraph {
            last.endsParagraph = true
            words[words.count - 1] = last
        }
        paragraphCount = paragraphs
        var widest = 0.0
        var line = 0.0
        var pendingSpace = 0.0
        for word in words {
            line += pendingSpace + word.width
            pendingSpace = word.trailingSpace
            if word.endsParagraph {
                widest = max(widest, line)
                line = 0
                pendingSpace = 0
            }
        }
        idealWidth = max(widest, line)
    }

    /// The text's size when offered `proposal`.
    func size(for proposal: ProposedSize) -> Size {
        var lines = paragraphCount
        var width = idealWidth
        if let limit = proposal.width, limit < idealWidth - Geometry.epsilon {
            (lines, width) = wrap(at: limit)
        }
        if let height = proposal.height, height.isFinite, lineHeight > 0 {
            let fitting = max(1, Int((height + Geometry.epsilon) / lineHeight))
            lines = min(lines, fitting)
        }
        return Size(width: width, height: Double(lines) * lineHeight)
    }

    /// Greedy wrapping at `limit`: the number of lines and the widest line.
    private func wrap(at limit: Double) -> (lines: Int, width: Double) {
        let fits = limit + Geometry.epsilon
        var lines = 1
        var widest = 0.0
        var line = 0.0
        var lineHasContent = false
        var pendingSpace = 0.0
        for (offset, word) in words.enumerated() {
            if lineHasContent, line + pendingSpace + word.width > fits {
                widest = max(widest, line)
                lines += 1
                line = 0
                lineHasContent = false
            }
            if lineHasContent {
                line += pendingSpace + word.width
            } else if word.width > fits {
                // Too long for any line: break it between characters.
                for index in word.start..<word.end {
                    let advance = advances[index]
                    if lineHasContent, line + advance > fits {
                        widest = max(widest, line)
                        lines += 1
                        line = 0
                    }
                    line += advance
                    lineHasContent = true
                }
            } else {
                line = word.width
                lineHasContent = word.end > word.start
            }
            pendingSpace = word.trailingSpace
            if word.endsParagraph, offset < words.count - 1 {
                widest = max(widest, line)
                lines += 1
                line = 0
                lineHasContent = false
                pendingSpace = 0
            }
        }
        return (lines, max(widest, line))
    }
}
