import NookBus
import NookCore

/// DTCG JSON -> `SetTokens` values: dotted token paths to D-Bus values in the forms
/// `GetTokens` returns (durations and aliases as strings, numbers as `d`, springs as
/// `{response, damping_fraction}`, Béziers as `(dddd)`).
enum TokenConversion {
    /// Every token (an object with `$value`) in a DTCG document, by dotted path.
    static func tokens(in document: JSONValue) -> [String: DBusValue] {
        var out: [String: DBusValue] = [:]
        func walk(_ value: JSONValue, _ path: String) {
            guard case .object(let members) = value else { return }
            if let token = members["$value"] {
                out[path] = dbusValue(token)
                return
            }
            for (name, child) in members where !name.hasPrefix("$") {
                walk(child, path.isEmpty ? name : path + "." + name)
            }
        }
        walk(document, "")
        return out
    }

    /// One JSON value as the contract carries it; object keys become snake_case.
    static func dbusValue(_ json: JSONValue) -> DBusValue {
        switch json {
        case .null: return .string("")
        case .bool(let flag): return .bool(flag)
        case .number(let number): return .double(number)
        case .string(let text): return .string(text)
        case .array(let items):
            let numbers = items.compactMap { item -> Double? in if case .number(let n) = item { n } else { nil } }
            if numbers.count == 4, items.count == 4 { return .structure(numbers.map(DBusValue.double)) }
            if numbers.count == items.count { return .array(element: "d", numbers.map(DBusValue.double)) }
            return .array(element: "v", items.map { .variant(dbusValue($0)) })
        case .object(let members):
            var out: [String: DBusValue] = [:]
            for (key, value) in members { out[snakeCase(key)] = dbusValue(value) }
            return .vardict(out)
        }
    }

    /// `dampingFraction` -> `damping_fraction`.
    static func snakeCase(_ key: String) -> String {
        var out = ""
        for character in key {
            if character.isUppercase {
                out += "_" + character.lowercased()
            } else {
                out.append(character)
            }
        }
        return out
    }
}
