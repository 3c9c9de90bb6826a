/// A Swift type with a fixed D-Bus representation.
///
/// ```swift
/// let names: [String] = try decode(reply[0])          // "as"
/// let info: [String: DBusValue] = try decode(args[1]) // "a{sv}"
/// ```
public protocol DBusConvertible: Sendable {
    static var dbusSignature: Signature { get }
    var dbusValue: DBusValue { get }
    init(dbusValue: DBusValue) throws(DBusTypeError)
}

/// Decodes `value` as `T`, naming `location` in the error when the types differ.
public func decode<T: DBusConvertible>(_ value: DBusValue, as type: T.Type = T.self, at location: String = "value") throws(DBusTypeError) -> T {
    do {
        return try T(dbusValue: value)
    } catch {
        throw DBusTypeError(expected: error.expected, found: error.found, at: location)
    }
}

extension DBusConvertible {
    static func mismatch(_ value: DBusValue) -> DBusTypeError {
        DBusTypeError(expected: dbusSignature, found: value.signature, at: "value")
    }
}

extension UInt8: DBusConvertible {
    public static var dbusSignature: Signature { "y" }
    public var dbusValue: DBusValue { .byte(self) }
    public init(dbusValue: DBusValue) throws(DBusTypeError) {
        guard case .byte(let v) = dbusValue else { throw Self.mismatch(dbusValue) }
        self = v
    }
}

extension Bool: DBusConvertible {
    public static var dbusSignature: Signature { "b" }
    public var dbusValue: DBusValue { .bool(self) }
    public init(dbusValue: DBusValue) throws(DBusTypeError) {
        guard case .bool(let v) = dbusValue else { throw Self.mismatch(dbusValue) }
        self = v
    }
}

extension Int16: DBusConvertible {
    public static var dbusSignature: Signature { "n" }
    public var dbusValue: DBusValue { .int16(self) }
    public init(dbusValue: DBusValue) throws(DBusTypeError) {
        guard case .int16(let v) = dbusValue else { throw Self.mismatch(dbusValue) }
        self = v
    }
}

extension UInt16: DBusConvertible {
    public static var dbusSignature: Signature { "q" }
    public var dbusValue: DBusValue { .uint16(self) }
    public init(dbusValue: DBusValue) throws(DBusTypeError) {
        guard case .uint16(let v) = dbusValue else { throw Self.mismatch(dbusValue) }
        self = v
    }
}

extension Int32: DBusConvertible {
    public static var dbusSignature: Signature { "i" }
    public var dbusValue: DBusValue { .int32(self) }
    public init(dbusValue: DBusValue) throws(DBusTypeError) {
        guard case .int32(let v) = dbusValue else { throw Self.mismatch(dbusValue) }
        self = v
    }
}

extension UInt32: DBusConvertible {
    public static var dbusSignature: Signature { "u" }
    public var dbusValue: DBusValue { .uint32(self) }
    public init(dbusValue: DBusValue) throws(DBusTypeError) {
        guard case .uint32(let v) = dbusValue else { throw Self.mismatch(dbusValue) }
        self = v
    }
}

extension Int64: DBusConvertible {
    public static var dbusSignature: Signature { "x" }
    public var dbusValue: DBusValue { .int64(self) }
    public init(dbusValue: DBusValue) throws(DBusTypeError) {
        guard case .int64(let v) = dbusValue else { throw Self.mismatch(dbusValue) }
        self = v
    }
}

extension UInt64: DBusConvertible {
    public static var dbusSignature: Signature { "t" }
    public var dbusValue: DBusValue { .uint64(self) }
    public init(dbusValue: DBusValue) throws(DBusTypeError) {
        guard case .uint64(let v) = dbusValue else { throw Self.mismatch(dbusValue) }
        self = v
    }
}

