/// An `a{sv}` record, the contract's extensible argument: typed reads that name the key.
///
/// ```swift
/// let spec = try Vardict(args[1])
/// let label: String = try spec.required("accessibility_label")
/// let relevance: Double? = try spec.optional("relevance")
/// ```
public struct Vardict: Hashable, Sendable {
    public var values: [String: DBusValue]

    public init(_ values: [String: DBusValue] = [:]) { self.values = values }

    /// Reads an `a{sv}` value, unwrapping the variants.
    public init(_ value: DBusValue, at location: String = "value") throws(DBusTypeError) {
        guard case .dictionary(let k, let v, let entries) = value, k == "s", v == "v" else {
            throw DBusTypeError(expected: "a{sv}", found: value.signature, at: location)
        }
        var values: [String: DBusValue] = [:]
        values.reserveCapacity(entries.count)
        for entry in entries {
            guard case .string(let key) = entry.key, case .variant(let inner) = entry.value else { continue }
            values[key] = inner
        }
        self.values = values
    }

    public subscript(key: String) -> DBusValue? {
        get { values[key] }
        set { values[key] = newValue }
    }

    public var keys: Dictionary<String, DBusValue>.Keys { values.keys }

    public func required<T: DBusConvertible>(_ key: String, as type: T.Type = T.self) throws(VardictError) -> T {
        guard let value = values[key] else { throw .missingKey(key) }
        return try convert(value, key: key)
    }

    public func optional<T: DBusConvertible>(_ key: String, as type: T.Type = T.self) throws(VardictError) -> T? {
        guard let value = values[key] else { return nil }
        return try convert(value, key: key)
    }

    private func convert<T: DBusConvertible>(_ value: DBusValue, key: String) throws(VardictError) -> T {
        do { return try T(dbusValue: value) } catch {
            throw .wrongType(key: key, expected: T.dbusSignature, found: value.signature)
        }
    }

    /// The `a{sv}` wire value, keys in order.
    public var dbusValue: DBusValue { .vardict(values) }
}

public enum VardictError: Error, Hashable, Sendable, CustomStringConvertible {
    case missingKey(String)
    case wrongType(key: String, expected: Signature, found: Signature)

    public var description: String {
        switch self {
        case .missingKey(let key): "missing required key '\(key)'"
        case .wrongType(let key, let expected, let found): "key '\(key)': expected signature '\(expected)', found '\(found)'"
        }
    }
}
