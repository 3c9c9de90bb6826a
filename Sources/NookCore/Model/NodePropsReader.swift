/// One node's props read into `NodeProps` through the one `FieldReader`, with the view
/// rules on top (sizes, colours, ids, groups, shared marks, params); every error names the
/// prop's path (`expanded/0.font_size`).
///
/// Only the keys the node carries are read (`present`); the order in which they are read,
/// and so which of two bad props is named, is the order below.
struct NodePropsReader {
    let fields: FieldReader<ViewValidationError>
    let present: PropKeySet
    let limits: ViewLimits

    init(props: [String: PropValue], present: PropKeySet? = nil, path: String, limits: ViewLimits) {
        fields = FieldReader(path: path, fields: props)
        self.present = present ?? PropKeySet(props)
        self.limits = limits
    }


    func read(kind: NodeKind, diagnostics: inout [Diagnostic]) throws(ViewValidationError) -> NodeProps {
        // Absent props are left alone: storing nil still built an empty property group.
        var p = NodeProps()
        // Generated from data/contract.json: one typed reader below per key the kind takes.
        try readKeys(kind: kind, into: &p, diagnostics: &diagnostics)
        if kind == .image, let symbol = p.symbol, SymbolNames.iconName(for: symbol) == nil {
            diagnostics.append(Self.unknownSymbolDiagnostic(symbol, path: keyPath(.symbol)))
        }
        return p
    }

    // MARK: Typed readers

    private func keyPath(_ key: PropKey) -> String { fields.keyPath(key.name) }

    private func wrongType(_ key: PropKey, expected: String, found: PropValue) -> ViewValidationError {
        fields.wrongType(key.name, expected: expected, found: found)
    }

    /// The value of `key`, or nil without a lookup when the node does not carry it.
    private func value(_ key: PropKey) -> PropValue? { present.contains(key) ? fields.fields[key.name] : nil }

    /// A size: within `NumberDomain.length` (finite, not negative, at most 100,000 pt).
    func size(_ key: PropKey) throws(ViewValidationError) -> Double? {
        guard present.contains(key), let number = try fields.optionalNumber(key.name) else { return nil }
        try Self.checkSize(number, at: keyPath(key))
        return number
    }

    static func checkSize(_ number: Double, at path: String) throws(ViewValidationError) {
        if let problem = NumberDomain.length.problem(number) {
            throw ViewValidationError(path: path, code: .invalidSize, message: "a size must be finite, not negative and at most \(NumberText.short(NumberDomain.length.upper)) pt: \(problem)")
        }
    }

    /// `min_*` at most `max_*`, once both are read.
    func checkSizeOrder(_ p: NodeProps) throws(ViewValidationError) {
        try checkOrder(.minWidth, p.minWidth, .maxWidth, p.maxWidth)
        try checkOrder(.minHeight, p.minHeight, .maxHeight, p.maxHeight)
    }

    private func checkOrder(_ minKey: PropKey, _ min: Double?, _ maxKey: PropKey, _ max: Double?)
        throws(ViewValidationError)
    {
        if let min, let max, min > max {
            throw ViewValidationError(
                path: keyPath(minKey), code: .invalidSize, message: "\(minKey.name) \(min) exceeds \(maxKey.name) \(max)")
        }
    }

    func fraction(_ key: PropKey) throws(ViewValidationError) -> Double? {
        guard present.contains(key), let number = try fields.optionalNumber(key.name) else { return nil }
        if let problem = NumberDomain.unitInterval.problem(number) {
            throw ViewValidationError(path: keyPath(key), code: .invalidValue, message: "expected a number in 0...1: \(problem)")
        }
        return number
    }

    /// A whole number within `range`; any D-Bus integer is read (a double is not).
    func count(_ key: PropKey, in range: ClosedRange<Int>) throws(ViewValidationError) -> Int? {
        guard let value = value(key) else { return nil }
        guard let number = value.lenientInt64 else { throw wrongType(key, expected: "i", found: value) }
        guard number >= Int64(range.lowerBound), number <= Int64(range.upperBound) else {
            throw ViewValidationError(
                path: keyPath(key), code: .invalidValue, message: "expected a whole number in \(range.lowerBound)...\(range.upperBound), found \(number)")
        }
        return Int(number)
    }

