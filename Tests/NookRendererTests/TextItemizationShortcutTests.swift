import CFontText
@testable import NookText
import Testing

/// The broker measures ASCII text without asking Unicode tables per character; these shortcuts
/// must give what the general way gives, or the broker's widths drift from Pango's.
@Suite struct TextItemizationShortcutTests {
    /// Every ASCII value: whether it picks a font, and whether it is a space, as its general
    /// category says.
    @Test func asciiCharactersPickFontsAsTheirCategoriesSay() {
        for value in UInt32(0)..<0x80 {
            #expect(FontState.choosesFont(value) == FontState.choosesFontByCategory(value), "U+\(String(value, radix: 16))")
            #expect(FontState.isSpace(value) == FontState.isSpaceByCategory(value), "U+\(String(value, radix: 16))")
        }
    }

    /// ASCII paragraphs (each character alone, the edge cases, and random strings) itemize
    /// as one segment, exactly as the per-scalar itemizer splits them.
    @Test func asciiParagraphsItemizeAsTheGeneralItemizerDoes() {
        var paragraphs: [[UInt32]] = (UInt32(0)..<0x80).map { [$0] }
        paragraphs += ["", " ", "   x", "12:34", "track 7", "#1*", "-- ", "\t\u{7F}a", "Now Playing: Song (Live)"].map { $0.unicodeScalars.map(\.value) }
        var random = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let count = Int.random(in: 1...24, using: &random)
            paragraphs.append((0..<count).map { _ in UInt32.random(in: 0..<0x80, using: &random) })
        }
        for paragraph in paragraphs {
            paragraph.withUnsafeBufferPointer { text in
                let general = TextItemizer.unicodeSegments(text, 0..<text.count)
                let shortcut = TextItemizer.segments(text, 0..<text.count)
                #expect(shortcut.count == general.count, "\(paragraph)")
                for (a, b) in zip(shortcut, general) {
                    #expect(a.range == b.range && a.script == b.script && a.isEmoji == b.isEmoji, "\(paragraph)")
                }
            }
        }
    }

    /// A paragraph with one non-ASCII scalar goes the general way.
    @Test func aNonASCIIParagraphTakesTheGeneralItemizer() {
        let text: [UInt32] = "caf\u{E9}".unicodeScalars.map(\.value)
        text.withUnsafeBufferPointer { #expect(TextItemizer.asciiSegment($0, 0..<$0.count) == nil) }
    }
}
