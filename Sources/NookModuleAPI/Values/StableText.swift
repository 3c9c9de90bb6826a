import NookCore
/// Turns values into strings that are the same in every run of the module.
///
/// `animation_value` only has to change when the watched value changes, and stay put when it
/// does not, including across a module restart (the broker compares the old and new string).
/// `hashValue` is seeded per process, so it cannot be used; a value's description can.
enum StableText {
    /// Longest description sent as is; longer ones are replaced by their hash.
    static let maxDescriptionBytes = 256

    /// `String(describing: value)`, or `h:<FNV-1a 64 in hex>` of it when it is longer than
    /// `maxDescriptionBytes`.
    ///
    /// Values whose description does not change with their contents (a class instance prints
    /// its type name) or whose order varies between runs (a `Set`) should be passed as
    /// something that does, such as an id or a count.
    static func of(_ value: some Hashable) -> String {
        let text = String(describing: value)
        guard text.utf8.count > maxDescriptionBytes else { return text }
        return "h:" + fnv1a(text)
    }

    /// The 64-bit FNV-1a hash of the UTF-8 bytes, as 16 lowercase hex digits.
    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// A shared element's id on the wire for any `Hashable` (`.twShared`): its description
    /// when that is a valid id (SPEC rule 1: ASCII letters, digits, `-`, `_`, `.`, 1 to 128
    /// characters), else a valid id made from it, the same in every run: the description's
    /// allowed characters (others as `_`, at most 40) and `.h` with its FNV-1a hash, so
    /// `"My Song"` is `My_Song.h1b3c...` and two descriptions that differ map apart.
    static func sharedID(_ value: some Hashable) -> String {
        let text = String(describing: value)
        if Identifier.isValid(text) { return text }
        let readable = String(text.unicodeScalars.prefix(40).map { scalar -> Character in
            scalar.isASCII && Identifier.isValid(String(scalar)) ? Character(scalar) : "_"
        })
        return readable + ".h" + fnv1a(text)
    }
}
