/// The one typed field reader for the contract's `a{sv}` records: plans, curves and scenes
/// (`WireFields`), view props (`ViewValidator`), call arguments (nookd's registry and
/// broker). Every failure names the key's full path (`elements.0.from_rect`) and both types
/// ("expected type (dddd), found s"); `Failure` is the caller's error type, built from it.
///
/// ```swift
/// let plan = WireFields(path: "", fields: dictionary)
/// let serial = try plan.uint("serial")
/// for entry in try plan.records("elements") { _ = try entry.rect("from_rect") }
/// ```
public struct FieldReader<Failure: FieldReadFailure>: Sendable {
    /// Where this record sits (`""` for the top, `chrome`, `scene.nodes.2`).
    public let path: String
    public let fields: [String: PropValue]
    private let contextParts: Context

    /// What the record is, carried into every error (`StartActivity "x" spec`).
    public var context: String { contextParts.text }

    /// A context as given, or one written only when an error or diagnostic asks for it.
    enum Context: Sendable {
        case text(String)
        /// `<call> "<subject, quoted>" <record>`: `UpdateActivity "song" changes`.
        case call(StaticString, subject: String, record: StaticString)

        var text: String {
            switch self {
            case .text(let text): text
            case .call(let call, let subject, let record): "\(call) \"\(InputQuote.text(subject))\" \(record)"
            }
        }
    }

    public init(path: String = "", fields: [String: PropValue], context: String = "") {
        self.init(path: path, fields: fields, contextParts: .text(context))
    }

    /// A call's argument whose context, `<call> "<subject>" <record>` (`UpdateActivity "song"
    /// changes`, the subject quoted with `InputQuote`), is written only when a message needs it.
    public init(fields: [String: PropValue], call: StaticString, subject: String, record: StaticString) {
        self.init(path: "", fields: fields, contextParts: .call(call, subject: subject, record: record))
    }

    private init(path: String, fields: [String: PropValue], contextParts: Context) {
        self.path = path
        self.fields = fields
        self.contextParts = contextParts
    }

    /// Reads a record that must be a dictionary; `(argument)` names it when `path` is empty.
    public init(path: String, value: PropValue, context: String = "") throws(Failure) {
        guard case .dictionary(let entries) = value else {
            throw Failure(field: WireFieldError(
                key: path.isEmpty ? "(argument)" : path, message: Self.wrongTypeText("a{sv}", value), kind: .wrongType, context: context))
        }
        self.init(path: path, fields: entries, context: context)
    }

