/// Where an `a{sv}` goes token by token, in wire order: a `WireTape` keeps the tokens, NookBus's
/// message writer writes each into an sd-bus message as it comes, and its size counter adds up
/// the bytes. NookCore's encoders (`WirePlan`, the scene-node writer generated from
/// data/contract.json) write into any of them, so a plan has one encoder whatever it is
/// written into. Encoders keep every `vardict`, `array` and `item` balanced by its `end`.
public protocol WireWriter {
    mutating func append(_ token: WireTape.Token)
}

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
    mutating func array<C: Collection>(_ key: String, of items: C, _ item: (inout Self, C.Element) -> Void) {
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
    mutating func merging(_ props: [String: PropValue], into fixed: [(key: String, token: WireTape.Token)]) {
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
    mutating func appendEntry(_ key: String, _ value: PropValue) {
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
