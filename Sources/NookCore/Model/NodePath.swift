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

    /// Appends `/<index>` to `path`. Layout builds a path for every node of every plan, so
    /// the usual child positions come ready-made rather than formatted each time.
    static func appendChild(_ index: Int, to path: inout String) {
        if index >= 0, index < childSuffixes.count {
            path.append(childSuffixes[index])
        } else {
            path.append("/")
            path.append(String(index))
        }
    }

    /// `/0` ... `/255`.
    private static let childSuffixes: [String] = (0..<256).map { "/" + String($0) }
}
