import NookCore

// The Nook half of NookBus: contract values <-> D-Bus values.
//
// Decoding is structural: each D-Bus type becomes the `PropValue` of the same shape, and the
// one struct shape the contract gives a meaning to, `(sa{sv}av)`, becomes a view node. What
// a key *means* (which type `width` must have) is validation's business, in NookCore.

extension PropValue {
    /// Reads any D-Bus value as a prop value, naming `path` (and the path below it) when a part
    /// of it cannot be a prop.
    ///
    /// Integers keep their sign (`y q u t` -> `.uint`, `n i x` -> `.int`), `o` and `g` read as
    /// strings, variants are unwrapped, `a{s*}` becomes a dictionary, `(sa{sv}av)` a node and
    /// any other struct a structure. Refused: file descriptors, dictionaries keyed by anything
    /// but strings, and a key that appears twice in one dictionary.
    public init(wire value: DBusValue, at path: String) throws(WireDecodingError) {
        switch value {
        case .byte(let v): self = .uint(UInt64(v))
        case .bool(let v): self = .bool(v)
        case .int16(let v): self = .int(Int64(v))
        case .uint16(let v): self = .uint(UInt64(v))
        case .int32(let v): self = .int(Int64(v))
        case .uint32(let v): self = .uint(UInt64(v))
        case .int64(let v): self = .int(v)
        case .uint64(let v): self = .uint(v)
        case .double(let v): self = .double(v)
        case .string(let v): self = .string(v)
        case .objectPath(let v): self = .string(v.rawValue)
        case .signature(let v): self = .string(v.rawValue)
        case .unixFD:
            throw WireDecodingError(path: path, message: "a file descriptor (type h) cannot be a prop")
        case .variant(let inner):
            self = try PropValue(wire: inner, at: path)
        case .array(_, let items):
            var out: [PropValue] = []
            out.reserveCapacity(items.count)
            for (index, item) in items.enumerated() {
                out.append(try PropValue(wire: item, at: NodePath.prop(path, String(index))))
            }
            self = .array(out)
        case .dictionary:
            self = .dictionary(try WireCodec.dictionary(value, at: path))
        case .structure(let fields):
            if RawNode.hasNodeShape(value) {
                self = .node(try RawNode(wire: value, at: path))
            } else {
                var out: [PropValue] = []
                out.reserveCapacity(fields.count)
                for (index, field) in fields.enumerated() {
                    out.append(try PropValue(wire: field, at: NodePath.prop(path, String(index))))
                }
                self = .structure(out)
            }
        }
    }

    /// The D-Bus form of this value: `b x t d s` for scalars, `a{sv}` (keys sorted) for a
    /// dictionary, a struct for a structure, `(sa{sv}av)` for a node. An array whose items all
    /// have one type is typed (`ad`, `aa{sv}`, `a(ss)`); an empty or mixed one is `av`.
    ///
    /// Reading the result back with `init(wire:at:)` gives this value again. (An empty
    /// structure, which decoding never produces and D-Bus cannot carry, becomes an empty `av`.)
    public var wireValue: DBusValue {
        switch self {
        case .bool(let v): return .bool(v)
        case .int(let v): return .int64(v)
        case .uint(let v): return .uint64(v)
        case .double(let v): return .double(v)
        case .string(let v): return .string(v)
        case .array(let items): return WireCodec.array(items.map(\.wireValue))
        case .dictionary(let entries): return WireCodec.vardict(entries)
        case .structure(let fields):
            return fields.isEmpty ? .array(element: "v", []) : .structure(fields.map(\.wireValue))
        case .node(let node): return node.wireValue
        }
    }
}

extension RawNode {
    /// The wire type of a view node.
    public static let wireSignature: Signature = "(sa{sv}av)"

    /// True when `value` is a struct of the view node's shape.
    static func hasNodeShape(_ value: DBusValue) -> Bool {
        guard case .structure(let fields) = value, fields.count == 3,
            case .string = fields[0],
            case .dictionary(let key, let val, _) = fields[1], key == "s", val == "v",
            case .array(let element, _) = fields[2], element == "v"
        else { return false }
        return true
    }

    /// Reads a view node `(sa{sv}av)` (also inside variants); `path` names its place
    /// (`compact_leading` for a slot's root, then `/<index>` per child, `.<key>` per prop).
    /// Each child must be a variant holding a node.
    public init(wire value: DBusValue, at path: String) throws(WireDecodingError) {
        let value = value.unwrappingVariants
        guard Self.hasNodeShape(value), case .structure(let fields) = value,
            case .string(let kind) = fields[0], case .array(_, let children) = fields[2]
        else {
            throw WireDecodingError(
                path: path, message: "expected a view node of type (sa{sv}av), found \(value.signature)")
        }
        let props = try WireCodec.dictionary(fields[1], at: path)
        var nodes: [RawNode] = []
        nodes.reserveCapacity(children.count)
        for (index, child) in children.enumerated() {
            nodes.append(try RawNode(wire: child, at: NodePath.child(path, index)))
        }
        self.init(kind: kind, props: props, children: nodes)
    }

    /// The wire form `(sa{sv}av)`: props sorted by key, each child a variant holding a node.
    public var wireValue: DBusValue {
        .structure([
            .string(kind), WireCodec.vardict(props),
            .array(element: "v", children.map { .variant($0.wireValue) }),
        ])
    }
}
