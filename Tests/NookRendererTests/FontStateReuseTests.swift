import NookCore
@testable import NookText
import Testing

/// A measurer keeps what it found between strings (font sets and which font each ASCII
/// character takes, HarfBuzz fonts, one HarfBuzz buffer, scratch arrays); none of it may
/// change a measurement: a measurer that has measured many strings gives, bit for bit, what
/// a new one gives.
@Suite struct FontStateReuseTests {
    /// Random strings mixing ASCII, accents, kana, Han, Arabic, Cyrillic, emoji (with joiners,
    /// variation selectors and modifiers), combining marks, unusual spaces and line breaks.
    static func randomStrings(_ count: Int) -> [String] {
        let pools: [[UInt32]] = [
            Array(0x20...0x7E), [0x20, 0x0A, 0x0D, 0x09, 0x7F], Array(0xC0...0x17F), Array(0x3040...0x30FF), Array(0x4E00...0x4E80),
            Array(0x0627...0x064A), [0x1F345, 0x1F389, 0x2615, 0x1F44D, 0x1F3FB, 0xFE0F, 0xFE0E, 0x200D, 0x20E3, 0x1F1E6, 0x1F1EF],
            Array(0x0300...0x036F), [0x00A0, 0x2009, 0x3000, 0x1680, 0x200B, 0x2028], Array(0x0410...0x044F),
        ]
        var random = SystemRandomNumberGenerator()
        return (0..<count).map { _ in
            let main = pools.randomElement(using: &random)!
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...14, using: &random) {
                let pool = Bool.random(using: &random) ? main : pools.randomElement(using: &random)!
                scalars.append(Unicode.Scalar(pool.randomElement(using: &random)!)!)
            }
            return String(scalars)
        }
    }

    @Test func aWarmMeasurerMeasuresAsANewOne() {
        var strings = ["", " ", "\n", "track 1", "track 22", "Morning Tide", "  lead", "trail  ", "a\r\nb", "12:34", "Mix 東京 Night", "🍅 Focus"]
        strings += Self.randomStrings(150)
        // Capacity 2: the warm measurer measures nearly every string again instead of
        // remembering it.
        let warm = FontTextMeasurer(family: Theme.defaultFontFamily, cacheCapacity: 2)
        for text in Self.randomStrings(300) { _ = warm.measure(text, in: TextFont(size: 13)) }
        for (index, text) in strings.enumerated() {
            let font = TextFont(size: 13, weight: [300, 400, 600, 700][index % 4], monospacedDigits: index % 3 == 0)
            let fresh = FontTextMeasurer(family: Theme.defaultFontFamily, cacheCapacity: 2).measure(text, in: font)
            #expect(warm.measure(text, in: font) == fresh, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }
}
