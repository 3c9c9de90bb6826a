import Testing
@testable import NookCore

@Test func jsonParserReadsEveryValueKind() throws {
    let value = try JSONValue.parse(#" { "a": [1, -2.5e2, 0.125, true, false, null], "b": {"c": "x\"y\\z\n\u00e9\ud83d\ude00/"} } "#)
    #expect(value == .object([
        "a": .array([.number(1), .number(-250), .number(0.125), .bool(true), .bool(false), .null]),
        "b": .object(["c": .string("x\"y\\z\né😀/")]),
    ]))
    #expect(try JSONValue.parse("\"héllo\"") == .string("héllo"))
    #expect(try JSONValue.parse("[]") == .array([]))
}

/// Each row: a malformed document and the line and column the error must point at.
@Test func jsonErrorsPointAtLineAndColumn() {
    let cases: [(String, Int, Int)] = [
        ("{\n  \"a\": 01\n}", 2, 9),
        ("{\"a\": 1,}", 1, 9),
        ("[1 2]", 1, 4),
        ("\"abc", 1, 5),
        ("{\"a\": tru}", 1, 10),
        ("1 2", 1, 3),
        ("\"\\ud800\"", 1, 8),
        ("-", 1, 2),
        ("1.", 1, 3),
        ("1e999", 1, 6),
        ("\"a\nb\"", 1, 3),
        ("", 1, 1),
    ]
    var failures: [String] = []
    for (text, line, column) in cases {
        do {
            _ = try JSONValue.parse(text)
            failures.append("\(text.debugDescription): accepted")
        } catch {
            if error.line != line || error.column != column { failures.append("\(text.debugDescription): \(error)") }
        }
    }
    #expect(failures.isEmpty, "\(failures)")
}

@Test func jsonNestingBeyondLimitIsRefused() {
    let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
    #expect(throws: JSONParseError.self) { try JSONValue.parse(deep) }
    let fine = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
    #expect((try? JSONValue.parse(fine)) != nil)
}
