import NookCore
@testable import NookText
import NookTestSupport
import Testing

/// The measurer takes a shortcut: an ASCII line of one face is measured from the string's
/// bytes (no scalars, segments or items). It must give, bit for bit, what the general way
/// gives.
@Suite struct FontMeasuringShortcutTests {
    /// Random strings, seeded: ASCII labels (letters, digits, punctuation, spaces, tabs,
    /// controls, line breaks), and ASCII mixed with accents, kana, Han, Arabic, Cyrillic,
    /// emoji (joiners, variation selectors, modifiers, keycaps, flags), combining marks and
    /// unusual spaces.
    static func randomStrings(_ count: Int, using random: inout SeededGenerator) -> [String] {
        let ascii = Array(UInt32(0x20)...0x7E)
        let pools: [[UInt32]] = [
            ascii, ascii + [0x09, 0x0A, 0x0D, 0x00, 0x1B, 0x7F], Array(0xC0...0x17F), Array(0x3040...0x30FF), Array(0x4E00...0x4E80),
            Array(0x0627...0x064A), [0x1F345, 0x1F389, 0x2615, 0x1F44D, 0x1F3FB, 0xFE0F, 0xFE0E, 0x200D, 0x20E3, 0x1F1E6, 0x1F1EF],
            Array(0x0300...0x036F), [0x00A0, 0x2009, 0x3000, 0x1680, 0x200B, 0x2028], Array(0x0410...0x044F),
        ]
        return (0..<count).map { index in
            // Half the strings are plain ASCII, the shortcut's case.
            let main = index % 2 == 0 ? pools[index % 4 == 0 ? 0 : 1] : pools[Int(random.next(upTo: UInt64(pools.count)))]
            var scalars = String.UnicodeScalarView()
            for _ in 0..<random.next(upTo: 24) {
                let pool = index % 2 == 0 || random.next(upTo: 2) == 0 ? main : pools[Int(random.next(upTo: UInt64(pools.count)))]
                scalars.append(Unicode.Scalar(pool[Int(random.next(upTo: UInt64(pool.count)))])!)
            }
            return String(scalars)
        }
    }

    static func bits(_ measured: MeasuredText) -> [UInt64] {
        measured.advances.map(\.bitPattern) + [measured.lineHeight.bitPattern]
    }

    @Test func shortcutsMeasureAsTheGeneralWayWithHBShape() {
        let seed = SeededGenerator.runSeed()
        var random = SeededGenerator(seed: seed)
        var strings = ["", " ", "\t", "\n", "track 0", "track 123", "Track 9", "12:34", "-- ", "fi fl ffi AV To", "a\r\nb", "trail  ", "é", "e\u{301}", "track 1\u{301}"]
        strings += Self.randomStrings(1_500, using: &random)
        let measurer = FontState(family: Theme.defaultFontFamily, cacheCapacity: 2)
        let reference = FontState(family: Theme.defaultFontFamily, cacheCapacity: 2)
        for (index, text) in strings.enumerated() {
            let weight = [400, 400, 700, 300, 600][index % 5]
            let monospacedDigits = index % 3 == 0
            let measured = measurer.measure(text, weight: weight, monospacedDigits: monospacedDigits)
            let expected = reference.measureAnyText(text, weight: weight, monospacedDigits: monospacedDigits)
            #expect(Self.bits(measured) == Self.bits(expected),
                    "\(text.unicodeScalars.map { String($0.value, radix: 16) }) weight \(weight), \(SeededGenerator.replay(seed))")
        }
    }

    /// The shortcut is taken for a label and passed for what it does not cover.
    @Test func theASCIILineShortcutTakesLabelsOnly() {
        let state = FontState(family: Theme.defaultFontFamily, cacheCapacity: 2)
        func shortcut(_ text: String) -> MeasuredText? {
            Array(text.utf8).withUnsafeBufferPointer { state.measureASCIILine($0, weight: 400, monospacedDigits: false) }
        }
        #expect(shortcut("track 123") != nil)
        #expect(shortcut("12:34") != nil)
        #expect(shortcut("") == nil)
        #expect(shortcut("a\nb") == nil)
        #expect(shortcut("a\rb") == nil)
        #expect(shortcut("caf\u{E9}") == nil)
    }
}
