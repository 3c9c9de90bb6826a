/// Short keys written in one piece. `a + "/" + b` allocates once per `+` and each
/// `String.append` costs several hundred instructions even for short strings; a group-scoped
/// key is written for every marked node of every plan.
enum KeyText {
    /// `head`, then the ASCII `separator`, then `tail`, written with one allocation (none when
    /// the result fits a small string).
    static func join(_ head: String, _ separator: UInt8, _ tail: String) -> String {
        var head = head
        var tail = tail
        let headCount = head.utf8.count
        let tailCount = tail.utf8.count
        return head.withUTF8 { headBytes in
            tail.withUTF8 { tailBytes in
                String(unsafeUninitializedCapacity: headCount + 1 + tailCount) { buffer in
                    let base = buffer.baseAddress!
                    if let from = headBytes.baseAddress { base.initialize(from: from, count: headCount) }
                    base[headCount] = separator
                    if let from = tailBytes.baseAddress { (base + headCount + 1).initialize(from: from, count: tailCount) }
                    return headCount + 1 + tailCount
                }
            }
        }
    }

    /// `parts` one after another, written with one allocation.
    static func concatenate(_ parts: [String]) -> String {
        var total = 0
        for part in parts { total += part.utf8.count }
        guard total > 0 else { return "" }
        return String(unsafeUninitializedCapacity: total) { buffer in
            var at = 0
            for var part in parts {
                part.withUTF8 { bytes in
                    if let from = bytes.baseAddress, !bytes.isEmpty { (buffer.baseAddress! + at).initialize(from: from, count: bytes.count) }
                    at += bytes.count
                }
            }
            return total
        }
    }
}
