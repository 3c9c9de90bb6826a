import Testing
@testable import NookCore

/// `SharedKey` keeps its key's hash value: equality and hashing must still be the string's.
@Suite struct SharedKeyTests {
    @Test func equalKeysHashAlikeAndDifferentOnesDiffer() {
        let a = SharedKey(.group, "demo/card/expanded/group#0/icon1")
        #expect(a == SharedKey(.group, "demo/card/expanded/group#0/" + "icon1"))
        #expect(a.hashValue == SharedKey(.group, "demo/card/expanded/group#0/" + "icon1").hashValue)
        #expect(a != SharedKey(.group, "demo/card/expanded/group#0/icon2"))
        #expect(a != SharedKey(.custom, "demo/card/expanded/group#0/icon1"))
        // Canonically equivalent spellings are equal strings, so equal keys with equal hashes.
        let composed = SharedKey(.nook, "m/caf\u{E9}")
        let decomposed = SharedKey(.nook, "m/cafe\u{301}")
        #expect(composed == decomposed)
        #expect(composed.hashValue == decomposed.hashValue)
    }

    @Test func settingTheKeyChangesWhatItEqualsAndFindsInADictionary() {
        var key = SharedKey(.nook, "music/cover")
        let table = [SharedKey(.nook, "music/timer"): 1]
        #expect(table[key] == nil)
        key.key = "music/timer"
        #expect(key.key == "music/timer")
        #expect(key == SharedKey(.nook, "music/timer"))
        #expect(table[key] == 1)
        #expect(key.description == "nook:music/timer")
    }
}
