/// The text nodes of one layout pass, each measured once, ready to be wrapped at any width.
///
/// All texts share two flat arrays (words, and per-scalar advances for breaking long words),
/// so measuring a tree costs no allocation per text node. A word whose characters all have
/// one advance (most ASCII words: all letters, or all digits) stores that advance instead.
///
/// Wrapping is greedy: words (runs of non-space characters) fill a line while they fit; a
/// word wider than the line is broken between characters; every line holds at least one
/// character; `\n` always starts a new line. Spaces at the end of a line take no room.
/// Lines that do not fit a finite proposed height, or beyond the text's `line_limit`, are cut
/// (the renderer ellipsizes), but a text always keeps at least one line.
struct TextStore {
    /// A word and the spaces that follow it.
    struct Word {
        var width: Double
        var trailingSpace: Double
        /// Range of the word's scalars: in `advances` unless `uniformAdvance` is a number.
        var start: Int
        var end: Int
        /// The advance of every scalar of the word when they are all alike (its advances
        /// are then not stored); NaN when they are in `advances`.
        var uniformAdvance: Double = .nan
        /// The word ends its paragraph (a `\n` or the end of the text follows).
        var endsParagraph: Bool
    }

    struct Run {
        var firstWord: Int
        var endWord: Int
        var lineHeight: Double
        /// Width of the longest paragraph on one line.
        var idealWidth: Double
        var paragraphCount: Int
        /// At most this many lines (`line_limit`); `Int.max` without one.
        var maxLines = Int.max
        /// The last wrap worked out (`size` asks again for each height a width is probed at).
        var wrapLimit = Double.nan
        var wrapLines = 0
        var wrapWidth = 0.0
    }

    private var words: [Word] = []
    private var advances: [Double] = []
    private var runs: [Run] = []

    /// Reserves room for `texts` texts of about `scalars` scalars in all, so a large tree's
    /// arrays are allocated once rather than regrown (and copied) as they fill.
    /// `measured`: the texts come with a measurer's advances, which are all stored.
    mutating func reserve(texts: Int, scalars: Int, measured: Bool = false) {
        // Estimated text leaves `advances` to grow: only words with unlike advances
        // (non-ASCII text, or digits next to letters) store any.
        runs.reserveCapacity(texts)
        words.reserveCapacity(texts + scalars / 4)
        if measured, scalars > 0 { advances.reserveCapacity(scalars) }
    }

    /// Measures `text` once and returns its run's index: with `measurer`'s advances and line
    /// height, or (nil) with `TextMetrics`' estimate.
    mutating func add(
        text: String, fontSize: Double, weight: String?, monospacedDigits: Bool, lineLimit: Int? = nil, measurer: (any TextMeasurer)? = nil
    ) -> Int {
        let measured = measurer?.measure(
            text, in: TextFont(size: fontSize, weight: TextFont.cssWeight(weight), monospacedDigits: monospacedDigits))
        return add(text: text, fontSize: fontSize, weight: weight, monospacedDigits: monospacedDigits, lineLimit: lineLimit, measured: measured)
    }

