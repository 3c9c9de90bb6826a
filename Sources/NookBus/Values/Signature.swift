/// A D-Bus type signature (`s`, `a{sv}`, `(sa{sv}av)`), validated on construction.
///
/// Validation follows the D-Bus specification: at most 255 characters, every type complete,
/// dict entries only directly inside arrays with a basic key, no empty structs, nesting of
/// arrays and of structs each at most 32 deep.
public struct Signature: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public let rawValue: String

    public init(_ rawValue: String) throws(SignatureError) {
        if !Self.commonSingleTypes.contains(rawValue) { _ = try SignatureParser.completeTypes(in: rawValue) }
        self.rawValue = rawValue
    }

    /// Single complete types the contract uses all the time; known valid, so building or
    /// checking one never runs the parser (plans carry thousands of them).
    static let commonSingleTypes: Set<String> = [
        "y", "b", "n", "q", "i", "u", "x", "t", "d", "s", "o", "g", "h", "v",
        "av", "as", "ad", "ax", "at", "a{sv}", "aa{sv}", "a(ss)", "(dddd)", "(sa{sv}av)", "a{ss}",
    ]

    /// For literals written in code; an invalid literal is a programming error.
    public init(stringLiteral value: String) {
        do { try self.init(value) } catch { preconditionFailure("invalid signature literal '\(value)': \(error)") }
    }

    init(unchecked rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    /// The single complete types this signature is made of (`sa{sv}` -> `s`, `a{sv}`).
    public var completeTypes: [Signature] {
        (try? SignatureParser.completeTypes(in: rawValue))?.map { Signature(unchecked: $0) } ?? []
    }

    /// True when this is exactly one complete type.
    public var isSingleCompleteType: Bool { Self.commonSingleTypes.contains(rawValue) || completeTypes.count == 1 }

    public static let empty = Signature(unchecked: "")
}

public struct SignatureError: Error, Hashable, Sendable, CustomStringConvertible {
    public let signature: String
    public let reason: String
    public var description: String { "invalid D-Bus signature '\(signature)': \(reason)" }
}

/// Type codes, named as the specification names them.
public enum TypeCode {
    public static let basic: Set<Character> = ["y", "b", "n", "q", "i", "u", "x", "t", "d", "s", "o", "g", "h"]
}

enum SignatureParser {
    static let maxLength = 255
    static let maxDepth = 32

    static func completeTypes(in text: String) throws(SignatureError) -> [String] {
        guard text.utf8.count <= maxLength else {
            throw SignatureError(signature: text, reason: "longer than \(maxLength) characters")
        }
        let chars = Array(text)
        var index = 0
        var types: [String] = []
        while index < chars.count {
            let start = index
            try parseOne(chars, &index, arrayDepth: 0, structDepth: 0, text: text)
            types.append(String(chars[start..<index]))
        }
        return types
    }

    private static func parseOne(
        _ chars: [Character], _ index: inout Int, arrayDepth: Int, structDepth: Int, text: String
    ) throws(SignatureError) {
        guard index < chars.count else { throw SignatureError(signature: text, reason: "incomplete type at the end") }
        let code = chars[index]
        index += 1
        if TypeCode.basic.contains(code) || code == "v" { return }
        switch code {
        case "a":
            guard arrayDepth < maxDepth else { throw SignatureError(signature: text, reason: "arrays nested deeper than \(maxDepth)") }
            guard index < chars.count else { throw SignatureError(signature: text, reason: "array without an element type") }
            if chars[index] == "{" {
                index += 1
                guard index < chars.count, TypeCode.basic.contains(chars[index]) else {
                    throw SignatureError(signature: text, reason: "dict entry key must be a basic type")
                }
                index += 1
                try parseOne(chars, &index, arrayDepth: arrayDepth + 1, structDepth: structDepth, text: text)
                guard index < chars.count, chars[index] == "}" else {
                    throw SignatureError(signature: text, reason: "dict entry must hold exactly a key and a value")
                }
                index += 1
            } else {
                try parseOne(chars, &index, arrayDepth: arrayDepth + 1, structDepth: structDepth, text: text)
            }
        case "(":
            guard structDepth < maxDepth else { throw SignatureError(signature: text, reason: "structs nested deeper than \(maxDepth)") }
            guard index < chars.count, chars[index] != ")" else { throw SignatureError(signature: text, reason: "empty struct") }
            while index < chars.count, chars[index] != ")" {
                try parseOne(chars, &index, arrayDepth: arrayDepth, structDepth: structDepth + 1, text: text)
            }
            guard index < chars.count else { throw SignatureError(signature: text, reason: "unclosed struct") }
            index += 1
        case "{":
            throw SignatureError(signature: text, reason: "dict entry outside an array")
        default:
            throw SignatureError(signature: text, reason: "unknown type code '\(code)'")
        }
    }
}
