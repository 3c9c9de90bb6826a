import NookTestSupport
import Testing
@testable import NookCore

/// `SlotOwner(parsing:)` reads ASCII owners by byte and others by `Character`; both give the
/// module before the first '/' and the activity after it.
@Suite struct SlotOwnerParsingTests {
    @Test(arguments: [
        ("music", "music", nil),
        ("music/song", "music", "song"),
        ("music/", "music", ""),
        ("/song", "", "song"),
        ("a/b/c", "a", "b/c"),
        ("müsic/sång", "müsic", "sång"),
        ("x/\u{301}y", "x/\u{301}y", nil),  // '/' with a combining accent is one character, not a slash
    ] as [(String, String, String?)])
    func theModuleIsBeforeTheFirstSlash(owner: String, module: String, activity: String?) {
        let parsed = SlotOwner(parsing: owner)
        #expect(parsed.module == module)
        #expect(parsed.activity == activity)
    }
}

/// The byte shortcut for ASCII owners against the `Character` search on seeded random owners.
@Suite struct SlotOwnerParsingShortcutTests {
    @Test func asciiOwnersParseAsTheirCharactersDo() {
        let seed = SeededGenerator.runSeed()
        var rng = SeededGenerator(seed: seed)
        let pieces = ["music", "song", "/", "//", "a", "9", "-", "_", ".", " ", "\r\n", "x/y", "", "ü", "\u{301}", "🎵"]
        var failures: [String] = []
        for _ in 0..<3_000 {
            let owner = (0..<Int.random(in: 0...6, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let parsed = SlotOwner(parsing: owner)
            let expected: SlotOwner
            if let slash = owner.firstIndex(of: "/") {
                expected = SlotOwner(module: String(owner[..<slash]), activity: String(owner[owner.index(after: slash)...]))
            } else {
                expected = SlotOwner(module: owner)
            }
            if parsed != expected { failures.append("\(owner.debugDescription): \(parsed) != \(expected)") }
        }
        #expect(failures.isEmpty, "\(SeededGenerator.replay(seed)): \(failures.prefix(5))")
    }
}
