/// An `a{sv}` written out as the D-Bus writer will meet it: its entries in the order they go
/// on the wire (keys sorted, as `WireCodec.vardict` sorts them), each with the type it takes.
/// The tape is the `WireWriter` that keeps its tokens: for tests, tools and `dictionary`.
/// nookd writes plans into each renderer's message straight, with NookBus's own writer
/// (`WirePlan`, `WireWriter+Message.swift`); the bytes are those of the `[String: PropValue]`
/// the same plan's `wireDictionary` gives.
///
/// Tokens nest: `vardict` and `array` open an entry whose items follow up to their `end`.
public struct WireTape: WireWriter, Hashable, Sendable {
    public enum Token: Hashable, Sendable {
        /// An entry whose value has the wire form `PropValue.wireValue` gives it.
        case value(key: String, PropValue)
        case string(key: String, String)
        case double(key: String, Double)
        case uint(key: String, UInt64)
        case bool(key: String, Bool)
        /// A rect (or velocity, or any four doubles) as `(dddd)`.
        case rect(key: String, Rect)
        /// An entry holding an `a{sv}`; its entries follow, then `end`.
        case vardict(key: String)
        /// An entry holding an array of `element`s; its items follow, then `end`.
        case array(key: String, of: Element)
        /// An item of an `aa{sv}`: an `a{sv}` whose entries follow, then `end`.
        case item
        /// An item of an `as`.
        case stringItem(String)
        case end
    }

    /// What an array entry holds: `aa{sv}`, `as`, or `av` (an empty array, as
    /// `WireCodec.array` types one).
    public enum Element: Hashable, Sendable {
        case vardict, string, variant
    }

    /// Written only by NookCore's encoders, so every `vardict`, `array` and `item` has its `end`.
    public private(set) var tokens: [Token] = []

    public init(reservingCapacity capacity: Int = 0) {
        tokens.reserveCapacity(capacity)
    }

    public mutating func append(_ token: Token) { tokens.append(token) }

    /// The tape of `props`: its entries in wire order, each value by the token of its shape
    /// (`appendEntry`). A plan's tape is token for token this tape of its `wireDictionary`.
    public init(dictionary props: [String: PropValue]) {
        merging(props, into: [])
    }

    /// The dictionary this tape stands for (for tests: it equals the plan's `wireDictionary`).
    public var dictionary: [String: PropValue] {
        var position = tokens.startIndex
        return readEntries(&position)
    }

    private func readEntries(_ position: inout Int) -> [String: PropValue] {
        var out: [String: PropValue] = [:]
        while position < tokens.endIndex {
            let token = tokens[position]
            position += 1
            switch token {
            case .value(let key, let value): out[key] = value
            case .string(let key, let text): out[key] = .string(text)
            case .double(let key, let number): out[key] = .double(number)
            case .uint(let key, let number): out[key] = .uint(number)
            case .bool(let key, let flag): out[key] = .bool(flag)
            case .rect(let key, let rect): out[key] = .structure([.double(rect.x), .double(rect.y), .double(rect.width), .double(rect.height)])
            case .vardict(let key): out[key] = .dictionary(readEntries(&position))
            case .array(let key, _): out[key] = .array(readItems(&position))
            case .item, .stringItem: preconditionFailure("an array item outside an array")
            case .end: return out
            }
        }
        return out
    }

    private func readItems(_ position: inout Int) -> [PropValue] {
        var items: [PropValue] = []
        while position < tokens.endIndex {
            let token = tokens[position]
            position += 1
            switch token {
            case .item: items.append(.dictionary(readEntries(&position)))
            case .stringItem(let text): items.append(.string(text))
            case .end: return items
            default: preconditionFailure("an entry inside an array")
            }
        }
        return items
    }
}
