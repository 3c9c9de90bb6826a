import NookCore

/// Bytes a value takes in a message body, counted by the D-Bus marshalling rules (each value
/// aligned to its type's boundary, strings with their length and terminating nul, variants
/// with their signature). For byte budgets: what the bus daemon charges a sender is the
/// message, so the body plus a header of a hundred bytes or two.
///
/// ```swift
/// DBusValue.string("ab").marshalledSize   // 7: a 4-byte length, 2 bytes, a nul
/// ```
struct MarshalledSize {
    /// The offset the next value starts at (a body starts 8-aligned, at 0 here).
    private(set) var offset = 0

    mutating func align(_ boundary: Int) {
        let rest = offset % boundary
        if rest != 0 { offset += boundary - rest }
    }

    mutating func add(_ count: Int) { offset += count }

    /// A string, object path: a 4-byte length, the bytes, a nul.
    mutating func string(_ utf8Count: Int) {
        align(4)
        offset += 4 + utf8Count + 1
    }

    /// A signature: a 1-byte length, the bytes, a nul.
    mutating func signature(_ utf8Count: Int) { offset += 1 + utf8Count + 1 }

    /// The start of an array whose elements align to `elementAlignment`.
    mutating func arrayHeader(elementAlignment: Int) {
        align(4)
        offset += 4
        align(elementAlignment)
    }

    /// The boundary a value of the complete type starting with `code` aligns to.
    static func alignment(of code: UInt8?) -> Int {
        switch code {
        case UInt8(ascii: "y"), UInt8(ascii: "g"), UInt8(ascii: "v"): 1
        case UInt8(ascii: "n"), UInt8(ascii: "q"): 2
        case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "("), UInt8(ascii: "{"): 8
        default: 4
        }
    }

    mutating func add(_ value: DBusValue) {
        switch value {
        case .byte: offset += 1
        case .bool, .int32, .uint32, .unixFD: align(4); offset += 4
        case .int16, .uint16: align(2); offset += 2
        case .int64, .uint64, .double: align(8); offset += 8
        case .string(let text): string(text.utf8.count)
        case .objectPath(let path): string(path.rawValue.utf8.count)
        case .signature(let signature): self.signature(signature.rawValue.utf8.count)
        case .array(let element, let items):
            arrayHeader(elementAlignment: Self.alignment(of: element.rawValue.utf8.first))
            for item in items { add(item) }
        case .dictionary(_, _, let entries):
            arrayHeader(elementAlignment: 8)
            for entry in entries {
                align(8)
                add(entry.key)
                add(entry.value)
            }
        case .structure(let fields):
            align(8)
            for field in fields { add(field) }
        case .variant(let inner):
            signature(inner.signatureText.utf8.count)
            add(inner)
        }
    }

    /// One `{sv}` entry of an `a{sv}`, up to its value: the key, and the variant's signature.
    mutating func entry(key: String, signatureBytes: Int) {
        align(8)
        string(key.utf8.count)
        signature(signatureBytes)
    }
}

extension DBusValue {
    /// The bytes this value takes as a message body of its own (`MarshalledSize`).
    public var marshalledSize: Int {
        var size = MarshalledSize()
        size.add(self)
        return size.offset
    }
}

/// A `WireWriter` that counts the bytes its tokens take as a message body of one `a{sv}`
/// (`MarshalledSize`), token by token as `MessageWireWriter` writes them.
struct MarshalledSizeWriter: WireWriter {
    private var size = MarshalledSize()

    init() { size.arrayHeader(elementAlignment: 8) }

    var bytes: Int { size.offset }

    mutating func append(_ token: WireTape.Token) {
        switch token {
        case .value(let key, let value):
            let wire = value.wireValue
            size.entry(key: key, signatureBytes: wire.signatureText.utf8.count)
            size.add(wire)
        case .string(let key, let text):
            size.entry(key: key, signatureBytes: 1)
            size.string(text.utf8.count)
        case .double(let key, _), .uint(let key, _):
            size.entry(key: key, signatureBytes: 1)
            size.align(8)
            size.add(8)
        case .bool(let key, _):
            size.entry(key: key, signatureBytes: 1)
            size.align(4)
            size.add(4)
        case .rect(let key, _):
            size.entry(key: key, signatureBytes: 6)
            size.align(8)
            size.add(32)
        case .vardict(let key):
            size.entry(key: key, signatureBytes: 5)
            size.arrayHeader(elementAlignment: 8)
        case .array(let key, let element):
            switch element {
            case .vardict:
                size.entry(key: key, signatureBytes: 6)
                size.arrayHeader(elementAlignment: 4)
            case .string:
                size.entry(key: key, signatureBytes: 2)
                size.arrayHeader(elementAlignment: 4)
            case .variant:
                size.entry(key: key, signatureBytes: 2)
                size.arrayHeader(elementAlignment: 1)
            }
        case .item:
            size.arrayHeader(elementAlignment: 8)
        case .stringItem(let text):
            size.string(text.utf8.count)
        case .end:
            break
        }
    }
}

extension WireTape {
    /// The bytes the tape takes as a message body of one `a{sv}` (`MarshalledSize`).
    public var marshalledSize: Int {
        var writer = MarshalledSizeWriter()
        for token in tokens { writer.append(token) }
        return writer.bytes
    }
}

extension WirePlan {
    /// The bytes the plan takes as a message body of one `a{sv}` (`MarshalledSize`).
    public var marshalledSize: Int {
        var writer = MarshalledSizeWriter()
        write(through: &writer)
        return writer.bytes
    }
}

extension PreparedSignal {
    /// The bytes of the signal's body (`MarshalledSize`); the header adds about 150 more.
    public var marshalledSize: Int {
        switch body {
        case .props(let props): DBusValue.vardict(props.mapValues(\.wireValue)).marshalledSize
        case .tape(let tape): tape.marshalledSize
        case .plan(let plan): plan.marshalledSize
        }
    }
}
