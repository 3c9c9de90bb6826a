/// Short keys written in one piece. `a + "/" + b` allocates once per `+` and each
/// `String.append` costs several hundred instructions even for short strings; a group-scoped
/// key is written for every marked node of every plan.
enum KeyText {
    /// `head`, then the ASCII `separator`, then `tail`, written with one allocation (none when
    /// the result fits a small string).
    static func join(_ head: String, _ separator: UInt8, _ tail: String) -> String {
        // Native strings lend their bytes without a copy of the string.
        if let joined = head.utf8.withContiguousStorageIfAvailable({ headBytes in
            tail.utf8.withContiguousStorageIfAvailable { tailBytes in write(headBytes, separator, tailBytes) }
        }), let joined {
            return joined
        }
        var head = head
        var tail = tail
        return head.withUTF8 { headBytes in tail.withUTF8 { tailBytes in write(headBytes, separator, tailBytes) } }
    }

    private static func write(_ head: UnsafeBufferPointer<UInt8>, _ separator: UInt8, _ tail: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: head.count + 1 + tail.count) { buffer in
            let base = buffer.baseAddress!
            if let from = head.baseAddress, !head.isEmpty { base.initialize(from: from, count: head.count) }
            base[head.count] = separator
            if let from = tail.baseAddress, !tail.isEmpty { (base + head.count + 1).initialize(from: from, count: tail.count) }
            return head.count + 1 + tail.count
        }
    }

    /// `parts` one after another, written with one allocation.
    static func concatenate(_ parts: [String]) -> String {
        concatenate(parts, [])
    }

    /// `head`'s parts then `tail`'s, written with one allocation; `head + tail` would allocate
    /// an array first (a walk's key prefix is a stored list, the rest a literal on the stack).
    static func concatenate(_ head: [String], _ tail: [String]) -> String {
        var total = 0
        for part in head { total += part.utf8.count }
        for part in tail { total += part.utf8.count }
        guard total > 0 else { return "" }
        return String(unsafeUninitializedCapacity: total) { buffer in
            var at = 0
            for parts in [head, tail] {
                for var part in parts {
                    part.withUTF8 { bytes in
                        if let from = bytes.baseAddress, !bytes.isEmpty { (buffer.baseAddress! + at).initialize(from: from, count: bytes.count) }
                        at += bytes.count
                    }
                }
            }
            return total
        }
    }
}
