import NookCore
@testable import NookText
import Testing

/// A font set picks the face of an ASCII character from a table built once, and an ASCII
/// segment whose characters pick one face is one run without building items; both must give
/// what the general way gives.
@Suite struct FontSetTests {
    static func sets(_ state: FontState) -> [FontSet] {
        [Theme.defaultFontFamily, "emoji", "Monospace", "Serif"].flatMap { family in
            [300, 400, 700].flatMap { weight in ["en", "ja", "ar", "c"].map { state.fonts(family: family, weight: weight, language: $0) } }
        }.filter { !$0.faces.isEmpty }
    }

    @Test func asciiCharactersTakeTheFaceTheirCharsetsGive() {
        let state = FontState(family: Theme.defaultFontFamily, cacheCapacity: 2)
        for fonts in Self.sets(state) {
            for value in UInt32(0)..<0x80 {
                #expect(fonts.face(for: value) == FontSet.firstFace(having: value, in: fonts.faces), "\(fonts.faces.first?.file ?? "") U+\(String(value, radix: 16))")
            }
        }
    }

    /// Random ASCII segments (and some with one non-ASCII character), in every set: the sole
    /// face is what `collectItems` gives when it makes one item, and there is none when it
    /// makes more (or the segment is not ASCII).
    @Test func anASCIISegmentOfOneFaceIsTheOneItemCollectItemsMakes() {
        let state = FontState(family: Theme.defaultFontFamily, cacheCapacity: 2)
        var random = SystemRandomNumberGenerator()
        var segments: [[UInt32]] = ["", " ", "  ", "track 1", "#1*", "a 1", "1 a", "  x", "x  ", "\t\u{7F}"].map { $0.unicodeScalars.map(\.value) }
        for _ in 0..<400 {
            var segment = (0..<Int.random(in: 1...12, using: &random)).map { _ in UInt32.random(in: 0..<0x80, using: &random) }
            if Int.random(in: 0..<10, using: &random) == 0 { segment[Int.random(in: 0..<segment.count, using: &random)] = 0xE9 }
            segments.append(segment)
        }
        var oneFace = 0
        var several = 0
        for fonts in Self.sets(state) {
            for segment in segments {
                segment.withUnsafeBufferPointer { text in
                    var items: [FontState.Item] = []
                    FontState.collectItems(text, 0..<text.count, in: fonts, into: &items)
                    let sole = FontState.soleASCIIFace(text, 0..<text.count, in: fonts)
                    if segment.allSatisfy({ $0 < 0x80 }), items.count <= 1 {
                        let general = items.first?.face ?? fonts.face(for: 0x20)
                        #expect(sole == general, "\(segment)")
                        oneFace += 1
                    } else {
                        #expect(sole == nil, "\(segment)")
                        several += 1
                    }
                }
            }
        }
        #expect(oneFace > 0 && several > 0)
    }
}
