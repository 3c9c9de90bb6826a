/// One `a{sv}` record of the contract, read key by key with the contract's types: the one
/// typed field reader for plans, curves and scenes. Every failure names the key's full path
/// (`elements.0.from_rect`) and both types, so a bad record says exactly what is wrong.
///
/// ```swift
/// let plan = WireFields(path: "", fields: dictionary)
/// let serial = try plan.uint("serial")
/// for entry in try plan.records("elements") { _ = try entry.rect("from_rect") }
/// ```
public struct WireFields: Sendable {
    /// Where this record sits (`""` for the top, `chrome`, `scene.nodes.2`).
    public let path: String
    public let fields: [String: PropValue]

    public init(path: String, fields: [String: PropValue]) {
        self.path = path
        self.fields = fields
    }

    /// Reads a record that must be a dictionary; `(argument)` names it when `path` is empty.
    public init(path: String, value: PropValue) throws(WireFieldError) {
        guard case .dictionary(let entries) = value else {
            throw WireFieldError(key: path.isEmpty ? "(argument)" : path, message: "expected a dictionary a{sv}, found \(value.typeName)")
        }
        self.init(path: path, fields: entries)
    }

    public func keyPath(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    public func has(_ key: String) -> Bool { fields[key] != nil }

    public func error(_ key: String, _ message: String) -> WireFieldError {
        WireFieldError(key: keyPath(key), message: message)
    }

    private func wrongType(_ key: String, expected: String, found: PropValue) -> WireFieldError {
        error(key, "expected \(expected), found \(found.typeName)")
    }

    private func missing(_ key: String, _ what: String) -> WireFieldError {
        error(key, "the record has no \(what) here")
    }

    public func string(_ key: String, default fallback: String? = nil) throws(WireFieldError) -> String {
        guard let value = fields[key] else {
            if let fallback { return fallback }
            throw missing(key, "string (s)")
        }
        guard case .string(let text) = value else { throw wrongType(key, expected: "a string (s)", found: value) }
        return text
    }

    public func optionalString(_ key: String) throws(WireFieldError) -> String? {
        guard fields[key] != nil else { return nil }
        return try string(key)
    }

    public func bool(_ key: String, default fallback: Bool? = nil) throws(WireFieldError) -> Bool {
        guard let value = fields[key] else {
            if let fallback { return fallback }
            throw missing(key, "boolean (b)")
        }
        guard case .bool(let flag) = value else { throw wrongType(key, expected: "a boolean (b)", found: value) }
        return flag
    }

    public func uint(_ key: String, default fallback: UInt64? = nil) throws(WireFieldError) -> UInt64 {
        guard let value = fields[key] else {
            if let fallback { return fallback }
            throw missing(key, "unsigned integer (t)")
        }
        switch value {
        case .uint(let number): return number
        case .int(let number) where number >= 0: return UInt64(number)
        default: throw wrongType(key, expected: "an unsigned integer (t)", found: value)
        }
    }

    /// A finite number: `d`, or any integer type.
    public func optionalDouble(_ key: String) throws(WireFieldError) -> Double? {
        guard let value = fields[key] else { return nil }
        let number: Double
        switch value {
        case .double(let v): number = v
        case .int(let v): number = Double(v)
        case .uint(let v): number = Double(v)
        default: throw wrongType(key, expected: "a number (d)", found: value)
        }
        guard number.isFinite else { throw error(key, "expected a finite number, found \(number)") }
        return number
    }

    public func double(_ key: String, default fallback: Double? = nil) throws(WireFieldError) -> Double {
        if let number = try optionalDouble(key) { return number }
        if let fallback { return fallback }
        throw missing(key, "number (d)")
    }

    /// A finite number that is not negative (radii, delays, dips).
    public func nonNegative(_ key: String, default fallback: Double? = nil) throws(WireFieldError) -> Double {
        let number = try double(key, default: fallback)
        guard number >= 0 else { throw error(key, "expected a number that is not negative, found \(number)") }
        return number
    }

    /// Four finite doubles `(dddd)`.
    public func quad(_ key: String, what: String = "(dddd)") throws(WireFieldError) -> [Double] {
        guard let value = fields[key] else { throw missing(key, what) }
        let parts: [PropValue]
        switch value {
        case .structure(let items) where items.count == 4: parts = items
        default: throw wrongType(key, expected: what, found: value)
        }
        var numbers: [Double] = []
        numbers.reserveCapacity(4)
        for part in parts {
            guard case .double(let number) = part, number.isFinite else { throw error(key, "\(what) holds four finite doubles") }
            numbers.append(number)
        }
        return numbers
    }

    /// A rect `(dddd)`: x, y, width, height; sizes must not be negative.
    public func rect(_ key: String) throws(WireFieldError) -> Rect {
        let numbers = try quad(key, what: "a rect (dddd)")
        guard numbers[2] >= 0, numbers[3] >= 0 else { throw error(key, "a rect's width and height cannot be negative") }
        return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    public func optionalRect(_ key: String) throws(WireFieldError) -> Rect? {
        fields[key] == nil ? nil : try rect(key)
    }

    public func record(_ key: String) throws(WireFieldError) -> WireFields {
        guard let value = fields[key] else { throw missing(key, "dictionary a{sv}") }
        guard case .dictionary(let entries) = value else { throw wrongType(key, expected: "a dictionary a{sv}", found: value) }
        return WireFields(path: keyPath(key), fields: entries)
    }

    public func optionalRecord(_ key: String) throws(WireFieldError) -> WireFields? {
        fields[key] == nil ? nil : try record(key)
    }

    /// An `aa{sv}`; absent reads as empty (the contract's lists are all optional).
    public func records(_ key: String) throws(WireFieldError) -> [WireFields] {
        guard let value = fields[key] else { return [] }
        guard case .array(let items) = value else { throw wrongType(key, expected: "an array of dictionaries aa{sv}", found: value) }
        var out: [WireFields] = []
        out.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            let itemPath = keyPath(key) + "." + String(index)
            guard case .dictionary(let entries) = item else {
                throw WireFieldError(key: itemPath, message: "expected a dictionary a{sv}, found \(item.typeName)")
            }
            out.append(WireFields(path: itemPath, fields: entries))
        }
        return out
    }

    /// An `as`; absent reads as empty.
    public func strings(_ key: String) throws(WireFieldError) -> [String] {
        guard let value = fields[key] else { return [] }
        guard case .array(let items) = value else { throw wrongType(key, expected: "an array of strings (as)", found: value) }
        var out: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let text) = item else {
                throw WireFieldError(key: keyPath(key) + "." + String(index), message: "expected a string (s), found \(item.typeName)")
            }
            out.append(text)
        }
        return out
    }

    /// A string naming a case of `E`; an absent key is an error unless `absent` is given.
    public func choice<E: RawRepresentable>(_ key: String, _: E.Type, absent: E? = nil) throws(WireFieldError) -> E
    where E.RawValue == String {
        guard fields[key] != nil || absent == nil else { return absent! }
        let word = try string(key)
        guard let value = E(rawValue: word) else { throw error(key, "unknown value \"\(word)\"") }
        return value
    }

    /// Like `choice`, but a word this reader does not know (a newer sender's) reads as
    /// `unknown`, with one line in `warnings` saying what it is drawn as.
    public func choice<E: RawRepresentable>(
        _ key: String, _: E.Type, absent: E? = nil, unknown: E, what: String, drawnAs: String, warnings: inout [String]
    ) throws(WireFieldError) -> E where E.RawValue == String {
        guard fields[key] != nil || absent == nil else { return absent! }
        let word = try string(key)
        if let value = E(rawValue: word) { return value }
        warnings.append("\(keyPath(key)): unknown \(what) \"\(word)\", \(drawnAs)")
        return unknown
    }
}
