/// One node's props read into `NodeProps` through the one `FieldReader`, with the view
/// rules on top (sizes, colours, ids, groups, shared marks, params); every error names the
/// prop's path (`expanded/0.font_size`).
struct NodePropsReader {
    let fields: FieldReader<ViewValidationError>
    let limits: ViewLimits

    init(props: [String: PropValue], path: String, limits: ViewLimits) {
        fields = FieldReader(path: path, fields: props)
        self.limits = limits
    }

    private var props: [String: PropValue] { fields.fields }

    func read(kind: NodeKind, diagnostics: inout [Diagnostic]) throws(ViewValidationError) -> NodeProps {
        var p = NodeProps()
        p.width = try size("width")
        p.height = try size("height")
        p.minWidth = try size("min_width")
        p.maxWidth = try size("max_width")
        p.minHeight = try size("min_height")
        p.maxHeight = try size("max_height")
        try checkOrder("min_width", p.minWidth, "max_width", p.maxWidth)
        try checkOrder("min_height", p.minHeight, "max_height", p.maxHeight)
        p.padding = try padding()
        p.opacity = try unitInterval("opacity")
        p.classes = try string("classes", max: limits.maxStringBytes)
        p.group = try group()
        p.groupState = try groupState()
        p.identity = try identifier("identity")
        p.role = try choice("role", NodeRole.self)
        p.animationValue = try string("animation_value", max: limits.maxStringBytes)
        p.shared = try shared(diagnostics: &diagnostics)
        p.animate = try bool("animate")
        // Contract 1.1 (Touch): the node is a control; `action_label` is its accessible name.
        p.action = try identifier("action")
        p.actionLabel = try string("action_label", max: limits.maxStringBytes)

        switch kind {
        case .vstack, .hstack, .zstack:
            p.spacing = try size("spacing")
            p.alignment = try choice("alignment", Alignment.self)
            p.stagger = try bool("stagger")
        case .text:
            p.text = try string("text", max: limits.maxStringBytes)
            p.fontSize = try size("font_size")
            p.fontWeight = try string("font_weight", max: limits.maxNameBytes)
            p.monospacedDigits = try bool("monospaced_digits")
            p.timerEnd = try date("timer_end")
            p.color = try color("color")
        case .image:
            p.symbol = try string("symbol", max: limits.maxNameBytes)
            p.uri = try string("uri", max: limits.maxStringBytes)
            p.color = try color("color")
            if let symbol = p.symbol, SymbolNames.iconName(for: symbol) == nil {
                diagnostics.append(
                    Diagnostic(
                        .unknownSymbol, .warning,
                        "symbol \"\(symbol.prefix(64))\" is not one Nook maps (docs/module-guide.md lists them); renderers draw an outline",
                        path: keyPath("symbol")))
            }
        case .shape:
            p.shape = try choice("shape", ShapeKind.self)
            p.cornerRadius = try size("corner_radius")
            p.color = try color("color")
        case .progress:
            p.value = try unitInterval("value")
            p.start = try date("start")
            p.end = try date("end")
            p.progressStyle = try choice("style", ProgressStyle.self)
        case .spacer:
            p.minLength = try size("min_length")
        case .view:
            p.name = try string("name", max: limits.maxNameBytes)
            p.params = try params()
        }
        return p
    }

    // MARK: Typed readers

    private func keyPath(_ key: String) -> String { fields.keyPath(key) }

    private func wrongType(_ key: String, expected: String, found: PropValue) -> ViewValidationError {
        fields.wrongType(key, expected: expected, found: found)
    }

    /// A size: within `NumberDomain.length` (finite, not negative, at most 100,000 pt).
    private func size(_ key: String) throws(ViewValidationError) -> Double? {
        guard let number = try fields.optionalNumber(key) else { return nil }
        try Self.checkSize(number, at: keyPath(key))
        return number
    }

    static func checkSize(_ number: Double, at path: String) throws(ViewValidationError) {
        if let problem = NumberDomain.length.problem(number) {
            throw ViewValidationError(path: path, code: .invalidSize, message: "a size must be finite, not negative and at most \(NumberText.short(NumberDomain.length.upper)) pt: \(problem)")
        }
    }

    private func checkOrder(_ minKey: String, _ min: Double?, _ maxKey: String, _ max: Double?)
        throws(ViewValidationError)
    {
        if let min, let max, min > max {
            throw ViewValidationError(
                path: keyPath(minKey), code: .invalidSize, message: "\(minKey) \(min) exceeds \(maxKey) \(max)")
        }
    }

    private func unitInterval(_ key: String) throws(ViewValidationError) -> Double? {
        guard let number = try fields.optionalNumber(key) else { return nil }
        if let problem = NumberDomain.unitInterval.problem(number) {
            throw ViewValidationError(path: keyPath(key), code: .invalidValue, message: "expected a number in 0...1: \(problem)")
        }
        return number
    }

    private func date(_ key: String) throws(ViewValidationError) -> Int64? { try fields.date(key) }

