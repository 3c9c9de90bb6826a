/// A D-Bus value of any type, nested to any depth.
///
/// Containers carry the signatures they need so that every value knows its own type, even an
/// empty array (`.array(element: "s", [])`). Dictionaries keep their entries in order, so a
/// value read from a message writes back byte for byte.
public indirect enum DBusValue: Hashable, Sendable {
    case byte(UInt8)
    case bool(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(ObjectPath)
    case signature(Signature)
    /// A file descriptor. One read from a message is a fresh duplicate the reader must close;
    /// one appended to a message is duplicated by sd-bus, so the caller keeps its own.
    case unixFD(Int32)
    case array(element: Signature, [DBusValue])
    case dictionary(key: Signature, value: Signature, [DictEntry])
    case structure([DBusValue])
    case variant(DBusValue)

    public struct DictEntry: Hashable, Sendable {
        public var key: DBusValue
        public var value: DBusValue
        public init(_ key: DBusValue, _ value: DBusValue) { self.key = key; self.value = value }
    }

    /// This value's complete type.
    public var signature: Signature { Signature(unchecked: signatureText) }

    var signatureText: String {
        switch self {
        case .byte: "y"
        case .bool: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .array(let element, _): "a" + element.rawValue
        case .dictionary(let key, let value, _): "a{" + key.rawValue + value.rawValue + "}"
        case .structure(let fields): "(" + fields.map(\.signatureText).joined() + ")"
        case .variant: "v"
        }
    }

    /// Checks that containers hold what their signatures promise; `append` relies on it.
    public func validate() throws(DBusTypeError) {
        _ = try validatedSignature()
    }

    /// Validates bottom-up and returns this value's signature, so each node's signature is
    /// built once however deep the tree (checking top-down would rebuild every subtree's).
    func validatedSignature() throws(DBusTypeError) -> String {
        switch self {
        case .array(let element, let items):
            if items.isEmpty {
                // Only an empty array's element signature is not vouched for by an item.
                guard element.isSingleCompleteType else { throw DBusTypeError(expected: Signature.empty, found: element, at: "array element") }
            }
            for item in items {
                let found = try item.validatedSignature()
                guard found == element.rawValue else { throw DBusTypeError(expected: element, found: Signature(unchecked: found), at: "array element") }
            }
            return "a" + element.rawValue
        case .dictionary(let key, let value, let entries):
            guard key.rawValue.count == 1, let code = key.rawValue.first, TypeCode.basic.contains(code) else {
                throw DBusTypeError(expected: "s", found: key, at: "dictionary key")
            }
            if entries.isEmpty, !value.isSingleCompleteType {
                throw DBusTypeError(expected: "v", found: value, at: "dictionary value")
            }
            for entry in entries {
                guard entry.key.signatureText == key.rawValue else { throw DBusTypeError(expected: key, found: entry.key.signature, at: "dictionary key") }
                let found = try entry.value.validatedSignature()
                guard found == value.rawValue else { throw DBusTypeError(expected: value, found: Signature(unchecked: found), at: "dictionary value") }
            }
            return "a{" + key.rawValue + value.rawValue + "}"
        case .structure(let fields):
            guard !fields.isEmpty else { throw DBusTypeError(expected: "(v)", found: Signature.empty, at: "struct") }
            var signature = "("
            for field in fields { signature += try field.validatedSignature() }
            return signature + ")"
        case .variant(let inner):
            _ = try inner.validatedSignature()
            return "v"
        default:
            return signatureText
        }
    }
}

/// A value whose type is not the one expected: names both signatures and where it happened.
public struct DBusTypeError: Error, Hashable, Sendable, CustomStringConvertible {
    public let expected: Signature
    public let found: Signature
    /// Where: an argument index, a dictionary key (`key 'width'`), a struct field.
    public let location: String

    public init(expected: Signature, found: Signature, at location: String) {
        self.expected = expected
        self.found = found
        self.location = location
    }

    public var description: String {
        "\(location): expected signature '\(expected)', found '\(found)'"
    }
}

extension DBusValue {
    /// Builds an `a{sv}` from Swift pairs, keeping the given order.
    public static func vardict(_ pairs: KeyValuePairs<String, DBusValue>) -> DBusValue {
        .dictionary(key: "s", value: "v", pairs.map { DictEntry(.string($0.key), .variant($0.value)) })
    }

    /// Builds an `a{sv}` from a Swift dictionary, ordered by key so output is deterministic.
    public static func vardict(_ dictionary: [String: DBusValue]) -> DBusValue {
        .dictionary(key: "s", value: "v", dictionary.sorted { $0.key < $1.key }.map { DictEntry(.string($0.key), .variant($0.value)) })
    }

    /// The value inside any number of variant wrappers.
    public var unwrappingVariants: DBusValue {
        if case .variant(let inner) = self { return inner.unwrappingVariants }
        return self
    }
}
