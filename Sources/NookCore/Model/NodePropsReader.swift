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
        if let value = try size(.width) { p.width = value }
        if let value = try size(.height) { p.height = value }
        if let value = try size(.minWidth) { p.minWidth = value }
        if let value = try size(.maxWidth) { p.maxWidth = value }
        if let value = try size(.minHeight) { p.minHeight = value }
        if let value = try size(.maxHeight) { p.maxHeight = value }
        try checkOrder(.minWidth, p.minWidth, .maxWidth, p.maxWidth)
        try checkOrder(.minHeight, p.minHeight, .maxHeight, p.maxHeight)
        if let value = try padding() { p.padding = value }
        if let value = try unitInterval(.opacity) { p.opacity = value }
        if let value = try string(.classes, max: limits.maxStringBytes) { p.classes = value }
        if let value = try group() { p.group = value }
        if let value = try groupState() { p.groupState = value }
        if let value = try identifier(.identity) { p.identity = value }
        if let value = try choice(.role, NodeRole.self) { p.role = value }
        if let value = try string(.animationValue, max: limits.maxStringBytes) { p.animationValue = value }
        if let value = try shared(diagnostics: &diagnostics) { p.shared = value }
        if let value = try bool(.animate) { p.animate = value }
        // Contract 1.1 (Touch): the node is a control; `action_label` is its accessible name.
        if let value = try identifier(.action) { p.action = value }
        if let value = try string(.actionLabel, max: limits.maxStringBytes) { p.actionLabel = value }

        switch kind {
        case .vstack, .hstack, .zstack:
            if let value = try size(.spacing) { p.spacing = value }
            if let value = try choice(.alignment, Alignment.self) { p.alignment = value }
            if let value = try bool(.stagger) { p.stagger = value }
        case .text:
            if let value = try string(.text, max: limits.maxStringBytes) { p.text = value }
            if let value = try size(.fontSize) { p.fontSize = value }
            if let value = try string(.fontWeight, max: limits.maxNameBytes) { p.fontWeight = value }
            if let value = try bool(.monospacedDigits) { p.monospacedDigits = value }
            if let value = try date(.timerEnd) { p.timerEnd = value }
            if let value = try color(.color) { p.color = value }
        case .image:
            if let value = try string(.symbol, max: limits.maxNameBytes) { p.symbol = value }
            if let value = try string(.uri, max: limits.maxStringBytes) { p.uri = value }
            if let value = try color(.color) { p.color = value }
            if let symbol = p.symbol, SymbolNames.iconName(for: symbol) == nil {
                diagnostics.append(Self.unknownSymbolDiagnostic(symbol, path: keyPath(.symbol)))
            }
        case .shape:
            if let value = try choice(.shape, ShapeKind.self) { p.shape = value }
            if let value = try size(.cornerRadius) { p.cornerRadius = value }
            if let value = try color(.color) { p.color = value }
        case .progress:
            if let value = try unitInterval(.value) { p.value = value }
            if let value = try date(.start) { p.start = value }
            if let value = try date(.end) { p.end = value }
            if let value = try choice(.style, ProgressStyle.self) { p.progressStyle = value }
        case .spacer:
            if let value = try size(.minLength) { p.minLength = value }
        case .view:
            if let value = try string(.name, max: limits.maxNameBytes) { p.name = value }
            if let value = try params() { p.params = value }
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
    private func size(_ key: PropKey) throws(ViewValidationError) -> Double? {
        guard present.contains(key), let number = try fields.optionalNumber(key.name) else { return nil }
        try Self.checkSize(number, at: keyPath(key))
        return number
    }

    static func checkSize(_ number: Double, at path: String) throws(ViewValidationError) {
        if let problem = NumberDomain.length.problem(number) {
            throw ViewValidationError(path: path, code: .invalidSize, message: "a size must be finite, not negative and at most \(NumberText.short(NumberDomain.length.upper)) pt: \(problem)")
        }
    }

    private func checkOrder(_ minKey: PropKey, _ min: Double?, _ maxKey: PropKey, _ max: Double?)
        throws(ViewValidationError)
    {
        if let min, let max, min > max {
            throw ViewValidationError(
                path: keyPath(minKey), code: .invalidSize, message: "\(minKey.name) \(min) exceeds \(maxKey.name) \(max)")
        }
    }

    private func unitInterval(_ key: PropKey) throws(ViewValidationError) -> Double? {
        guard present.contains(key), let number = try fields.optionalNumber(key.name) else { return nil }
        if let problem = NumberDomain.unitInterval.problem(number) {
            throw ViewValidationError(path: keyPath(key), code: .invalidValue, message: "expected a number in 0...1: \(problem)")
        }
        return number
    }

    private func date(_ key: PropKey) throws(ViewValidationError) -> Int64? {
        present.contains(key) ? try fields.date(key.name) : nil
    }

    private func bool(_ key: PropKey) throws(ViewValidationError) -> Bool? {
        present.contains(key) ? try fields.optionalBool(key.name) : nil
    }

    private func string(_ key: PropKey, max: Int) throws(ViewValidationError) -> String? {
        present.contains(key) ? try fields.optionalString(key.name, maxBytes: max) : nil
    }

    static func checkLength(_ text: String, max: Int, at path: String) throws(ViewValidationError) {
        let bytes = text.utf8.count
        if bytes > max {
            throw ViewValidationError(
                path: path, code: .stringTooLong, message: "string is \(bytes) bytes long (at most \(max))")
        }
    }

    private func choice<E: RawRepresentable & CaseIterable>(_ key: PropKey, _ type: E.Type) throws(ViewValidationError) -> E?
    where E.RawValue == String {
        present.contains(key) ? try fields.optionalChoice(key.name, type, maxBytes: limits.maxNameBytes) : nil
    }

    private func identifier(_ key: PropKey, at path: String? = nil) throws(ViewValidationError) -> String? {
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

    private func padding() throws(ViewValidationError) -> EdgeInsets? {
        guard let value = value(.padding) else { return nil }
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

    private func color(_ key: PropKey) throws(ViewValidationError) -> String? {
        guard let text = try string(key, max: limits.maxNameBytes) else { return nil }
        guard Self.isColor(text) else {
            throw ViewValidationError(
                path: keyPath(key), code: .invalidValue, message: "expected a colour #RRGGBB or #RRGGBBAA, found \"\(InputQuote.text(text))\"")
        }
        return text
    }

    /// `group`: `""` for an anonymous group, else its name; `group/<name>` is accepted too.
    private func group() throws(ViewValidationError) -> String? {
        guard var text = try string(.group, max: limits.maxStringBytes) else { return nil }
        if text.hasPrefix("group/") { text.removeFirst("group/".count) }
        if !text.isEmpty {
            try Self.checkIdentifier(text, at: keyPath(.group), code: .invalidGroupName, what: "group name")
        }
        return text
    }

    /// `group_state`: state name -> b. `focus`, `disabled`, `active` are the contract's; other
    /// names are explicit states a module defines, so they are kept.
    private func groupState() throws(ViewValidationError) -> [String: Bool]? {
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

    private func shared(diagnostics: inout [Diagnostic]) throws(ViewValidationError) -> SharedMark? {
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

    private func params() throws(ViewValidationError) -> [String: PropValue]? {
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
        var sharedUnknown: [String] = []
        var minWidth: Double?, maxWidth: Double?, minHeight: Double?, maxHeight: Double?
        let maxString = limits.maxStringBytes
        let maxName = limits.maxNameBytes
        for (name, value) in props {
            guard let key = PropKey.named(name), Self.reads(kind, key) else {
                unknown.append(name)
                continue
            }
            switch key {
            case .width:
                guard let number = size(value) else { return nil }
                p.width = number
            case .height:
                guard let number = size(value) else { return nil }
                p.height = number
            case .minWidth:
                guard let number = size(value) else { return nil }
                p.minWidth = number
                minWidth = number
            case .maxWidth:
                guard let number = size(value) else { return nil }
                p.maxWidth = number
                maxWidth = number
            case .minHeight:
                guard let number = size(value) else { return nil }
                p.minHeight = number
                minHeight = number
            case .maxHeight:
                guard let number = size(value) else { return nil }
                p.maxHeight = number
                maxHeight = number
            case .padding:
                guard case .structure(let fields) = value, fields.count == 4,
                    let top = size(fields[0]), let leading = size(fields[1]), let bottom = size(fields[2]),
                    let trailing = size(fields[3])
                else { return nil }
                p.padding = EdgeInsets(top: top, leading: leading, bottom: bottom, trailing: trailing)
            case .opacity:
                guard let number = fraction(value) else { return nil }
                p.opacity = number
            case .classes:
                guard let text = string(value, max: maxString) else { return nil }
                p.classes = text
            case .group:
                guard var text = string(value, max: maxString) else { return nil }
                if text.hasPrefix("group/") { text.removeFirst("group/".count) }
                if !text.isEmpty && !Identifier.isValid(text) { return nil }
                p.group = text
            case .groupState:
                guard case .dictionary(let entries) = value, entries.count <= limits.maxParamEntries else { return nil }
                var states: [String: Bool] = [:]
                for (state, entry) in entries {
                    guard Identifier.isValid(state), case .bool(let flag) = entry else { return nil }
                    states[state] = flag
                }
                p.groupState = states
            case .identity:
                guard let text = identifier(value, max: maxString) else { return nil }
                p.identity = text
            case .role:
                guard let role = choice(value, NodeRole.self, max: maxName) else { return nil }
                p.role = role
            case .animationValue:
                guard let text = string(value, max: maxString) else { return nil }
                p.animationValue = text
            case .shared:
                guard case .dictionary(let entries) = value,
                    let mark = sharedMark(entries, limits: limits, unknown: &sharedUnknown)
                else { return nil }
                p.shared = mark
            case .animate:
                guard case .bool(let flag) = value else { return nil }
                p.animate = flag
            case .action:
                guard let text = identifier(value, max: maxString) else { return nil }
                p.action = text
            case .actionLabel:
                guard let text = string(value, max: maxString) else { return nil }
                p.actionLabel = text
            case .spacing:
                guard let number = size(value) else { return nil }
                p.spacing = number
            case .alignment:
                guard let alignment = choice(value, Alignment.self, max: maxName) else { return nil }
                p.alignment = alignment
            case .stagger:
                guard case .bool(let flag) = value else { return nil }
                p.stagger = flag
            case .text:
                guard let text = string(value, max: maxString) else { return nil }
                p.text = text
            case .fontSize:
                guard let number = size(value) else { return nil }
                p.fontSize = number
            case .fontWeight:
                guard let text = string(value, max: maxName) else { return nil }
                p.fontWeight = text
            case .monospacedDigits:
                guard case .bool(let flag) = value else { return nil }
                p.monospacedDigits = flag
            case .timerEnd:
                guard let date = date(value) else { return nil }
                p.timerEnd = date
            case .color:
                guard let text = string(value, max: maxName), isColor(text) else { return nil }
                p.color = text
            case .symbol:
                guard let text = string(value, max: maxName) else { return nil }
                p.symbol = text
            case .uri:
                guard let text = string(value, max: maxString) else { return nil }
                p.uri = text
            case .shape:
                guard let shape = choice(value, ShapeKind.self, max: maxName) else { return nil }
                p.shape = shape
            case .cornerRadius:
                guard let number = size(value) else { return nil }
                p.cornerRadius = number
            case .value:
                guard let number = fraction(value) else { return nil }
                p.value = number
            case .start:
                guard let date = date(value) else { return nil }
                p.start = date
            case .end:
                guard let date = date(value) else { return nil }
                p.end = date
            case .style:
                guard let style = choice(value, ProgressStyle.self, max: maxName) else { return nil }
                p.progressStyle = style
            case .minLength:
                guard let number = size(value) else { return nil }
                p.minLength = number
            case .name:
                guard let text = string(value, max: maxName) else { return nil }
                p.name = text
            case .params:
                guard case .dictionary(let entries) = value else { return nil }
                var budget = limits.maxParamEntries
                guard paramIsGood(value, depth: 1, budget: &budget, limits: limits) else { return nil }
                p.params = entries
            case .id, .namespace, .properties, .anchor, .isSource:
                // Shared-mark keys: `reads` never lets them through on a node.
                return nil
            }
        }
        if let minWidth, let maxWidth, minWidth > maxWidth { return nil }
        if let minHeight, let maxHeight, minHeight > maxHeight { return nil }

        if !unknown.isEmpty {
            for key in unknown.count > 1 ? unknown.sorted() : unknown {
                diagnostics.append(unknownPropDiagnostic(key, kind: kind, path: path))
            }
        }
        if !sharedUnknown.isEmpty {
            let sharedPath = keyPath(path, PropKey.shared.name)
            for key in sharedUnknown.count > 1 ? sharedUnknown.sorted() : sharedUnknown {
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

    /// Whether a node of `kind` reads `key` (`ViewValidator.knownMask`, as a switch).
    static func reads(_ kind: NodeKind, _ key: PropKey) -> Bool {
        switch key {
        case .width, .height, .minWidth, .maxWidth, .minHeight, .maxHeight, .padding, .opacity, .classes, .group,
            .groupState, .identity, .role, .animationValue, .shared, .animate, .action, .actionLabel:
            true
        case .spacing, .alignment, .stagger: kind.isStack
        case .text, .fontSize, .fontWeight, .monospacedDigits, .timerEnd: kind == .text
        case .color: kind == .text || kind == .image || kind == .shape
        case .symbol, .uri: kind == .image
        case .shape, .cornerRadius: kind == .shape
        case .value, .start, .end, .style: kind == .progress
        case .minLength: kind == .spacer
        case .name, .params: kind == .view
        case .id, .namespace, .properties, .anchor, .isSource: false
        }
    }

    /// A shared mark's entries, its unknown keys added to `unknown`; nil when anything is wrong.
    private static func sharedMark(_ entries: [String: PropValue], limits: ViewLimits, unknown: inout [String]) -> SharedMark? {
        var id: String?
        var mark = SharedMark(id: "")
        for (name, value) in entries {
            switch PropKey.named(name) {
            case .id:
                guard let text = identifier(value, max: limits.maxStringBytes) else { return nil }
                id = text
            case .style:
                guard let style = choice(value, SharedStyle.self, max: limits.maxNameBytes) else { return nil }
                mark.style = style
            case .namespace:
                guard let text = string(value, max: limits.maxStringBytes) else { return nil }
                if !text.isEmpty {
                    guard Identifier.isValid(text) else { return nil }
                    mark.namespace = text
                }
            case .properties:
                guard let properties = choice(value, SharedProperties.self, max: limits.maxNameBytes) else { return nil }
                mark.properties = properties
            case .anchor:
                guard let anchor = choice(value, SharedAnchor.self, max: limits.maxNameBytes) else { return nil }
                mark.anchor = anchor
            case .isSource:
                guard case .bool(let flag) = value else { return nil }
                mark.isSource = flag
            default:
                unknown.append(name)
            }
        }
        guard let id else { return nil }
        mark.id = id
        return mark
    }

    private static func size(_ value: PropValue) -> Double? {
        guard let number = value.lenientDouble, NumberDomain.length.contains(number) else { return nil }
        return number
    }

    private static func fraction(_ value: PropValue) -> Double? {
        guard let number = value.lenientDouble, NumberDomain.unitInterval.contains(number) else { return nil }
        return number
    }

    private static func date(_ value: PropValue) -> Int64? {
        guard let number = value.lenientInt64, NumberDomain.unixDate.contains(Double(number)) else { return nil }
        return number
    }

    private static func string(_ value: PropValue, max: Int) -> String? {
        guard case .string(let text) = value, text.utf8.count <= max else { return nil }
        return text
    }

    private static func identifier(_ value: PropValue, max: Int) -> String? {
        guard let text = string(value, max: max), Identifier.isValid(text) else { return nil }
        return text
    }

    private static func choice<E: RawRepresentable>(_ value: PropValue, _: E.Type, max: Int) -> E? where E.RawValue == String {
        guard let text = string(value, max: max) else { return nil }
        return E(rawValue: text)
    }

    /// `checkParam`'s rules without its paths.
    private static func paramIsGood(_ value: PropValue, depth: Int, budget: inout Int, limits: ViewLimits) -> Bool {
        switch value {
        case .string(let text):
            return text.utf8.count <= limits.maxStringBytes
        case .node:
            return false
        case .array(let items), .structure(let items):
            guard depth <= limits.maxParamDepth else { return false }
            for item in items {
                budget -= 1
                guard budget >= 0, paramIsGood(item, depth: depth + 1, budget: &budget, limits: limits) else { return false }
            }
            return true
        case .dictionary(let entries):
            guard depth <= limits.maxParamDepth else { return false }
            for (key, item) in entries {
                budget -= 1
                guard budget >= 0, key.utf8.count <= limits.maxNameBytes,
                    paramIsGood(item, depth: depth + 1, budget: &budget, limits: limits)
                else { return false }
            }
            return true
        case .double(let number):
            return NumberDomain.paramNumber.contains(number)
        case .bool, .int, .uint:
            return true
        }
    }

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

extension PropKey {
    /// `byName[name]` without hashing: the length and first byte pick at most a few keys, and
    /// one string comparison (equal small strings compare as two words) confirms.
    static func named(_ name: String) -> PropKey? {
        let utf8 = name.utf8
        guard let first = utf8.first else { return nil }
        let key: PropKey
        switch utf8.count {
        case 2: key = .id
        case 3: key = first == UInt8(ascii: "u") ? .uri : .end
        case 4:
            switch first {
            case UInt8(ascii: "t"): key = .text
            case UInt8(ascii: "r"): key = .role
            default: key = .name
            }
        case 5:
            switch first {
            case UInt8(ascii: "w"): key = .width
            case UInt8(ascii: "g"): key = .group
            case UInt8(ascii: "c"): key = .color
            case UInt8(ascii: "v"): key = .value
            default:
                if name == "shape" { return .shape }
                if name == "start" { return .start }
                key = .style
            }
        case 6:
            switch first {
            case UInt8(ascii: "h"): key = .height
            case UInt8(ascii: "p"): key = .params
            case UInt8(ascii: "a"):
                if name == "action" { return .action }
                key = .anchor
            default:
                if name == "shared" { return .shared }
                key = .symbol
            }
        case 7:
            switch first {
            case UInt8(ascii: "p"): key = .padding
            case UInt8(ascii: "o"): key = .opacity
            case UInt8(ascii: "c"): key = .classes
            case UInt8(ascii: "a"): key = .animate
            default:
                if name == "spacing" { return .spacing }
                key = .stagger
            }
        case 8: key = .identity
        case 9:
            switch first {
            case UInt8(ascii: "a"): key = .alignment
            case UInt8(ascii: "f"): key = .fontSize
            case UInt8(ascii: "t"): key = .timerEnd
            case UInt8(ascii: "n"): key = .namespace
            case UInt8(ascii: "i"): key = .isSource
            default:
                if name == "max_width" { return .maxWidth }
                key = .minWidth
            }
        case 10:
            switch first {
            case UInt8(ascii: "p"): key = .properties
            default:
                if name == "min_height" { return .minHeight }
                if name == "max_height" { return .maxHeight }
                key = .minLength
            }
        case 11: key = first == UInt8(ascii: "g") ? .groupState : .fontWeight
        case 12: key = .actionLabel
        case 13: key = .cornerRadius
        case 15: key = .animationValue
        case 17: key = .monospacedDigits
        default: return nil
        }
        return name == key.name ? key : nil
    }
}