extension Double: DBusConvertible {
    public static var dbusSignature: Signature { "d" }
    public var dbusValue: DBusValue { .double(self) }
    public init(dbusValue: DBusValue) throws(DBusTypeError) {
        guard case .double(let v) = dbusValue else { throw Self.mismatch(dbusValue) }
        self = v
    }
}

extension String: DBusConvertible {
    public static var dbusSignature: Signature { "s" }
    public var dbusValue: DBusValue { .string(self) }
    public init(dbusValue: DBusValue) throws(DBusTypeError) {
        guard case .string(let v) = dbusValue else { throw Self.mismatch(dbusValue) }
        self = v
    }
}

extension ObjectPath: DBusConvertible {
    public static var dbusSignature: Signature { "o" }
    public var dbusValue: DBusValue { .objectPath(self) }
    public init(dbusValue: DBusValue) throws(DBusTypeError) {
        guard case .objectPath(let v) = dbusValue else { throw Self.mismatch(dbusValue) }
        self = v
    }
}

extension Signature: DBusConvertible {
    public static var dbusSignature: Signature { "g" }
    public var dbusValue: DBusValue { .signature(self) }
    public init(dbusValue: DBusValue) throws(DBusTypeError) {
        guard case .signature(let v) = dbusValue else { throw Self.mismatch(dbusValue) }
        self = v
    }
}

/// In a typed position, a `DBusValue` is a variant: `[String: DBusValue]` is `a{sv}`.
extension DBusValue: DBusConvertible {
    public static var dbusSignature: Signature { "v" }
    public var dbusValue: DBusValue { .variant(self) }
    public init(dbusValue: DBusValue) throws(DBusTypeError) {
        guard case .variant(let inner) = dbusValue else { throw Self.mismatch(dbusValue) }
        self = inner
    }
}

extension Array: DBusConvertible where Element: DBusConvertible {
    public static var dbusSignature: Signature { Signature(unchecked: "a" + Element.dbusSignature.rawValue) }
    public var dbusValue: DBusValue { .array(element: Element.dbusSignature, map(\.dbusValue)) }
    public init(dbusValue: DBusValue) throws(DBusTypeError) {
        guard case .array(let element, let items) = dbusValue, element == Element.dbusSignature else {
            throw Self.mismatch(dbusValue)
        }
        var result: [Element] = []
        result.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            do { result.append(try Element(dbusValue: item)) } catch {
                throw DBusTypeError(expected: error.expected, found: error.found, at: "element \(index)")
            }
        }
        self = result
    }
}

extension Dictionary: DBusConvertible where Key: DBusConvertible, Value: DBusConvertible {
    public static var dbusSignature: Signature {
        Signature(unchecked: "a{" + Key.dbusSignature.rawValue + Value.dbusSignature.rawValue + "}")
    }
    public var dbusValue: DBusValue {
        // Sorted by the key's wire form so encoding is deterministic.
        let entries = map { DBusValue.DictEntry($0.key.dbusValue, $0.value.dbusValue) }
        return .dictionary(key: Key.dbusSignature, value: Value.dbusSignature, entries.sorted { "\($0.key)" < "\($1.key)" })
    }
    public init(dbusValue: DBusValue) throws(DBusTypeError) {
        guard case .dictionary(let k, let v, let entries) = dbusValue, k == Key.dbusSignature, v == Value.dbusSignature else {
            throw Self.mismatch(dbusValue)
        }
        var result: [Key: Value] = [:]
        result.reserveCapacity(entries.count)
        for entry in entries {
            let key = try Key(dbusValue: entry.key)
            do { result[key] = try Value(dbusValue: entry.value) } catch {
                throw DBusTypeError(expected: error.expected, found: error.found, at: "key '\(entry.key.displayKey)'")
            }
        }
        self = result
    }
}

extension DBusValue {
    /// A key as people write it in error messages: the string itself, or the value printed.
    var displayKey: String {
        if case .string(let s) = self { return s }
        return "\(self)"
    }
}
