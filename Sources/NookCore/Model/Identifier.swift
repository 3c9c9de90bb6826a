/// The one rule for ids, group names, caller namespaces and identities (SPEC rule 1).
///
/// ASCII letters, digits, `-`, `_` and `.` only, 1 to 128 characters. Keeping the check in one
/// place means the D-Bus layer, the class parser and validation refuse exactly the same strings.
public enum Identifier {
    /// The longest id the contract allows, in characters (all ASCII, so also bytes).
    public static let maxLength = 128

    /// True when `text` is a valid id or group name.
    // Inlinable, so callers in other modules get it specialized for their string type: through
    // `StringProtocol`'s witnesses a four-letter id took about 1,500 instructions.
    @inlinable
    public static func isValid<S: StringProtocol>(_ text: S) -> Bool {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= maxLength else { return false }
        return utf8.allSatisfy(isAllowed)
    }

    /// Why `text` is not a valid id, or nil when it is. Used to build error messages.
    @inlinable
    public static func problem<S: StringProtocol>(_ text: S) -> String? {
        if isValid(text) { return nil }
        let utf8 = text.utf8
        if utf8.isEmpty { return "is empty" }
        if utf8.count > maxLength { return "is \(utf8.count) bytes long (at most \(maxLength))" }
        if let bad = text.unicodeScalars.first(where: { !$0.isASCII || !isAllowed(UInt8($0.value)) }) {
            return "contains \(describe(bad)) (allowed: ASCII letters, digits, '-', '_', '.')"
        }
        return nil
    }

    @usableFromInline
    static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            true
        default:
            false
        }
    }

    @usableFromInline
    static func describe(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case " ": "a space"
        case "\t": "a tab"
        case "\n": "a newline"
        default: "'\(Character(scalar))'"
        }
    }
}
