import NookBus
import NookCore

/// An `a{sv}` as received, for nookctl's formatting: read through NookCore's one
/// `FieldReader`, leniently: every accessor gives a neutral default when the key is missing
/// or has another type, so nookctl shows whatever a broker sends. `values` keeps the D-Bus
/// form for what is passed on whole (JSON output, records sent back).
public struct WireRecord: Hashable, Sendable {
    public var values: [String: DBusValue]
    /// `values` as contract values: what the reader reads.
    private let props: [String: PropValue]

    public init(_ values: [String: DBusValue] = [:]) {
        self.values = values
        var props: [String: PropValue] = [:]
        for (key, value) in values {
            if let prop = try? PropValue(wire: value, at: key) { props[key] = prop }
        }
        self.props = props
    }

    /// Reads an `a{sv}` (variants around it are unwrapped); anything else gives an empty record.
    public init(_ value: DBusValue) {
        guard case .dictionary(_, _, let entries) = value.unwrappingVariants else {
            self.init()
            return
        }
        var values: [String: DBusValue] = [:]
        for entry in entries {
            guard case .string(let key) = entry.key.unwrappingVariants else { continue }
            values[key] = entry.value.unwrappingVariants
        }
        self.init(values)
    }

    private init(props: [String: PropValue]) {
        values = props.mapValues(\.wireValue)
        self.props = props
    }

    private var reader: WireFields { WireFields(fields: props) }

    public subscript(key: String) -> DBusValue? { values[key] }

    public func string(_ key: String) -> String { ((try? reader.optionalString(key)) ?? nil) ?? "" }

    public func double(_ key: String) -> Double? { (try? reader.optionalDouble(key)) ?? nil }

    public func uint(_ key: String) -> UInt64 { (try? reader.uint(key, default: 0)) ?? 0 }

    /// An `as` (other items are skipped).
    public func strings(_ key: String) -> [String] {
        guard case .array(let items)? = props[key] else { return [] }
        return items.compactMap { if case .string(let text) = $0 { text } else { nil } }
    }

    public func bool(_ key: String) -> Bool { ((try? reader.optionalBool(key)) ?? nil) ?? false }

    public func rect(_ key: String) -> Rect? { try? reader.rect(key) }

    /// The numbers of a struct or an array (a `(dddd)`, an `ad`), in order.
    public func numbers(_ key: String) -> [Double] {
        switch props[key] {
        case .structure(let items)?, .array(let items)?: items.compactMap(\.lenientDouble)
        default: []
        }
    }

    public func record(_ key: String) -> WireRecord {
        guard case .dictionary(let entries)? = props[key] else { return WireRecord() }
        return WireRecord(props: entries)
    }

    /// An `aa{sv}` (or an `av` of them); other items read as empty records.
    public func records(_ key: String) -> [WireRecord] {
        guard case .array(let items)? = props[key] else { return [] }
        return items.map { item in
            if case .dictionary(let entries) = item { WireRecord(props: entries) } else { WireRecord() }
        }
    }
}
