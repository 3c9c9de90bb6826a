import NookCore

/// A `PropValue` in the state file: a one-key JSON object whose key is the type, so every
/// value reads back with the type it had (`{"d": 1}` stays a double, `{"i": 1}` an integer).
///
/// | key | type | JSON value |
/// |---|---|---|
/// | `b` | bool | `true` / `false` |
/// | `i` | int (x) | number |
/// | `u` | uint (t) | number |
/// | `d` | double | number, or `"nan"`, `"inf"`, `"-inf"` |
/// | `s` | string | string |
/// | `a` | array | array of values |
/// | `r` | structure | array of values |
/// | `m` | dictionary | object of values |
/// | `n` | view node | a node object |
public indirect enum StoredValue: Codable, Hashable, Sendable {
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case array([StoredValue])
    case structure([StoredValue])
    case dictionary([String: StoredValue])
    case node(StoredNode)

    enum Key: String, CodingKey { case b, i, u, d, s, a, r, m, n }

    public init(_ value: PropValue) {
        switch value {
        case .bool(let v): self = .bool(v)
        case .int(let v): self = .int(v)
        case .uint(let v): self = .uint(v)
        case .double(let v): self = .double(v)
        case .string(let v): self = .string(v)
        case .array(let v): self = .array(v.map(StoredValue.init))
        case .structure(let v): self = .structure(v.map(StoredValue.init))
        case .dictionary(let v): self = .dictionary(v.mapValues(StoredValue.init))
        case .node(let v): self = .node(StoredNode(v))
        }
    }

    public var propValue: PropValue {
        switch self {
        case .bool(let v): .bool(v)
        case .int(let v): .int(v)
        case .uint(let v): .uint(v)
        case .double(let v): .double(v)
        case .string(let v): .string(v)
        case .array(let v): .array(v.map(\.propValue))
        case .structure(let v): .structure(v.map(\.propValue))
        case .dictionary(let v): .dictionary(v.mapValues(\.propValue))
        case .node(let v): .node(v.rawNode)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .bool(let v): try container.encode(v, forKey: .b)
        case .int(let v): try container.encode(v, forKey: .i)
        case .uint(let v): try container.encode(v, forKey: .u)
        case .double(let v):
            if v.isFinite { try container.encode(v, forKey: .d) } else {
                try container.encode(v.isNaN ? "nan" : (v > 0 ? "inf" : "-inf"), forKey: .d)
            }
        case .string(let v): try container.encode(v, forKey: .s)
        case .array(let v): try container.encode(v, forKey: .a)
        case .structure(let v): try container.encode(v, forKey: .r)
        case .dictionary(let v): try container.encode(v, forKey: .m)
        case .node(let v): try container.encode(v, forKey: .n)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a stored value has exactly one type key"))
        }
        switch key {
        case .b: self = .bool(try container.decode(Bool.self, forKey: key))
        case .i: self = .int(try container.decode(Int64.self, forKey: key))
        case .u: self = .uint(try container.decode(UInt64.self, forKey: key))
        case .d:
            if let text = try? container.decode(String.self, forKey: key) {
                switch text {
                case "nan": self = .double(.nan)
                case "inf": self = .double(.infinity)
                case "-inf": self = .double(-.infinity)
                default:
                    throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not a number: \(text)")
                }
            } else {
                self = .double(try container.decode(Double.self, forKey: key))
            }
        case .s: self = .string(try container.decode(String.self, forKey: key))
        case .a: self = .array(try container.decode([StoredValue].self, forKey: key))
        case .r: self = .structure(try container.decode([StoredValue].self, forKey: key))
        case .m: self = .dictionary(try container.decode([String: StoredValue].self, forKey: key))
        case .n: self = .node(try container.decode(StoredNode.self, forKey: key))
        }
    }
}

/// A view node in the state file: `{"kind": ..., "props": {...}, "children": [...]}`.
public struct StoredNode: Codable, Hashable, Sendable {
    public var kind: String
    public var props: [String: StoredValue]
    public var children: [StoredNode]

    public init(_ node: RawNode) {
        kind = node.kind
        props = node.props.mapValues(StoredValue.init)
        children = node.children.map(StoredNode.init)
    }

    public var rawNode: RawNode {
        RawNode(kind: kind, props: props.mapValues(\.propValue), children: children.map(\.rawNode))
    }
}