    /// `add` with the measurer's answer already in hand (nil: the estimate). Layout calls this
    /// directly when it has no measurer, so no optional existential is copied per text.
    /// `readsASCIIBytes: false` (tests only) walks measured ASCII text by scalars, the general
    /// way the byte shortcut is checked against.
    mutating func add(
        text: String, fontSize: Double, weight: String?, monospacedDigits: Bool, lineLimit: Int? = nil, measured: MeasuredText?,
        readsASCIIBytes: Bool = true
    ) -> Int {
        let weightFactor = TextMetrics.weightFactor(weight)
        var scalarIndex = -1
        let firstWord = words.count
        var current: Word? = nil
        var paragraphs = 1
        var joinsPrevious = false

        // ASCII text (most of it) is read as bytes: each is a scalar, none joins another, and
        // decoding scalars costs more than measuring them.
        let tookBytes = measured == nil && text.utf8.withContiguousStorageIfAvailable { bytes in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return false }
            takeASCII(
                bytes, space: fontSize * TextMetrics.spaceFactor,
                digit: fontSize * (monospacedDigits ? TextMetrics.monospacedDigitFactor : weightFactor),
                other: fontSize * weightFactor, current: &current, paragraphs: &paragraphs)
            return true
        } == true
        // Measured ASCII text: each byte is a scalar, so byte `i` takes advance `i`, as the
        // scalar walk below would give it (without decoding scalars).
        let tookMeasuredBytes = readsASCIIBytes && !tookBytes && measured != nil && text.utf8.withContiguousStorageIfAvailable { bytes in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return false }
            measured!.advances.withUnsafeBufferPointer { given in
                for index in bytes.indices {
                    let byte = bytes[index]
                    let advance = byte == 0x0A || byte == 0x0D || index >= given.count ? 0 : Self.length(given[index])
                    take(UInt32(byte), &current, &paragraphs, firstWord: firstWord, advance: advance)
                }
            }
            return true
        } == true
        // Unicode scalars rather than Characters: grapheme breaking costs more than the whole
        // rest of layout, and the metric model gives joined and combining scalars no room.
        if !tookBytes, !tookMeasuredBytes {
            for scalar in text.unicodeScalars {
                let value = scalar.value
                scalarIndex += 1
                var advance = 0.0
                if value == 0x0A {
                    joinsPrevious = false
                } else if value != 0x0D {
                    if let measured {
                        advance = scalarIndex < measured.advances.count ? Self.length(measured.advances[scalarIndex]) : 0
                    } else {
                        let factor = joinsPrevious ? 0 : TextMetrics.advanceFactor(of: scalar, weight: weightFactor, monospacedDigits: monospacedDigits)
                        joinsPrevious = value == 0x200D
                        advance = fontSize * factor
                    }
                }
                take(value, &current, &paragraphs, firstWord: firstWord, advance: advance)
            }
        }
        if var word = current {
            word.endsParagraph = true
            words.append(word)
        } else if words.count > firstWord, !words[words.count - 1].endsParagraph {
            words[words.count - 1].endsParagraph = true
        }

        var widest = 0.0
        var line = 0.0
        var pendingSpace = 0.0
        for index in firstWord..<words.count {
            let word = words[index]
            line += pendingSpace + word.width
            pendingSpace = word.trailingSpace
            if word.endsParagraph {
                widest = max(widest, line)
                line = 0
                pendingSpace = 0
            }
        }
        let lineHeight = measured.map { Self.length($0.lineHeight) } ?? fontSize * TextMetrics.lineHeightFactor
        runs.append(Run(
            firstWord: firstWord, endWord: words.count, lineHeight: lineHeight,
            idealWidth: max(widest, line), paragraphCount: paragraphs, maxLines: max(1, lineLimit ?? .max)))
        return runs.count - 1
    }

    /// `take` for every byte of a whole ASCII text (each byte a scalar, none joining another),
    /// with the estimate's three advances. A word's advances are stored only once it holds
    /// two different ones (a digit and a letter); words are appended once finished.
    private mutating func takeASCII(
        _ bytes: UnsafeBufferPointer<UInt8>, space: Double, digit: Double, other: Double,
        current: inout Word?, paragraphs: inout Int
    ) {
        let firstWord = words.count
        var word = Word(width: 0, trailingSpace: 0, start: 0, end: 0, endsParagraph: false)
        var hasWord = false
        for byte in bytes {
            switch byte {
            case 0x0A:
                endParagraph(hasWord ? word : nil, firstWord: firstWord)
                hasWord = false
                paragraphs += 1
            case 0x0D:
                continue
            case 0x20, 0x09:
                if hasWord {
                    word.trailingSpace += space
                } else {
                    // Leading spaces: an empty word that only carries space.
                    word = Word(width: 0, trailingSpace: space, start: advances.count, end: advances.count, endsParagraph: false)
                    hasWord = true
                }
            default:
                let advance = byte >= 0x30 && byte <= 0x39 ? digit : other
                if hasWord, word.trailingSpace == 0 {
                    // Equal to a number: one more alike advance, nothing to store.
                    if advance != word.uniformAdvance {
                        if !word.uniformAdvance.isNaN {
                            // The first different advance: the alike ones before it are stored now.
                            for _ in word.start..<word.end { advances.append(word.uniformAdvance) }
                            word.uniformAdvance = .nan
                        }
                        advances.append(advance)
                    }
                    word.width += advance
                    word.end += 1
                } else {
                    if hasWord { words.append(word) }
                    // No advance stored yet: the word starts with all its advances alike.
                    let at = advances.count
                    word = Word(width: advance, trailingSpace: 0, start: at, end: at + 1, uniformAdvance: advance, endsParagraph: false)
                    hasWord = true
                }
            }
        }
        current = hasWord ? word : nil
    }

    /// A line break: the word being built (if any) ends the paragraph, else the text's last
    /// word does, and an empty paragraph gets an empty word, as it still takes a line.
    @inline(__always)
    private mutating func endParagraph(_ word: Word?, firstWord: Int) {
        if var word {
            word.endsParagraph = true
            words.append(word)
        } else if words.count > firstWord, !words[words.count - 1].endsParagraph {
            words[words.count - 1].endsParagraph = true
        } else {
            words.append(Word(width: 0, trailingSpace: 0, start: advances.count, end: advances.count, endsParagraph: true))
        }
    }

    /// Takes one scalar with its advance (unused for `\n` and `\r`) into the words of the
    /// text being added: `current` is the word being built, the text's words start at
    /// `firstWord`.
    private mutating func take(_ value: UInt32, _ current: inout Word?, _ paragraphs: inout Int, firstWord: Int, advance: Double) {
        if value == 0x0A {
            endParagraph(current, firstWord: firstWord)
            current = nil
            paragraphs += 1
            return
        }
        if value == 0x0D { return }
        if value == 0x20 || value == 0x09 {
            if current != nil {
                current!.trailingSpace += advance
            } else {
                // Leading spaces: an empty word that only carries space.
                current = Word(width: 0, trailingSpace: advance, start: advances.count, end: advances.count, endsParagraph: false)
            }
            return
        }
        if current != nil, current!.trailingSpace == 0 {
            current!.width += advance
            current!.end += 1
        } else {
            if let word = current { words.append(word) }
            current = Word(width: advance, trailingSpace: 0, start: advances.count, end: advances.count + 1, endsParagraph: false)
        }
        advances.append(advance)
    }

    /// A measurer's number as a length: NaN, infinities and negatives (a measurer's bug) take
    /// no room rather than poison the layout; the bound keeps sums finite.
    static func length(_ value: Double) -> Double {
        value.isFinite ? min(max(value, 0), 1_000_000) : 0
    }

    /// The size of text `run` when offered `width` and `height` (negative: ideal).
    mutating func size(of run: Int, width: Double, height: Double) -> Size {
        let text = runs[run]
        var lines = text.paragraphCount
        var textWidth = text.idealWidth
        if width >= 0, width < text.idealWidth - Geometry.epsilon {
            if width == text.wrapLimit {
                (lines, textWidth) = (text.wrapLines, text.wrapWidth)
            } else {
                (lines, textWidth) = wrap(text, at: width)
                (runs[run].wrapLimit, runs[run].wrapLines, runs[run].wrapWidth) = (width, lines, textWidth)
            }
        }
        if lines > text.maxLines { lines = text.maxLines }
        if height >= 0, height.isFinite, text.lineHeight > 0 {
            // Compared as Doubles: a tall frame over tiny text is more lines than Int holds.
            let fitting = max(1, ((height + Geometry.epsilon) / text.lineHeight).rounded(.down))
            if fitting < Double(lines) { lines = Int(fitting) }
        }
        return Size(width: textWidth, height: Double(lines) * text.lineHeight)
    }

    /// The narrowest width offer at which text `run` keeps every paragraph on one line
    /// (`size` wraps only below it), so any offer at least this wide reads as ideal.
    func unwrappedWidth(run: Int) -> Double {
        runs[run].idealWidth - Geometry.epsilon
    }

    /// An offer to text `run` with what cannot change its size read as ideal (-1): a width
    /// it fits on one line per paragraph, and a height that is infinite or holds every line
    /// of unwrapped text. `size` gives the same answer for both.
    func reduced(run: Int, width: Double, height: Double) -> (width: Double, height: Double) {
        let text = runs[run]
        let wraps = width >= 0 && width < text.idealWidth - Geometry.epsilon
        guard !wraps else { return (width, height.isFinite ? height : -1) }
        guard height >= 0, height.isFinite, text.lineHeight > 0 else { return (-1, -1) }
        let fitting = max(1, ((height + Geometry.epsilon) / text.lineHeight).rounded(.down))
        return (-1, fitting < Double(min(text.paragraphCount, text.maxLines)) ? height : -1)
    }

    /// Greedy wrapping at `limit`: the number of lines and the widest line.
    private func wrap(_ text: Run, at limit: Double) -> (lines: Int, width: Double) {
        let fits = limit + Geometry.epsilon
        var lines = 1
        var widest = 0.0
        var line = 0.0
        var lineHasContent = false
        var pendingSpace = 0.0
        for index in text.firstWord..<text.endWord {
            let word = words[index]
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
                for scalar in word.start..<word.end {
                    let advance = word.uniformAdvance.isNaN ? advances[scalar] : word.uniformAdvance
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
            if word.endsParagraph, index < text.endWord - 1 {
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
