import Testing
@testable import NookCore

@Test func diagnosticWireFormHasContractKeysAndPathWhenKnown() {
    let located = Diagnostic(.missingGroup, .warning, "no group", path: "expanded/0.classes", module: "music", id: "cover")
    #expect(located.wireDictionary == [
        "code": .string("missing-group"), "severity": .string("warning"), "message": .string("no group"),
        "module": .string("music"), "id": .string("cover"), "path": .string("expanded/0.classes"),
    ])
    #expect(Diagnostic(.idSuffixed, .info, "m").wireDictionary["path"] == nil)
}

@Test func rule1_idsAreAsciiLettersDigitsDashUnderscoreDotOneTo128Characters() {
    let valid = ["a", "cover", "timer.a1", "A-Z_0.9", String(repeating: "x", count: 128)]
    let invalid = ["", "my cover", "co$ver", "é", "a/b", "a:b", "[x]", String(repeating: "x", count: 129)]
    #expect(valid.filter { !Identifier.isValid($0) }.isEmpty)
    #expect(invalid.filter { Identifier.isValid($0) }.isEmpty)
    #expect(invalid.allSatisfy { Identifier.problem($0) != nil })
    #expect(valid.allSatisfy { Identifier.problem($0) == nil })
}