    func date(_ key: PropKey) throws(ViewValidationError) -> Int64? {
        present.contains(key) ? try fields.date(key.name) : nil
    }

    func bool(_ key: PropKey) throws(ViewValidationError) -> Bool? {
        present.contains(key) ? try fields.optionalBool(key.name) : nil
    }

    private func string(_ key: PropKey, max: Int) throws(ViewValidationError) -> String? {
        present.contains(key) ? try fields.optionalString(key.name, maxBytes: max) : nil
    }

    /// Free text, at most `ViewLimits.maxStringBytes`.
    func string(_ key: PropKey) throws(ViewValidationError) -> String? { try string(key, max: limits.maxStringBytes) }

    /// A name (a weight, a symbol), at most `ViewLimits.maxNameBytes`.
    func name(_ key: PropKey) throws(ViewValidationError) -> String? { try string(key, max: limits.maxNameBytes) }

    static func checkLength(_ text: String, max: Int, at path: String) throws(ViewValidationError) {
        let bytes = text.utf8.count
        if bytes > max {
            throw ViewValidationError(
                path: path, code: .stringTooLong, message: "string is \(bytes) bytes long (at most \(max))")
        }
    }

    func choice<E: RawRepresentable & CaseIterable>(_ key: PropKey, _ type: E.Type) throws(ViewValidationError) -> E?
    where E.RawValue == String {
        present.contains(key) ? try fields.optionalChoice(key.name, type, maxBytes: limits.maxNameBytes) : nil
    }

    func identifier(_ key: PropKey, at path: String? = nil) throws(ViewValidationError) -> String? {
        guard let text = try string(key, max: limits.maxStringBytes) else { return nil }
        try Self.checkIdentifier(text, at: path ?? keyPath(key), code: .invalidId, what: "id")
        return text
    }

    static func checkIdentifier(_ text: String, at path: String, code: ViewValidationError.Code, what: String)
        throws(ViewValidationError)
    {
        if let problem = Identifier.problem(text) {
            throw ViewValidationError(path: path, code: code, message: "\(what) \"\(InputQuote.text(text))\" \(problem)")
        }
    }

    func padding(_ key: PropKey) throws(ViewValidationError) -> EdgeInsets? {
        guard let value = value(key) else { return nil }
        guard case .structure(let fields) = value, fields.count == 4 else {
            throw wrongType(.padding, expected: "(dddd)", found: value)
        }
        var edges: [Double] = []
        for field in fields {
            guard let number = field.lenientDouble else { throw wrongType(.padding, expected: "(dddd)", found: value) }
            try Self.checkSize(number, at: keyPath(.padding))
            edges.append(number)
        }
        return EdgeInsets(top: edges[0], leading: edges[1], bottom: edges[2], trailing: edges[3])
    }

    func color(_ key: PropKey) throws(ViewValidationError) -> String? {
        guard let text = try string(key, max: limits.maxNameBytes) else { return nil }
        guard Self.isColor(text) else {
            throw ViewValidationError(
                path: keyPath(key), code: .invalidValue, message: "expected a colour #RRGGBB or #RRGGBBAA, found \"\(InputQuote.text(text))\"")
        }
        return text
    }

    /// `group`: `""` for an anonymous group, else its name; `group/<name>` is accepted too.
    func group(_: PropKey) throws(ViewValidationError) -> String? {
        guard var text = try string(.group, max: limits.maxStringBytes) else { return nil }
        if text.hasPrefix("group/") { text.removeFirst("group/".count) }
        if !text.isEmpty {
            try Self.checkIdentifier(text, at: keyPath(.group), code: .invalidGroupName, what: "group name")
        }
        return text
    }

