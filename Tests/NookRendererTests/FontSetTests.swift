import NookCore
@testable import NookText
import Testing

/// A font set picks the face of an ASCII character from a table built once; the table must
/// pick what asking each face's charset picks.
@Suite struct FontSetTests {
    @Test func asciiCharactersTakeTheFaceTheirCharsetsGive() {
        let state = FontState(family: Theme.defaultFontFamily, cacheCapacity: 2)
        for family in [Theme.defaultFontFamily, "emoji", "Monospace", "Serif"] {
            for weight in [300, 400, 700] {
                for language in ["en", "ja", "ar", "zh-cn", "c"] {
                    let set = state.fonts(family: family, weight: weight, language: language)
                    guard !set.faces.isEmpty else { continue }
                    for value in UInt32(0)..<0x80 {
                        #expect(set.face(for: value) == FontSet.firstFace(having: value, in: set.faces), "\(family) \(weight) \(language) U+\(String(value, radix: 16))")
                    }
                }
            }
        }
    }
}
