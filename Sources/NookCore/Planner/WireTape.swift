/// An `a{sv}` written out as the D-Bus writer will meet it: its entries in the order they go
/// on the wire (keys sorted, as `WireCodec.vardict` sorts them), each with the type it takes.
/// The tape is the `WireWriter` that keeps its tokens: for tests, tools and `dictionary`.
/// nookd writes plans into each renderer's message straight, with NookBus's own writer
/// (`WirePlan`, `WireWriter+Message.swift`); the bytes are those of the `[String: PropValue]`
/// the same plan's `wireDictionary` gives.
///
/// Tokens nest: `vardict` and `array` open an entry whose items follow up to their `end`.
public struct WireTape: Hashable, Sendable {
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

/// Where an `a{sv}` goes token by token, in wire order: a `WireTape` keeps the tokens, NookBus's
/// message writer writes each into an sd-bus message as it comes, and its size counter adds up
/// the bytes. NookCore's encoders (`WirePlan`, the scene-node writer generated from
/// data/contract.json) write into any of them, so a plan has one encoder whatever it is
/// written into. Encoders keep every `vardict`, `array` and `item` balanced by its `end`.
public protocol WireWriter {
    mutating func append(_ token: WireTape.Token)
}

extension WireTape: WireWriter {}

/// A `WireWriter` that hands each token to a function. NookBus writes plans into messages
/// through it: NookCore's encoders are compiled for this one type (`WirePlan.write(into:)`),
/// where a writer type of NookBus's own would run them as unspecialised generic code, looking
/// up type metadata at run time.
public struct WireTokenSink: WireWriter {
    private let body: (WireTape.Token) -> Void

    public init(_ body: @escaping (WireTape.Token) -> Void) { self.body = body }

    public mutating func append(_ token: WireTape.Token) { body(token) }
}

extension WireWriter {
    /// An array entry of `count` `a{sv}` items, each written by `item` between its `item` and
    /// `end`; typed `av` when empty, as the dictionary form's empty array is.
    public mutating func array<C: Collection>(_ key: String, of items: C, _ item: (inout Self, C.Element) -> Void) {
        append(.array(key: key, of: items.isEmpty ? .variant : .vardict))
        for element in items {
            append(.item)
            item(&self, element)
            append(.end)
        }
        append(.end)
    }

    /// Appends the entries of `props`, sorted by key, merged into the sorted `fixed` entries,
    /// which win over a prop of the same key (as a scene node's `slot`, `path`, ... do). A
    /// fixed `value` is written by its shape (`appendEntry`).
    public mutating func merging(_ props: [String: PropValue], into fixed: [(key: String, token: WireTape.Token)]) {
        let sortedProps = props.sorted { $0.key < $1.key }
        var prop = sortedProps.startIndex, next = fixed.startIndex
        while prop < sortedProps.endIndex || next < fixed.endIndex {
            if next < fixed.endIndex, prop == sortedProps.endIndex || fixed[next].key <= sortedProps[prop].key {
                if prop < sortedProps.endIndex, fixed[next].key == sortedProps[prop].key { prop += 1 }
                if case .value(let key, let value) = fixed[next].token {
                    appendEntry(key, value)
                } else {
                    append(fixed[next].token)
                }
                next += 1
            } else {
                appendEntry(sortedProps[prop].key, sortedProps[prop].value)
                prop += 1
            }
        }
    }

    /// Appends one entry by its shape: scalars (`b t d s`) and four doubles (`rect`) by their
    /// own tokens; a dictionary as `vardict`; an array of dictionaries, of strings, or an empty
    /// one as `array`; anything else as a `value`. Each gives `PropValue.wireValue`'s type.
    public mutating func appendEntry(_ key: String, _ value: PropValue) {
        switch value {
        case .string(let text): append(.string(key: key, text))
        case .double(let number): append(.double(key: key, number))
        case .bool(let flag): append(.bool(key: key, flag))
        case .uint(let number): append(.uint(key: key, number))
        case .structure(let fields):
            if fields.count == 4, case .double(let x) = fields[0], case .double(let y) = fields[1],
               case .double(let width) = fields[2], case .double(let height) = fields[3] {
                append(.rect(key: key, Rect(x: x, y: y, width: width, height: height)))
            } else {
                append(.value(key: key, value))
            }
        case .dictionary(let entries):
            append(.vardict(key: key))
            merging(entries, into: [])
            append(.end)
        case .array(let items):
            if items.isEmpty {
                append(.array(key: key, of: .variant))
            } else if items.allSatisfy({ if case .dictionary = $0 { true } else { false } }) {
                append(.array(key: key, of: .vardict))
                for case .dictionary(let entries) in items {
                    append(.item)
                    merging(entries, into: [])
                    append(.end)
                }
            } else if items.allSatisfy({ if case .string = $0 { true } else { false } }) {
                append(.array(key: key, of: .string))
                for case .string(let text) in items { append(.stringItem(text)) }
            } else {
                append(.value(key: key, value))
                return
            }
            append(.end)
        case .int, .node:
            append(.value(key: key, value))
        }
    }
}
