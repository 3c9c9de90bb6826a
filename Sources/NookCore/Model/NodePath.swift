/// The project-wide path format for nodes and props, in one place.
///
/// A slot's root node is the slot name (`expanded`); each child appends `/<index>`; a prop
/// appends `.<key>`, nested keys `.<key>` again: `expanded/0/2.shared.id`.
public enum NodePath {
    public static func child(_ parent: String, _ index: Int) -> String {
        var path = parent
        appendChild(index, to: &path)
        return path
    }

    /// The path `steps` (child positions) below `root`, written in one piece.
    static func descendant(of root: String, steps: some Collection<Int>) -> String {
        guard !steps.isEmpty else { return root }
        guard steps.allSatisfy({ $0 >= 0 }) else {
            var path = root
            for step in steps { path += "/" + String(step) }
            return path
        }
        return write(root, steps)
    }

    /// `parent` followed by `/<step>` for each of `steps` (all >= 0), written as bytes: a
    /// path of up to 15 bytes is then a small string, made without touching the heap, and a
    /// longer one takes one allocation (`String.append` costs several hundred instructions
    /// per step even for small strings).
    private static func write(_ parent: String, _ steps: some Collection<Int>) -> String {
        var parent = parent
        let parentCount = parent.utf8.count
        var total = parentCount
        for step in steps { total += 1 + digitCount(step) }
        return parent.withUTF8 { bytes in
            String(unsafeUninitializedCapacity: total) { buffer in
                for offset in 0..<parentCount { buffer[offset] = bytes[offset] }
                var at = parentCount
                for step in steps {
                    buffer[at] = UInt8(ascii: "/")
                    at += digitCount(step)
                    var value = step
                    var digit = at
                    repeat {
                        buffer[digit] = UInt8(ascii: "0") + UInt8(value % 10)
                        value /= 10
                        digit -= 1
                    } while value > 0
                    at += 1
                }
                return total
            }
        }
    }

    private static func digitCount(_ value: Int) -> Int {
        var digits = 1
        var rest = value / 10
        while rest > 0 { digits += 1; rest /= 10 }
        return digits
    }

    public static func prop(_ node: String, _ key: String) -> String { node + "." + key }

    /// The path of the node's parent, or nil for a slot's root. Only a last step that is a
    /// child position (`/` then decimal digits) is taken off: a repeating slot's root
    /// (`music/song:minimal`) holds its owner's `/`, and is still a root.
    public static func parent(of path: String) -> String? {
        let utf8 = path.utf8
        guard let slash = utf8.lastIndex(of: UInt8(ascii: "/")) else { return nil }
        let step = utf8[utf8.index(after: slash)...]
        guard !step.isEmpty, step.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return String(path[..<slash])
    }

    /// Appends `/<index>` to `path` (see `write`).
    static func appendChild(_ index: Int, to path: inout String) {
        guard index >= 0 else {
            path += "/" + String(index)
            return
        }
        path = write(path, CollectionOfOne(index))
    }
}
