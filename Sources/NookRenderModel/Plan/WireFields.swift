import NookCore

/// One `a{sv}` of a plan, read key by key with the contract's types. Every failure names the
/// key's full path (`elements.0.from_rect`), so a bad plan says exactly what is wrong.
struct WireFields {
    /// Where this record sits (`""` for the plan itself, `chrome`, `scene.nodes.2`).
    let path: String
    let fields: [String: PropValue]

    init(path: String, fields: [String: PropValue]) {
        self.path = path
        self.fields = fields
    }

    func keyPath(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    func has(_ key: String) -> Bool { fields[key] != nil }

    private func wrongType(_ key: String, expected: String, found: PropValue) -> RenderPlanError {
        RenderPlanError(key: keyPath(key), message: "expected \(expected), found \(found.typeName)")
    }

    private func missing(_ key: String, _ what: String) -> RenderPlanError {
        RenderPlanError(key: keyPath(key), message: "the plan has no \(what) here")
    }

    func string(_ key: String, default fallback: String? = nil) throws(RenderPlanError) -> String {
        guard let value = fields[key] else {
            if let fallback { return fallback }
            throw missing(key, "string (s)")
        }
        guard case .string(let text) = value else { throw wrongType(key, expected: "a string (s)", found: value) }
        return text
    }

    func optionalString(_ key: String) throws(RenderPlanError) -> String? {
        guard fields[key] != nil else { return nil }
        return try string(key)
    }

    func bool(_ key: String, default fallback: Bool) throws(RenderPlanError) -> Bool {
        guard let value = fields[key] else { return fallback }
        guard case .bool(let flag) = value else { throw wrongType(key, expected: "a boolean (b)", found: value) }
        return flag
    }

    func uint(_ key: String, default fallback: UInt64? = nil) throws(RenderPlanError) -> UInt64 {
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
    func optionalDouble(_ key: String) throws(RenderPlanError) -> Double? {
        guard let value = fields[key] else { return nil }
        let number: Double
        switch value {
        case .double(let v): number = v
        case .int(let v): number = Double(v)
        case .uint(let v): number = Double(v)
        default: throw wrongType(key, expected: "a number (d)", found: value)
        }
        guard number.isFinite else { throw RenderPlanError(key: keyPath(key), message: "expected a finite number, found \(number)") }
        return number
    }

    func double(_ key: String, default fallback: Double? = nil) throws(RenderPlanError) -> Double {
        if let number = try optionalDouble(key) { return number }
        if let fallback { return fallback }
        throw missing(key, "number (d)")
    }

    /// A rect `(dddd)`: x, y, width, height; sizes must not be negative.
    func rect(_ key: String) throws(RenderPlanError) -> Rect {
        guard let value = fields[key] else { throw missing(key, "rect (dddd)") }
        guard case .structure(let parts) = value, parts.count == 4 else {
            throw wrongType(key, expected: "a rect (dddd)", found: value)
        }
        var numbers: [Double] = []
        for part in parts {
            guard case .double(let number) = part, number.isFinite else {
                throw RenderPlanError(key: keyPath(key), message: "a rect holds four finite doubles (dddd)")
            }
            numbers.append(number)
        }
        guard numbers[2] >= 0, numbers[3] >= 0 else {
            throw RenderPlanError(key: keyPath(key), message: "a rect's width and height cannot be negative")
        }
        return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    func optionalRect(_ key: String) throws(RenderPlanError) -> Rect? {
        fields[key] == nil ? nil : try rect(key)
    }

    func record(_ key: String) throws(RenderPlanError) -> WireFields {
        guard let value = fields[key] else { throw missing(key, "dictionary a{sv}") }
        guard case .dictionary(let entries) = value else { throw wrongType(key, expected: "a dictionary a{sv}", found: value) }
        return WireFields(path: keyPath(key), fields: entries)
    }

    func optionalRecord(_ key: String) throws(RenderPlanError) -> WireFields? {
        fields[key] == nil ? nil : try record(key)
    }

    /// An `aa{sv}`; absent reads as empty (the plan's lists are all optional).
    func records(_ key: String) throws(RenderPlanError) -> [WireFields] {
        guard let value = fields[key] else { return [] }
        guard case .array(let items) = value else { throw wrongType(key, expected: "an array of dictionaries aa{sv}", found: value) }
        var out: [WireFields] = []
        out.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            let itemPath = keyPath(key) + "." + String(index)
            guard case .dictionary(let entries) = item else {
                throw RenderPlanError(key: itemPath, message: "expected a dictionary a{sv}, found \(item.typeName)")
            }
            out.append(WireFields(path: itemPath, fields: entries))
        }
        return out
    }

    /// An `ad`; absent is nil.
    func optionalNumbers(_ key: String) throws(RenderPlanError) -> [Double]? {
        guard let value = fields[key] else { return nil }
        guard case .array(let items) = value else { throw wrongType(key, expected: "an array of doubles (ad)", found: value) }
        var out: [Double] = []
        for item in items {
            guard case .double(let number) = item, number.isFinite else {
                throw RenderPlanError(key: keyPath(key), message: "expected finite doubles (ad)")
            }
            out.append(number)
        }
        return out
    }
}
