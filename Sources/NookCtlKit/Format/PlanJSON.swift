import NookBus

/// A faithful, generic D-Bus -> JSON mapping for `watch --json` and `preview --json`.
///
/// Numbers stay numbers (non-finite doubles become `null`), strings, object paths and
/// signatures become strings, arrays and structs (a rect `(dddd)`) become arrays, dictionaries
/// become objects (non-string keys written as text), variants are transparent. Entries keep
/// the order they arrived in, so the same message always gives the same line.
public enum PlanJSON {
    public static func json(_ value: DBusValue) -> String {
        var out = ""
        write(value, to: &out)
        return out
    }

    static func write(_ value: DBusValue, to out: inout String) {
        switch value {
        case .byte(let n): out += String(n)
        case .bool(let flag): out += flag ? "true" : "false"
        case .int16(let n): out += String(n)
        case .uint16(let n): out += String(n)
        case .int32(let n): out += String(n)
        case .uint32(let n): out += String(n)
        case .int64(let n): out += String(n)
        case .uint64(let n): out += String(n)
        case .unixFD(let n): out += String(n)
        case .double(let d): out += d.isFinite ? number(d) : "null"
        case .string(let text): string(text, to: &out)
        case .objectPath(let path): string(path.rawValue, to: &out)
        case .signature(let signature): string(signature.rawValue, to: &out)
        case .variant(let inner): write(inner, to: &out)
        case .array(_, let items), .structure(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                write(item, to: &out)
            }
            out += "]"
        case .dictionary(_, _, let entries):
            out += "{"
            for (index, entry) in entries.enumerated() {
                if index > 0 { out += "," }
                switch entry.key.unwrappingVariants {
                case .string(let key): string(key, to: &out)
                case let other:
                    var key = ""
                    write(other, to: &key)
                    string(key, to: &out)
                }
                out += ":"
                write(entry.value, to: &out)
            }
            out += "}"
        }
    }

    /// Integral values without a fraction (`156`), others in Swift's shortest round-trip form.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    static func string(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