    /// `group_state`: state name -> b. `focus`, `disabled`, `active` are the contract's; other
    /// names are explicit states a module defines, so they are kept.
    func groupState(_: PropKey) throws(ViewValidationError) -> [String: Bool]? {
        guard let value = value(.groupState) else { return nil }
        guard case .dictionary(let entries) = value else { throw wrongType(.groupState, expected: "a{sv}", found: value) }
        if entries.count > limits.maxParamEntries {
            throw ViewValidationError(
                path: keyPath(.groupState), code: .tooManyParams,
                message: "\(entries.count) states (at most \(limits.maxParamEntries))")
        }
        var states: [String: Bool] = [:]
        for (name, entry) in entries {
            let entryPath = NodePath.prop(keyPath(.groupState), name)
            try Self.checkIdentifier(name, at: entryPath, code: .invalidValue, what: "state name")
            guard case .bool(let flag) = entry else {
                throw ViewValidationError(
                    path: entryPath, code: .wrongType, message: "expected type b, found \(entry.typeName)")
            }
            states[name] = flag
        }
        return states
    }

    func shared(_: PropKey, diagnostics: inout [Diagnostic]) throws(ViewValidationError) -> SharedMark? {
        guard let value = value(.shared) else { return nil }
        guard case .dictionary(let entries) = value else { throw wrongType(.shared, expected: "a{sv}", found: value) }
        let sharedPath = keyPath(.shared)
        let inner = NodePropsReader(props: entries, path: sharedPath, limits: limits)
        for key in inner.present.keys(notIn: ViewValidator.sharedMask) {
            diagnostics.append(Self.unknownSharedKeyDiagnostic(key, sharedPath: sharedPath))
        }
        guard let id = try inner.identifier(.id) else {
            throw ViewValidationError(
                path: NodePath.prop(sharedPath, "id"), code: .missingKey, message: "a shared mark needs an id")
        }
        var mark = SharedMark(id: id)
        mark.style = try inner.choice(.style, SharedStyle.self) ?? .resize
        if let namespace = try inner.string(.namespace, max: limits.maxStringBytes), !namespace.isEmpty {
            try Self.checkIdentifier(namespace, at: inner.keyPath(.namespace), code: .invalidId, what: "namespace")
            mark.namespace = namespace
        }
        mark.properties = try inner.choice(.properties, SharedProperties.self) ?? .frame
        mark.anchor = try inner.choice(.anchor, SharedAnchor.self) ?? .center
        mark.isSource = try inner.bool(.isSource) ?? true
        return mark
    }

    func params(_: PropKey) throws(ViewValidationError) -> [String: PropValue]? {
        guard let value = value(.params) else { return nil }
        guard case .dictionary(let entries) = value else { throw wrongType(.params, expected: "a{sv}", found: value) }
        var budget = limits.maxParamEntries
        try checkParam(value, path: keyPath(.params), depth: 1, budget: &budget)
        return entries
    }

    /// Walks a free-form value, charging every entry against `budget`.
    private func checkParam(_ value: PropValue, path: String, depth: Int, budget: inout Int) throws(ViewValidationError) {
        func charge() throws(ViewValidationError) {
            budget -= 1
            if budget < 0 {
                throw ViewValidationError(
                    path: path, code: .tooManyParams, message: "params hold more than \(limits.maxParamEntries) entries")
            }
        }
        switch value {
        case .string(let text):
            try Self.checkLength(text, max: limits.maxStringBytes, at: path)
        case .node:
            throw ViewValidationError(path: path, code: .wrongType, message: "params may not carry view nodes")
        case .array(let items), .structure(let items):
            guard depth <= limits.maxParamDepth else { throw paramsTooDeep(path) }
            for (index, item) in items.enumerated() {
                try charge()
                try checkParam(item, path: NodePath.prop(path, String(index)), depth: depth + 1, budget: &budget)
            }
        case .dictionary(let entries):
            guard depth <= limits.maxParamDepth else { throw paramsTooDeep(path) }
            for key in entries.keys.sorted() {
                try charge()
                try Self.checkLength(key, max: limits.maxNameBytes, at: NodePath.prop(path, key))
                try checkParam(entries[key]!, path: NodePath.prop(path, key), depth: depth + 1, budget: &budget)
            }
        case .double(let number):
            if let problem = NumberDomain.paramNumber.problem(number) {
                throw ViewValidationError(path: path, code: .invalidValue, message: "params numbers must be finite: \(problem)")
            }
        case .bool, .int, .uint:
            break
        }
    }

