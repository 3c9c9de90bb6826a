/// Byte-level helpers for class strings that are pure ASCII, where every byte is one
/// `Character`, so comparing bytes gives exactly what comparing characters would, without
/// grapheme breaking.
///
/// Each helper reads the bytes through one contiguous buffer when the string has one (native
/// strings always do): stepping `Substring.UTF8View` indices one byte at a time costs several
/// times more, and class strings are parsed for every node that has one, on every plan.
enum ClassBytes {
    static func isASCII(_ text: Substring) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { bytes in bytes.allSatisfy { $0 < 0x80 } }
            ?? text.utf8.allSatisfy { $0 < 0x80 }
    }

    /// The ASCII bytes `Character.isWhitespace` accepts: tab, line feed, vertical tab, form
    /// feed, carriage return and space (Unicode `White_Space`).
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }

    /// The index of the first `byte` in `text`, found in its contiguous bytes (the generic
    /// search over `Substring.UTF8View` steps indices one at a time).
    static func firstIndex(of byte: UInt8, in text: Substring) -> Substring.Index? {
        let utf8 = text.utf8
        guard let offset = utf8.withContiguousStorageIfAvailable({ $0.firstIndex(of: byte) }) else { return utf8.firstIndex(of: byte) }
        return offset.map { utf8.index(utf8.startIndex, offsetBy: $0) }
    }

    /// `bytes` start with the ASCII `prefix`.
    static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
        bytes.count >= prefix.utf8CodeUnitCount && memoryEquals(bytes.baseAddress, prefix.utf8Start, prefix.utf8CodeUnitCount)
    }

    /// `bytes` are the ASCII `word`.
    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        bytes.count == word.utf8CodeUnitCount && hasPrefix(bytes, word)
    }

    /// The first `count` bytes at `a` and `b` are equal (`a` may be nil only when `count` is 0).
    private static func memoryEquals(_ a: UnsafePointer<UInt8>?, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        guard count > 0 else { return true }
        guard let a else { return false }
        for offset in 0..<count where a[offset] != b[offset] { return false }
        return true
    }
}