    public func keyPath(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    public func has(_ key: String) -> Bool { fields[key] != nil }

    public func error(_ key: String, _ message: String, kind: WireFieldError.Kind = .invalidValue) -> Failure {
        Failure(field: WireFieldError(key: keyPath(key), message: message, kind: kind, context: context))
    }

    static func wrongTypeText(_ expected: String, _ found: PropValue) -> String {
        "expected type \(expected), found \(found.typeName)"
    }

    public func wrongType(_ key: String, expected: String, found: PropValue) -> Failure {
        error(key, Self.wrongTypeText(expected, found), kind: .wrongType)
    }

    private func missing(_ key: String, _ what: String) -> Failure {
        error(key, "the record has no \(what) here", kind: .missing)
    }

    // MARK: Optional reads: nil when absent, an error when present with another type

    public func optionalString(_ key: String) throws(Failure) -> String? { try optionalString(key, given: fields[key]) }

    /// `optionalString(key)` of a value already looked up (nil: absent): every `optional*`
    /// read has this form, for callers that read a record in one pass.
    public func optionalString(_ key: String, given value: PropValue?) throws(Failure) -> String? {
        guard let value else { return nil }
        guard case .string(let text) = value else { throw wrongType(key, expected: "s", found: value) }
        return text
    }

    /// A string of at most `maxBytes` UTF-8 bytes.
    public func optionalString(_ key: String, maxBytes: Int) throws(Failure) -> String? {
        try optionalString(key, given: fields[key], maxBytes: maxBytes)
    }

    public func optionalString(_ key: String, given value: PropValue?, maxBytes: Int) throws(Failure) -> String? {
        guard let text = try optionalString(key, given: value) else { return nil }
        let bytes = text.utf8.count
        if bytes > maxBytes { throw error(key, "string is \(bytes) bytes long (at most \(maxBytes))", kind: .tooLong) }
        return text
    }

    public func optionalBool(_ key: String) throws(Failure) -> Bool? { try optionalBool(key, given: fields[key]) }

    public func optionalBool(_ key: String, given value: PropValue?) throws(Failure) -> Bool? {
        guard let value else { return nil }
        guard case .bool(let flag) = value else { throw wrongType(key, expected: "b", found: value) }
        return flag
    }

    /// An `x`, or any integer that fits one (contract 1.1).
    public func optionalInt64(_ key: String) throws(Failure) -> Int64? { try optionalInt64(key, given: fields[key]) }

    public func optionalInt64(_ key: String, given value: PropValue?) throws(Failure) -> Int64? {
        guard let value else { return nil }
        guard let number = value.lenientInt64 else { throw wrongType(key, expected: "x", found: value) }
        return number
    }

    /// A `t`: only an unsigned integer.
    public func optionalUInt64(_ key: String) throws(Failure) -> UInt64? { try optionalUInt64(key, given: fields[key]) }

    public func optionalUInt64(_ key: String, given value: PropValue?) throws(Failure) -> UInt64? {
        guard let value else { return nil }
        guard case .uint(let number) = value else { throw wrongType(key, expected: "t", found: value) }
        return number
    }

    /// A `d`, or any integer type, not yet checked against a domain (the caller's own words do).
    public func optionalNumber(_ key: String) throws(Failure) -> Double? { try optionalNumber(key, given: fields[key]) }

    public func optionalNumber(_ key: String, given value: PropValue?) throws(Failure) -> Double? {
        guard let value else { return nil }
        guard let number = value.lenientDouble else { throw wrongType(key, expected: "d", found: value) }
        return number
    }

    /// A finite `d`, or any integer type.
    public func optionalDouble(_ key: String) throws(Failure) -> Double? {
        guard let number = try optionalNumber(key) else { return nil }
        guard number.isFinite else { throw error(key, "expected a finite number, found \(number)") }
        return number
    }

    /// A number within `domain`; the message is the domain's own ("1e+308 is outside 0...60 s").
    public func number(_ key: String, in domain: NumberDomain) throws(Failure) -> Double? {
        try number(key, given: fields[key], in: domain)
    }

    public func number(_ key: String, given value: PropValue?, in domain: NumberDomain) throws(Failure) -> Double? {
        guard let number = try optionalNumber(key, given: value) else { return nil }
        if let problem = domain.problem(number) { throw error(key, problem) }
        return number
    }

    /// Unix microseconds within `NumberDomain.unixDate` (years 1970..2200), so no date
    /// arithmetic on it can overflow.
    public func date(_ key: String) throws(Failure) -> Int64? { try date(key, given: fields[key]) }

    public func date(_ key: String, given value: PropValue?) throws(Failure) -> Int64? {
        guard let number = try optionalInt64(key, given: value) else { return nil }
        if let problem = NumberDomain.unixDate.problem(Double(number)) {
            throw error(key, "a date in unix microseconds must be in \(NumberDomain.unixDate.rangeText): \(problem)")
        }
        return number
    }

    public func optionalNode(_ key: String) throws(Failure) -> RawNode? { try optionalNode(key, given: fields[key]) }

    public func optionalNode(_ key: String, given value: PropValue?) throws(Failure) -> RawNode? {
        guard let value else { return nil }
        guard case .node(let node) = value else { throw wrongType(key, expected: "v holding a view node (sa{sv}av)", found: value) }
        return node
    }

    /// A string naming a case of `E`, of at most `maxBytes`; the error lists the allowed words.
    public func optionalChoice<E: RawRepresentable & CaseIterable>(_ key: String, _ type: E.Type, maxBytes: Int = 256)
        throws(Failure) -> E? where E.RawValue == String
    {
        try optionalChoice(key, given: fields[key], type, maxBytes: maxBytes)
    }

    public func optionalChoice<E: RawRepresentable & CaseIterable>(_ key: String, given value: PropValue?, _: E.Type, maxBytes: Int = 256)
        throws(Failure) -> E? where E.RawValue == String
    {
        guard let text = try optionalString(key, given: value, maxBytes: maxBytes) else { return nil }
        guard let value = E(rawValue: text) else {
            let allowed = E.allCases.map(\.rawValue).joined(separator: ", ")
            throw error(key, "\"\(InputQuote.text(text))\" is not one of: \(allowed)")
        }
        return value
    }

    public func optionalRecord(_ key: String) throws(Failure) -> Self? {
        fields[key] == nil ? nil : try record(key)
    }

    // MARK: Required reads (with an optional default), for plans

    public func string(_ key: String, default fallback: String? = nil) throws(Failure) -> String {
        if let text = try optionalString(key) { return text }
        if let fallback { return fallback }
        throw missing(key, "string (s)")
    }

    public func bool(_ key: String, default fallback: Bool? = nil) throws(Failure) -> Bool {
        if let flag = try optionalBool(key) { return flag }
        if let fallback { return fallback }
        throw missing(key, "boolean (b)")
    }

    /// A `t`; a non-negative `x` reads too.
    public func uint(_ key: String, default fallback: UInt64? = nil) throws(Failure) -> UInt64 {
        guard let value = fields[key] else {
            if let fallback { return fallback }
            throw missing(key, "unsigned integer (t)")
        }
        switch value {
        case .uint(let number): return number
        case .int(let number) where number >= 0: return UInt64(number)
        default: throw wrongType(key, expected: "t", found: value)
        }
    }

    public func double(_ key: String, default fallback: Double? = nil) throws(Failure) -> Double {
        if let number = try optionalDouble(key) { return number }
        if let fallback { return fallback }
        throw missing(key, "number (d)")
    }

    /// A finite number that is not negative (radii, delays, dips).
    public func nonNegative(_ key: String, default fallback: Double? = nil) throws(Failure) -> Double {
        let number = try double(key, default: fallback)
        guard number >= 0 else { throw error(key, "expected a number that is not negative, found \(number)") }
        return number
    }

    /// Four finite doubles `(dddd)`.
    public func quad(_ key: String, what: String = "(dddd)") throws(Failure) -> [Double] {
        guard let value = fields[key] else { throw missing(key, what) }
        guard case .structure(let parts) = value, parts.count == 4 else { throw wrongType(key, expected: "(dddd)", found: value) }
        var numbers: [Double] = []
        numbers.reserveCapacity(4)
        for part in parts {
            guard case .double(let number) = part, number.isFinite else { throw error(key, "\(what) holds four finite doubles") }
            numbers.append(number)
        }
        return numbers
    }

    /// A rect `(dddd)`: x, y, width, height; sizes must not be negative.
    public func rect(_ key: String) throws(Failure) -> Rect {
        let numbers = try quad(key, what: "a rect (dddd)")
        guard numbers[2] >= 0, numbers[3] >= 0 else { throw error(key, "a rect's width and height cannot be negative") }
        return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    public func record(_ key: String) throws(Failure) -> Self {
        guard let value = fields[key] else { throw missing(key, "dictionary a{sv}") }
        guard case .dictionary(let entries) = value else { throw wrongType(key, expected: "a{sv}", found: value) }
        return Self(path: keyPath(key), fields: entries, contextParts: contextParts)
    }

    /// An `aa{sv}`; absent reads as empty (the contract's lists are all optional).
    public func records(_ key: String) throws(Failure) -> [Self] {
        guard let value = fields[key] else { return [] }
        guard case .array(let items) = value else { throw wrongType(key, expected: "aa{sv}", found: value) }
        var out: [Self] = []
        out.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            let itemPath = keyPath(key) + "." + String(index)
            guard case .dictionary(let entries) = item else {
                throw Failure(field: WireFieldError(key: itemPath, message: Self.wrongTypeText("a{sv}", item), kind: .wrongType, context: context))
            }
            out.append(Self(path: itemPath, fields: entries, contextParts: contextParts))
        }
        return out
    }

    /// An `as`; absent reads as empty.
    public func strings(_ key: String) throws(Failure) -> [String] {
        guard let value = fields[key] else { return [] }
        guard case .array(let items) = value else { throw wrongType(key, expected: "as", found: value) }
        var out: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let text) = item else {
                throw Failure(field: WireFieldError(
                    key: keyPath(key) + "." + String(index), message: Self.wrongTypeText("s", item), kind: .wrongType, context: context))
            }
            out.append(text)
        }
        return out
    }

    /// A string naming a case of `E`; an absent key is an error unless `absent` is given.
    public func choice<E: RawRepresentable>(_ key: String, _: E.Type, absent: E? = nil) throws(Failure) -> E
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
    ) throws(Failure) -> E where E.RawValue == String {
        guard fields[key] != nil || absent == nil else { return absent! }
        return try knownChoice(key, E.self, what: what, drawnAs: drawnAs, warnings: &warnings) ?? unknown
    }

    /// Like `choice`, but a word this reader does not know (a newer sender's) reads as nil,
    /// with one line in `warnings` saying what becomes of the record (`applied at once`).
    public func knownChoice<E: RawRepresentable>(
        _ key: String, _: E.Type, what: String, drawnAs: String, warnings: inout [String]
    ) throws(Failure) -> E? where E.RawValue == String {
        let word = try string(key)
        if let value = E(rawValue: word) { return value }
        warnings.append("\(keyPath(key)): unknown \(what) \"\(word)\", \(drawnAs)")
        return nil
    }
}

/// Plans, curves and scenes: errors are `WireFieldError`s.
public typealias WireFields = FieldReader<WireFieldError>
