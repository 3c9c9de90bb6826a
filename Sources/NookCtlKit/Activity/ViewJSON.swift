import NookCore

/// `--view-json`: an activity's views written as JSON, mirroring the contract's node.
///
/// ```json
/// {"accessibility_label": "Deploying",
///  "compact_leading": {"kind": "image", "props": {"symbol": "hammer.fill", "shared": {"id": "icon"}}},
///  "compact_trailing": {"kind": "text", "props": {"text": "3/7"}},
///  "minimal": {"kind": "image", "props": {"symbol": "hammer.fill"}},
///  "expanded": {"kind": "vstack", "props": {"alignment": "leading", "spacing": 6}, "children": [
///      {"kind": "image", "props": {"symbol": "hammer.fill", "width": 32, "height": 32, "shared": {"id": "icon"}}},
///      {"kind": "text", "props": {"text": "Deploying step 3 of 7", "font_size": 15}}]}}
/// ```
///
/// A node is `kind`, `props` (optional) and `children` (optional). Props take JSON of their
/// contract type (`ContractKeys`): `d` a number, `x` a whole number of unix microseconds or
/// `"+5m"` (that long from now), `s` a string, `b` true or false, `padding` four numbers (or
/// one for every edge), `shared` and `group_state` objects, `params` any JSON. Anything else is
/// refused with the JSON path at fault: `$.expanded.children[2].props.font_size: expected a
/// number, found "x"`. The views are then checked as the broker checks them, so a size out of
/// range is refused here too, by its JSON path.
public struct ViewJSON: Hashable, Sendable {
    /// `accessibility_label`, when given.
    public var label: String?
    /// Slot name -> view, for the slots given.
    public var slots: [String: RawNode]

    static let slotNames = ["compact_leading", "compact_trailing", "minimal", "peek", "expanded"]

    /// Reads `text` at `now` (unix µs, for `"+5m"` dates).
    /// - Throws: `ViewJSONError` naming the JSON path at fault.
    public static func parse(_ text: String, now: Int64) throws(ViewJSONError) -> ViewJSON {
        let json: JSONValue
        do {
            json = try JSONValue.parse(text)
        } catch {
            throw ViewJSONError(path: "$", message: "not valid JSON: \(error)")
        }
        guard case .object(let top) = json else { throw ViewJSONError(path: "$", message: "expected an object, found \(json.kindName)") }
        var result = ViewJSON(label: nil, slots: [:])
        for key in top.keys.sorted() {
            let value = top[key]!
            let path = "$." + key
            if key == "accessibility_label" {
                guard case .string(let label) = value else { throw .expected("a string", value, at: path) }
                result.label = label
            } else if slotNames.contains(key) {
                let raw = try node(value, at: path, now: now)
                result.slots[key] = raw
                try check(raw, slot: key)
            } else {
                throw ViewJSONError(path: path, message: "unknown key (expected accessibility_label, \(slotNames.joined(separator: ", ")))")
            }
        }
        return result
    }

