/// A loosely typed property value, as decoded from the wire before validation.
///
/// NookBus turns D-Bus values into `PropValue`s structurally (a `d` becomes `.double`, an
/// `a{sv}` becomes `.dictionary`); NookCore's validation then checks each key's type and
/// names the offending path when it is wrong. Keeping this seam means NookCore never sees
/// D-Bus and the codec never needs to know what a key means.
public indirect enum PropValue: Hashable, Sendable {
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case array([PropValue])
    case dictionary([String: PropValue])
    case structure([PropValue])
    /// A view node carried inside a prop (the wire's `(sa{sv}av)` in a variant).
    case node(RawNode)

    /// A short type name for error messages, in D-Bus signature spelling where one exists.
    public var typeName: String {
        switch self {
        case .bool: "b"
        case .int: "x"
        case .uint: "t"
        case .double: "d"
        case .string: "s"
        case .array: "a"
        case .dictionary: "a{sv}"
        case .structure(let fields): "(" + String(repeating: "?", count: fields.count) + ")"
        case .node: "(sa{sv}av)"
        }
    }
}

/// A view node as it arrived, unvalidated: kind, props, children. Its own type, not a
/// `ViewNode`, because it holds what no check has passed yet (the decoded message, nookctl's
/// JSON, the state file's record) so that validation can name the offending path.
public struct RawNode: Hashable, Sendable {
    public var kind: String
    public var props: [String: PropValue]
    public var children: [RawNode]

    public init(kind: String, props: [String: PropValue] = [:], children: [RawNode] = []) {
        self.kind = kind
        self.props = props
        self.children = children
    }
}

extension PropValue {
    /// A number where the contract says `d`: a double, or any integer (contract 1.1: clients in
    /// dynamic languages send `13` as `i`). Nil for anything else.
    public var lenientDouble: Double? {
        switch self {
        case .double(let number): number
        case .int(let number): Double(number)
        case .uint(let number): Double(number)
        default: nil
        }
    }

    /// An integer where the contract says `x`: also `t`, `i` or `u` (contract 1.1), when the
    /// value fits in an `x`. Nil for anything else.
    public var lenientInt64: Int64? {
        switch self {
        case .int(let number): number
        case .uint(let number): Int64(exactly: number)
        default: nil
        }
    }
}

extension PropValue {
    /// About how many bytes this value takes on the wire (D-Bus marshalling, ignoring
    /// alignment): what the registry's `maxPayloadBytes` is charged with.
    public var estimatedWireBytes: Int {
        switch self {
        case .bool: return 4
        case .int, .uint, .double: return 8
        case .string(let text): return 5 + text.utf8.count
        case .array(let items), .structure(let items):
            return items.reduce(8) { $0 + $1.estimatedWireBytes + 4 }
        case .dictionary(let entries):
            return entries.reduce(8) { $0 + 9 + $1.key.utf8.count + $1.value.estimatedWireBytes }
        case .node(let node):
            return node.estimatedWireBytes
        }
    }
}

extension RawNode {
    public var estimatedWireBytes: Int {
        var total = 16 + kind.utf8.count
        for (key, value) in props { total += 9 + key.utf8.count + value.estimatedWireBytes }
        for child in children { total += 4 + child.estimatedWireBytes }
        return total
    }
}