    private func bool(_ key: String) throws(ViewValidationError) -> Bool? { try fields.optionalBool(key) }

    private func string(_ key: String, max: Int) throws(ViewValidationError) -> String? {
        try fields.optionalString(key, maxBytes: max)
    }

    static func checkLength(_ text: String, max: Int, at path: String) throws(ViewValidationError) {
        let bytes = text.utf8.count
        if bytes > max {
            throw ViewValidationError(
                path: path, code: .stringTooLong, message: "string is \(bytes) bytes long (at most \(max))")
        }
    }

    private func choice<E: RawRepresentable & CaseIterable>(_ key: String, _ type: E.Type) throws(ViewValidationError) -> E?
    where E.RawValue == String {
        try fields.optionalChoice(key, type, maxBytes: limits.maxNameBytes)
    }

    private func identifier(_ key: String, at path: String? = nil) throws(ViewValidationError) -> String? {
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
        guard let value = props["padding"] else { return nil }
        guard case .structure(let fields) = value, fields.count == 4 else {
            throw wrongType("padding", expected: "(dddd)", found: value)
        }
        var edges: [Double] = []
        for field in fields {
            guard let number = field.lenientDouble else { throw wrongType("padding", expected: "(dddd)", found: value) }
            try Self.checkSize(number, at: keyPath("padding"))
            edges.append(number)
        }
        return EdgeInsets(top: edges[0], leading: edges[1], bottom: edges[2], trailing: edges[3])
    }

    private func color(_ key: String) throws(ViewValidationError) -> String? {
        guard let text = try string(key, max: limits.maxNameBytes) else { return nil }
        let digits = text.utf8.dropFirst()
        let isHex = digits.allSatisfy { byte in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
        }
        guard text.hasPrefix("#"), digits.count == 6 || digits.count == 8, isHex else {
            throw ViewValidationError(
                path: keyPath(key), code: .invalidValue, message: "expected a colour #RRGGBB or #RRGGBBAA, found \"\(InputQuote.text(text))\"")
        }
        return text
    }

    /// `group`: `""` for an anonymous group, else its name; `group/<name>` is accepted too.
    private func group() throws(ViewValidationError) -> String? {
        guard var text = try string("group", max: limits.maxStringBytes) else { return nil }
        if text.hasPrefix("group/") { text.removeFirst("group/".count) }
        if !text.isEmpty {
            try Self.checkIdentifier(text, at: keyPath("group"), code: .invalidGroupName, what: "group name")
        }
        return text
    }

    /// `group_state`: state name -> b. `focus`, `disabled`, `active` are the contract's; other
    /// names are explicit states a module defines, so they are kept.
    private func groupState() throws(ViewValidationError) -> [String: Bool]? {
        guard let value = props["group_state"] else { return nil }
        guard case .dictionary(let entries) = value else { throw wrongType("group_state", expected: "a{sv}", found: value) }
        if entries.count > limits.maxParamEntries {
            throw ViewValidationError(
                path: keyPath("group_state"), code: .tooManyParams,
                message: "\(entries.count) states (at most \(limits.maxParamEntries))")
        }
        var states: [String: Bool] = [:]
        for (name, entry) in entries {
            let entryPath = NodePath.prop(keyPath("group_state"), name)
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
        guard let value = props["shared"] else { return nil }
        guard case .dictionary(let entries) = value else { throw wrongType("shared", expected: "a{sv}", found: value) }
        let sharedPath = keyPath("shared")
        for key in entries.keys.sorted() where !ViewValidator.sharedKeys.contains(key) {
            diagnostics.append(
                Diagnostic(
                    .unknownKey, .info, "shared key \"\(InputQuote.text(key))\" is not known and was ignored",
                    path: NodePath.prop(sharedPath, key)))
        }
        let inner = NodePropsReader(props: entries, path: sharedPath, limits: limits)
        guard let id = try inner.identifier("id") else {
            throw ViewValidationError(
                path: NodePath.prop(sharedPath, "id"), code: .missingKey, message: "a shared mark needs an id")
        }
        var mark = SharedMark(id: id)
        mark.style = try inner.choice("style", SharedStyle.self) ?? .resize
        if let namespace = try inner.string("namespace", max: limits.maxStringBytes), !namespace.isEmpty {
            try Self.checkIdentifier(namespace, at: inner.keyPath("namespace"), code: .invalidId, what: "namespace")
            mark.namespace = namespace
        }
        mark.properties = try inner.choice("properties", SharedProperties.self) ?? .frame
        mark.anchor = try inner.choice("anchor", SharedAnchor.self) ?? .center
        mark.isSource = try inner.bool("is_source") ?? true
        return mark
    }

    private func params() throws(ViewValidationError) -> [String: PropValue]? {
        guard let value = props["params"] else { return nil }
        guard case .dictionary(let entries) = value else { throw wrongType("params", expected: "a{sv}", found: value) }
        var budget = limits.maxParamEntries
        try checkParam(value, path: keyPath("params"), depth: 1, budget: &budget)
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
