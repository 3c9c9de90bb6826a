import FoundationEssentials
import NookCore

/// Writes the registry's part of the state file straight from the live records: each activity
/// and each module's other fields as the JSON `StateFile` decodes, without building
/// `StoredNode` trees or going through `JSONEncoder`. The state writer encodes every changed
/// activity on each save, so this is what a save costs; for 32 activities of five 4,095-node
/// views it is several times faster than the `Codable` path (docs/broker.md, "Persistence").
///
/// The output equals `JSONEncoder` with `.sortedKeys` (`StateJSONTests` holds them equal for
/// every kind of value): keys in the order that encoder sorts them, numbers as it writes them
/// (`1` for 1.0, `1e+300`), strings escaped as it escapes them (`\/`, `\u001f`), NaN and the
/// infinities of stored values as `"nan"`, `"inf"`, `"-inf"`.
struct StateJSON {
    private(set) var bytes: [UInt8] = []

    init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    // MARK: Records

    /// One stored activity (`RegistrySnapshot.Activity`'s encoding).
    static func activity(_ record: ActivityRecord) -> [UInt8] {
        var json = StateJSON(reservingCapacity: 256)
        json.raw("{\"accessibility_label\":")
        json.string(record.accessibilityLabel)
        json.integer(",\"dismiss_date\":", ifAny: record.dismissDate)
        if !record.dismissible { json.raw(",\"dismissible\":false") }
        json.raw(",\"id\":")
        json.string(record.id)
        if record.lifetime != .connection {
            json.raw(",\"lifetime\":")
            json.string(record.lifetime.rawValue)
        }
        json.raw(",\"relevance\":")
        json.number(record.relevance)
        json.integer(",\"sequence\":", ifAny: record.lastSequence)
        json.integer(",\"stale_date\":", ifAny: record.staleDate)
        json.raw(",\"start_order\":")
        json.integer(record.startOrder)
        json.raw(",\"views\":")
        json.views(record.views)
        json.raw("}")
        return json.bytes
    }

    /// A module's fields after `activities` (`RegistrySnapshot.Module`'s encoding from
    /// `"compact_order"` to the closing brace, with the comma before it).
    static func moduleFields(_ record: ModuleRecord) -> [UInt8] {
        var json = StateJSON(reservingCapacity: 256)
        json.integer(",\"compact_order\":", ifAny: record.compactOrder)
        json.raw(",\"content\":")
        json.views(record.content)
        json.raw(",\"dismissed\":[")
        json.commaSeparated(record.dismissed) { $0.string($1) }
        json.raw("],\"display_name\":")
        json.string(record.info.displayName)
        json.raw(",\"id\":")
        json.string(record.id)
        json.raw(",\"rules\":")
        json.dictionary(record.rules.tokens)
        json.raw(",\"version\":")
        json.string(record.info.version)
        json.raw("}")
        return json.bytes
    }

    // MARK: Values

    /// Views by slot, as an object keyed by the slot's name, sorted.
    mutating func views<Slot: RawRepresentable<String>>(_ views: [Slot: ViewNode]) {
        raw("{")
        commaSeparated(views.keys.sorted(by: { $0.rawValue < $1.rawValue })) { json, slot in
            json.string(slot.rawValue)
            json.raw(":")
            json.node(views[slot]!)
        }
        raw("}")
    }

    /// A view node in its wire shape, as `StoredNode` encodes it.
    mutating func node(_ node: ViewNode) {
        self.node(kind: node.kind.rawValue, props: node.props.rawProps, children: node.children) { $0.node($1) }
    }

    mutating func node(_ node: RawNode) {
        self.node(kind: node.kind, props: node.props, children: node.children) { $0.node($1) }
    }

    /// A node of either kind (validated or raw) as `StoredNode` encodes it, `child` writing each child.
    private mutating func node<Child>(
        kind: String, props: [String: PropValue], children: [Child], child: (inout StateJSON, Child) -> Void
    ) {
        raw("{\"children\":[")
        commaSeparated(children, child)
        raw("],\"kind\":")
        string(kind)
        raw(",\"props\":")
        dictionary(props)
        raw("}")
    }

    /// `{"key": value, ...}` with each value as `StoredValue` encodes it, keys sorted.
    mutating func dictionary(_ entries: [String: PropValue]) {
        raw("{")
        commaSeparated(Self.sortedKeys(entries.keys)) { json, key in
            json.string(key)
            json.raw(":")
            json.value(entries[key]!)
        }
        raw("}")
    }

    /// A `StoredValue`: a one-key object whose key is the type.
    mutating func value(_ value: PropValue) {
        switch value {
        case .bool(let flag):
            raw(flag ? "{\"b\":true}" : "{\"b\":false}")
        case .int(let number):
            raw("{\"i\":")
            integer(number)
            raw("}")
        case .uint(let number):
            raw("{\"u\":")
            integer(number)
            raw("}")
        case .double(let number):
            raw("{\"d\":")
            if number.isNaN {
                raw("\"nan\"")
            } else if number.isInfinite {
                raw(number > 0 ? "\"inf\"" : "\"-inf\"")
            } else {
                self.number(number)
            }
            raw("}")
        case .string(let text):
            raw("{\"s\":")
            string(text)
            raw("}")
        case .array(let items), .structure(let items):
            if case .array = value { raw("{\"a\":[") } else { raw("{\"r\":[") }
            commaSeparated(items) { $0.value($1) }
            raw("]}")
        case .dictionary(let entries):
            raw("{\"m\":")
            dictionary(entries)
            raw("}")
        case .node(let node):
            raw("{\"n\":")
            self.node(node)
            raw("}")
        }
    }

    /// Each of `items` written by `write`, a comma between two.
    mutating func commaSeparated<Items: Sequence>(_ items: Items, _ write: (inout StateJSON, Items.Element) -> Void) {
        var first = true
        for item in items {
            if !first { raw(",") }
            first = false
            write(&self, item)
        }
    }

    // MARK: Scalars

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func integer<I: BinaryInteger>(_ number: I) {
        bytes.append(contentsOf: String(number).utf8)
    }

    /// `key` (its comma and colon included) and `number`; nothing for nil, as the encoder
    /// leaves an optional's key out.
    mutating func integer<I: BinaryInteger>(_ key: StaticString, ifAny number: I?) {
        guard let number else { return }
        raw(key)
        integer(number)
    }

    /// A finite double as `JSONEncoder` writes it: its description, without a trailing `.0`.
    mutating func number(_ number: Double) {
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// A string literal, escaped as `JSONEncoder` escapes it.
    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            bytes.append(0x22)
            var start = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0x2F else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                start = index + 1
                bytes.append(0x5C)  // \
                switch byte {
                case 0x22, 0x5C, 0x2F: bytes.append(byte)  // \" \\ \/
                case 0x08: bytes.append(0x62)  // \b
                case 0x0C: bytes.append(0x66)  // \f
                case 0x0A: bytes.append(0x6E)  // \n
                case 0x0D: bytes.append(0x72)  // \r
                case 0x09: bytes.append(0x74)  // \t
                default:  // \u00XX, lowercase
                    bytes.append(0x75)
                    bytes.append(0x30)
                    bytes.append(0x30)
                    bytes.append(Self.hexDigit(byte >> 4))
                    bytes.append(Self.hexDigit(byte & 0xF))
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<utf8.count]))
            bytes.append(0x22)
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 + value : 0x57 + value }

    /// Keys in the order `JSONEncoder`'s `.sortedKeys` writes them.
    static func sortedKeys(_ keys: Dictionary<String, PropValue>.Keys) -> [String] {
        keys.sorted()
    }
}
