import Testing
@testable import NookCore

@Test func diagnosticWireFormHasContractKeysAndPathWhenKnown() {
    let located = Diagnostic(.missingGroup, .warning, "no group", path: "expanded/0.classes", module: "music", id: "cover")
    // Contract 1.1: a diagnostic about an element also carries `element` and `activity`
    // ("" for a module-level view); `id` stays for v1 clients.
    #expect(located.wireDictionary == [
        "code": .string("missing-group"), "severity": .string("warning"), "message": .string("no group"),
        "module": .string("music"), "id": .string("cover"), "path": .string("expanded/0.classes"),
        "element": .string("cover"), "activity": .string(""),
    ])
    let inActivity = Diagnostic(.noCounterpart, .info, "m", path: "compact_leading", module: "music", activity: "song", id: "cover")
    #expect(inActivity.wireDictionary["element"] == .string("cover") && inActivity.wireDictionary["activity"] == .string("song"))
    let plain = Diagnostic(.idSuffixed, .info, "m").wireDictionary
    #expect(plain["path"] == nil && plain["element"] == nil && plain["activity"] == nil)
}

@Test func rule1_idsAreAsciiLettersDigitsDashUnderscoreDotOneTo128Characters() {
    let valid = ["a", "cover", "timer.a1", "A-Z_0.9", String(repeating: "x", count: 128)]
    let invalid = ["", "my cover", "co$ver", "é", "a/b", "a:b", "[x]", String(repeating: "x", count: 129)]
    #expect(valid.filter { !Identifier.isValid($0) }.isEmpty)
    #expect(invalid.filter { Identifier.isValid($0) }.isEmpty)
    #expect(invalid.allSatisfy { Identifier.problem($0) != nil })
    #expect(valid.allSatisfy { Identifier.problem($0) == nil })
}