    static func node(_ json: JSONValue, at path: String, now: Int64) throws(ViewJSONError) -> RawNode {
        guard case .object(let fields) = json else { throw .expected("a node object {\"kind\": ...}", json, at: path) }
        for key in fields.keys.sorted() where !["kind", "props", "children"].contains(key) {
            throw ViewJSONError(path: path + "." + key, message: "unknown key (a node has kind, props, children)")
        }
        guard let kindValue = fields["kind"] else { throw ViewJSONError(path: path + ".kind", message: "missing") }
        guard case .string(let kindName) = kindValue else { throw .expected("a string", kindValue, at: path + ".kind") }
        guard let kind = NodeKind(rawValue: kindName) else {
            throw ViewJSONError(path: path + ".kind", message: "unknown kind \"\(InputQuote.text(kindName))\" (known: \(NodeKind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        var raw = RawNode(kind: kindName)
        if let propsValue = fields["props"] {
            guard case .object(let props) = propsValue else { throw .expected("an object", propsValue, at: path + ".props") }
            for key in props.keys.sorted() {
                let keyPath = path + ".props." + key
                guard let row = ContractKeys.viewProp(key, on: kind) else {
                    throw ViewJSONError(path: keyPath, message: "not a prop of a \(kindName) node (docs/contract.md lists each kind's)")
                }
                raw.props[key] = try value(props[key]!, as: row, at: keyPath, now: now)
            }
        }
        if let childrenValue = fields["children"] {
            guard case .array(let children) = childrenValue else { throw .expected("an array", childrenValue, at: path + ".children") }
            for (index, child) in children.enumerated() {
                raw.children.append(try node(child, at: path + ".children[\(index)]", now: now))
            }
        }
        return raw
    }

    /// One prop's JSON as its contract type.
    static func value(_ json: JSONValue, as row: ContractKey, at path: String, now: Int64) throws(ViewJSONError) -> PropValue {
        switch row.type {
        case .double:
            guard case .number(let number) = json else { throw .expected("a number", json, at: path) }
            return .double(number)
        case .date:
            return .int(try date(json, at: path, now: now))
        case .integer:
            // Out of range or not whole: the broker names the problem.
            guard case .number(let number) = json, number.isFinite, number.rounded() == number, abs(number) < 9e15 else {
                throw .expected("a whole number", json, at: path)
            }
            return .int(Int64(number))
        case .string:
            guard case .string(let text) = json else { throw .expected("a string", json, at: path) }
            return .string(text)
        case .bool:
            guard case .bool(let flag) = json else { throw .expected("true or false", json, at: path) }
            return .bool(flag)
        case .edges:
            switch json {
            case .number(let all): return .structure(Array(repeating: .double(all), count: 4))
            case .array(let edges) where edges.count == 4:
                var fields: [PropValue] = []
                for (index, edge) in edges.enumerated() {
                    guard case .number(let number) = edge else { throw .expected("a number", edge, at: path + "[\(index)]") }
                    fields.append(.double(number))
                }
                return .structure(fields)
            default: throw .expected("four numbers [top, leading, bottom, trailing] or one number", json, at: path)
            }
        case .record:
            guard case .object(let entries) = json else { throw .expected("an object", json, at: path) }
            var out: [String: PropValue] = [:]
            for key in entries.keys.sorted() {
                let entryPath = path + "." + key
                switch row.key {
                case "shared":
                    guard let sharedRow = ContractKeys.sharedKey(key) else {
                        throw ViewJSONError(path: entryPath, message: "not a shared key (id, style, namespace, properties, anchor, is_source)")
                    }
                    out[key] = try value(entries[key]!, as: sharedRow, at: entryPath, now: now)
                case "group_state":
                    guard case .bool(let flag) = entries[key]! else { throw .expected("true or false", entries[key]!, at: entryPath) }
                    out[key] = .bool(flag)
                default:
                    out[key] = try free(entries[key]!, at: entryPath)
                }
            }
            return .dictionary(out)
        case .uint64, .strings, .view:
            // No view prop has these types; they are spec keys.
            throw ViewJSONError(path: path, message: "not a view prop")
        }
    }

    /// `x`: a whole number of unix microseconds, or `"+DURATION"` from `now`.
    static func date(_ json: JSONValue, at path: String, now: Int64) throws(ViewJSONError) -> Int64 {
        switch json {
        case .number(let number):
            guard number.rounded() == number, NumberDomain.unixDate.contains(number) else {
                throw ViewJSONError(path: path, message: "expected whole unix microseconds in \(NumberDomain.unixDate.rangeText), found \(NookCore.NumberText.short(number))")
            }
            return Int64(saturating: number)
        case .string(let text) where text.hasPrefix("+"):
            guard let seconds = DurationArgument.seconds(String(text.dropFirst())) else {
                throw ViewJSONError(path: path, message: "expected \"+DURATION\" such as \"+5m\", found \"\(InputQuote.text(text))\"")
            }
            return now.saturatingAdd(Microseconds.of(seconds))
        default:
            throw .expected("unix microseconds or \"+DURATION\"", json, at: path)
        }
    }

    /// `params` values: any JSON but null; numbers are `d`, arrays `av`.
    static func free(_ json: JSONValue, at path: String) throws(ViewJSONError) -> PropValue {
        switch json {
        case .null: throw ViewJSONError(path: path, message: "null has no D-Bus value")
        case .bool(let flag): return .bool(flag)
        case .number(let number): return .double(number)
        case .string(let text): return .string(text)
        case .array(let items):
            var out: [PropValue] = []
            for (index, item) in items.enumerated() { out.append(try free(item, at: path + "[\(index)]")) }
            return .array(out)
        case .object(let entries):
            var out: [String: PropValue] = [:]
            for key in entries.keys.sorted() { out[key] = try free(entries[key]!, at: path + "." + key) }
            return .dictionary(out)
        }
    }

    /// The broker's own check, run here so ranges, ids and limits are refused by JSON path.
    static func check(_ raw: RawNode, slot: String) throws(ViewJSONError) {
        do {
            _ = try ViewValidator().validate(raw, slot: slot)
        } catch {
            throw ViewJSONError(path: jsonPath(error.path), message: error.message)
        }
    }

    /// `expanded/0/2.shared.id` -> `$.expanded.children[0].children[2].props.shared.id`.
    static func jsonPath(_ nodePath: String) -> String {
        let dot = nodePath.firstIndex(of: ".")
        let nodePart = dot.map { nodePath[..<$0] } ?? Substring(nodePath)
        let steps = nodePart.split(separator: "/")
        var path = "$." + (steps.first.map(String.init) ?? "")
        for step in steps.dropFirst() { path += ".children[\(step)]" }
        if let dot { path += ".props" + nodePath[dot...] }
        return path
    }
}

/// A `--view-json` document nookctl refuses: the JSON path at fault and why.
public struct ViewJSONError: Error, Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String

    public var description: String { "\(path): \(message)" }

    static func expected(_ what: String, _ found: JSONValue, at path: String) -> ViewJSONError {
        ViewJSONError(path: path, message: "expected \(what), found \(found.shortText)")
    }
}

extension JSONValue {
    /// The value as a message quotes it: `"x"`, `12`, `true`, `null`, `an object`.
    var shortText: String {
        switch self {
        case .string(let text): "\"\(InputQuote.text(text))\""
        case .number(let number): NookCore.NumberText.short(number)
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        case .array, .object: kindName
        }
    }
}
