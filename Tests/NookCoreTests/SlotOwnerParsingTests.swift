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
