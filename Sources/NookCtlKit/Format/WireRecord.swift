import NookBus
import NookCore

/// An `a{sv}` as received, read generically and leniently: every accessor names a contract
/// key and gives a neutral default when the key is missing or has another type, so nookctl
/// formats whatever a broker sends without depending on its internals.
public struct WireRecord: Hashable, Sendable {
    public var values: [String: DBusValue]

    public init(_ values: [String: DBusValue] = [:]) { self.values = values }

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

    public subscript(key: String) -> DBusValue? { values[key] }

    public func string(_ key: String) -> String {
        switch values[key] {
        case .string(let text)?: text
        case .objectPath(let path)?: path.rawValue
        default: ""
        }
    }

    public func double(_ key: String) -> Double? { values[key].flatMap(WireRecord.number) }

    public func uint(_ key: String) -> UInt64 {
        switch values[key] {
        case .uint64(let n)?: n
        case .uint32(let n)?: UInt64(n)
        case .int64(let n)? where n >= 0: UInt64(n)
        case .int32(let n)? where n >= 0: UInt64(n)
        // Past 2^64 the conversion would trap: a broker's number never crashes nookctl.
        case .double(let d)? where d >= 0 && d < 0x1p64: UInt64(d)
        default: 0
        }
    }

    /// An `as` (other items are skipped).
    public func strings(_ key: String) -> [String] {
        guard case .array(_, let items)? = values[key] else { return [] }
        return items.compactMap { item in
            if case .string(let text) = item.unwrappingVariants { return text }
            return nil
        }
    }

    public func bool(_ key: String) -> Bool {
        if case .bool(let flag)? = values[key] { return flag }
        return false
    }

    public func rect(_ key: String) -> Rect? {
        let numbers = values[key].map(WireRecord.numbers) ?? []
        guard numbers.count == 4 else { return nil }
        return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    public func record(_ key: String) -> WireRecord { values[key].map(WireRecord.init) ?? WireRecord() }

    /// An `aa{sv}` (or an `av` of them).
    public func records(_ key: String) -> [WireRecord] {
        guard case .array(_, let items)? = values[key] else { return [] }
        return items.map(WireRecord.init)
    }

    /// Any D-Bus number as a Double.
    static func number(_ value: DBusValue) -> Double? {
        switch value.unwrappingVariants {
        case .double(let d): d
        case .byte(let n): Double(n)
        case .int16(let n): Double(n)
        case .uint16(let n): Double(n)
        case .int32(let n): Double(n)
        case .uint32(let n): Double(n)
        case .int64(let n): Double(n)
        case .uint64(let n): Double(n)
        default: nil
        }
    }

    /// The numbers of a struct or an array, in order (a `(dddd)` rect, an `ad`).
    static func numbers(_ value: DBusValue) -> [Double] {
        switch value.unwrappingVariants {
        case .structure(let fields): fields.compactMap(number)
        case .array(_, let items): items.compactMap(number)
        default: []
        }
    }
}
