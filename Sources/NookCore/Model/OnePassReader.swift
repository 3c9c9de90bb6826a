/// The typed readers of the one-pass reading (`NodePropsReader.readInOnePass`): each takes a
/// value and returns it read, or nil when anything is wrong, building no path or message (the
/// ordered reader then names the problem). Which reader a key takes is data/contract.json's
/// `read`; the generated `read(_:_:into:)` dispatches to them.
struct OnePassReader {
    let limits: ViewLimits
    /// Keys of a shared mark that the contract does not know, for info diagnostics.
    private(set) var sharedUnknown: [String] = []

    init(limits: ViewLimits) { self.limits = limits }

    func size(_ value: PropValue) -> Double? {
        guard let number = value.lenientDouble, NumberDomain.length.contains(number) else { return nil }
        return number
    }

    func fraction(_ value: PropValue) -> Double? {
        guard let number = value.lenientDouble, NumberDomain.unitInterval.contains(number) else { return nil }
        return number
    }

    func count(_ value: PropValue, in range: ClosedRange<Int>) -> Int? {
        guard let number = value.lenientInt64, number >= Int64(range.lowerBound), number <= Int64(range.upperBound) else { return nil }
        return Int(number)
    }

    func date(_ value: PropValue) -> Int64? {
        guard let number = value.lenientInt64, NumberDomain.unixDate.contains(Double(number)) else { return nil }
        return number
    }

    func bool(_ value: PropValue) -> Bool? {
        guard case .bool(let flag) = value else { return nil }
        return flag
    }

    func string(_ value: PropValue) -> String? { Self.string(value, max: limits.maxStringBytes) }

    func name(_ value: PropValue) -> String? { Self.string(value, max: limits.maxNameBytes) }

    func identifier(_ value: PropValue) -> String? {
        guard let text = string(value), Identifier.isValid(text) else { return nil }
        return text
    }

    func color(_ value: PropValue) -> String? {
        guard let text = name(value), NodePropsReader.isColor(text) else { return nil }
        return text
    }

    func choice<E: RawRepresentable>(_ value: PropValue, _: E.Type) -> E? where E.RawValue == String {
        name(value).flatMap(E.init(rawValue:))
    }

    func padding(_ value: PropValue) -> EdgeInsets? {
        guard case .structure(let fields) = value, fields.count == 4,
            let top = size(fields[0]), let leading = size(fields[1]), let bottom = size(fields[2]), let trailing = size(fields[3])
        else { return nil }
        return EdgeInsets(top: top, leading: leading, bottom: bottom, trailing: trailing)
    }

    func group(_ value: PropValue) -> String? {
        guard var text = string(value) else { return nil }
        if text.hasPrefix("group/") { text.removeFirst("group/".count) }
        if !text.isEmpty && !Identifier.isValid(text) { return nil }
        return text
    }

    func groupState(_ value: PropValue) -> [String: Bool]? {
        guard case .dictionary(let entries) = value, entries.count <= limits.maxParamEntries else { return nil }
        var states: [String: Bool] = [:]
        for (state, entry) in entries {
            guard Identifier.isValid(state), case .bool(let flag) = entry else { return nil }
            states[state] = flag
        }
        return states
    }

    /// A shared mark; its unknown keys are added to `sharedUnknown`.
    mutating func shared(_ value: PropValue) -> SharedMark? {
        guard case .dictionary(let entries) = value else { return nil }
        var id: String?
        var mark = SharedMark(id: "")
        for (name, value) in entries {
            switch PropKey.named(name) {
            case .id:
                guard let text = identifier(value) else { return nil }
                id = text
            case .style:
                guard let style = choice(value, SharedStyle.self) else { return nil }
                mark.style = style
            case .namespace:
                guard let text = string(value) else { return nil }
                if !text.isEmpty {
                    guard Identifier.isValid(text) else { return nil }
                    mark.namespace = text
                }
            case .properties:
                guard let properties = choice(value, SharedProperties.self) else { return nil }
                mark.properties = properties
            case .anchor:
                guard let anchor = choice(value, SharedAnchor.self) else { return nil }
                mark.anchor = anchor
            case .isSource:
                guard let flag = bool(value) else { return nil }
                mark.isSource = flag
            default:
                sharedUnknown.append(name)
            }
        }
        guard let id else { return nil }
        mark.id = id
        return mark
    }

    func params(_ value: PropValue) -> [String: PropValue]? {
        guard case .dictionary(let entries) = value else { return nil }
        var budget = limits.maxParamEntries
        guard paramIsGood(value, depth: 1, budget: &budget) else { return nil }
        return entries
    }

    /// `min_*` at most `max_*`.
    static func checkSizeOrder(_ p: NodeProps) -> Bool {
        guard let layout = p.layoutProps else { return true }
        if let min = layout.minWidth, let max = layout.maxWidth, min > max { return false }
        if let min = layout.minHeight, let max = layout.maxHeight, min > max { return false }
        return true
    }

    private static func string(_ value: PropValue, max: Int) -> String? {
        guard case .string(let text) = value, text.utf8.count <= max else { return nil }
        return text
    }

    /// `NodePropsReader.checkParam`'s rules without its paths.
    private func paramIsGood(_ value: PropValue, depth: Int, budget: inout Int) -> Bool {
        switch value {
        case .string(let text):
            return text.utf8.count <= limits.maxStringBytes
        case .node:
            return false
        case .array(let items), .structure(let items):
            guard depth <= limits.maxParamDepth else { return false }
            for item in items {
                budget -= 1
                guard budget >= 0, paramIsGood(item, depth: depth + 1, budget: &budget) else { return false }
            }
            return true
        case .dictionary(let entries):
            guard depth <= limits.maxParamDepth else { return false }
            for (key, item) in entries {
                budget -= 1
                guard budget >= 0, key.utf8.count <= limits.maxNameBytes, paramIsGood(item, depth: depth + 1, budget: &budget) else { return false }
            }
            return true
        case .double(let number):
            return NumberDomain.paramNumber.contains(number)
        case .bool, .int, .uint:
            return true
        }
    }
}