    private func paramsTooDeep(_ path: String) -> ViewValidationError {
        ViewValidationError(path: path, code: .tooManyParams, message: "params nest deeper than \(limits.maxParamDepth) levels")
    }
}

// MARK: One pass

/// The common case, a node whose props are all good, read in one pass over its dictionary:
/// each key is named by its bytes (no hashing), read once, and no path or message is built
/// unless a diagnostic is produced. Anything wrong (a bad type, a number out of its domain,
/// a missing shared id, min above max) returns nil, and the caller reads the node again the
/// ordered way above, which throws the error it always threw; so errors, their order and their
/// texts are the ordered reader's by construction. `OnePassPropsTests` compares the two.
extension NodePropsReader {
    /// The node's props, with its diagnostics (unknown keys, the node's then its shared mark's,
    /// then an unknown symbol) appended to `diagnostics`; nil when anything is wrong.
    static func readInOnePass(
        _ props: [String: PropValue], kind: NodeKind, path: String, limits: ViewLimits, diagnostics: inout [Diagnostic]
    ) -> NodeProps? {
        var p = NodeProps()
        var unknown: [String] = []
        var reader = OnePassReader(limits: limits)
        for (name, value) in props {
            guard let key = PropKey.named(name), Self.reads(kind, key) else {
                unknown.append(name)
                continue
            }
            // Generated from data/contract.json: the key's reader below, its value stored.
            guard reader.read(key, value, into: &p) else { return nil }
        }
        guard OnePassReader.checksHold(p) else { return nil }

        if !unknown.isEmpty {
            for key in unknown.count > 1 ? unknown.sorted() : unknown {
                diagnostics.append(unknownPropDiagnostic(key, kind: kind, path: path))
            }
        }
        if !reader.sharedUnknown.isEmpty {
            let sharedPath = keyPath(path, PropKey.shared.name)
            for key in reader.sharedUnknown.count > 1 ? reader.sharedUnknown.sorted() : reader.sharedUnknown {
                diagnostics.append(unknownSharedKeyDiagnostic(key, sharedPath: sharedPath))
            }
        }
        if kind == .image, let symbol = p.symbol, SymbolNames.iconName(for: symbol) == nil {
            diagnostics.append(unknownSymbolDiagnostic(symbol, path: keyPath(path, PropKey.symbol.name)))
        }
        return p
    }

    /// `FieldReader.keyPath`: what errors and the ordered reader's diagnostics name a prop by.
    private static func keyPath(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// `#RRGGBB` or `#RRGGBBAA`.
    static func isColor(_ text: String) -> Bool {
        let digits = text.utf8.dropFirst()
        let isHex = digits.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }
        return text.hasPrefix("#") && (digits.count == 6 || digits.count == 8) && isHex
    }

    static func unknownPropDiagnostic(_ key: String, kind: NodeKind, path: String) -> Diagnostic {
        Diagnostic(
            .unknownKey, .info, "prop \"\(InputQuote.text(key))\" is not known for a \(kind.rawValue) node and was ignored",
            path: NodePath.prop(path, key))
    }

    static func unknownSharedKeyDiagnostic(_ key: String, sharedPath: String) -> Diagnostic {
        Diagnostic(
            .unknownKey, .info, "shared key \"\(InputQuote.text(key))\" is not known and was ignored",
            path: NodePath.prop(sharedPath, key))
    }

    static func unknownSymbolDiagnostic(_ symbol: String, path: String) -> Diagnostic {
        Diagnostic(
            .unknownSymbol, .warning,
            "symbol \"\(symbol.prefix(64))\" is not one Nook maps (docs/module-guide.md lists them); nook-renderer draws its generic icon",
            path: path)
    }
}
