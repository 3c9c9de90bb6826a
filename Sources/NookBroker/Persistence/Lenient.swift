/// Any JSON value as it stands, numbers keeping their integer-ness: what a state-file entry
/// that could not even be read is kept as (`state.rejected-<...>.json`).
public indirect enum RawJSON: Codable, Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case array([RawJSON])
    case object([String: RawJSON])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int64.self) { self = .int(value) }
        else if let value = try? container.decode(UInt64.self) { self = .uint(value) }
        else if let value = try? container.decode(Double.self) { self = .double(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([RawJSON].self) { self = .array(value) }
        else { self = .object(try container.decode([String: RawJSON].self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .uint(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The string under `key` of an object (an unreadable entry's `id`, to name it).
    func string(_ key: String) -> String? {
        if case .object(let fields) = self, case .string(let text)? = fields[key] { text } else { nil }
    }
}

/// One entry of the state file read on its own, so a malformed entry (a wrong type, a missing
/// key) spoils only itself: the rest of the file is still restored.
enum Lenient<Value: Decodable>: Decodable {
    case read(Value)
    case unreadable(RawJSON, reason: String)

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        do {
            self = .read(try container.decode(Value.self))
        } catch {
            self = .unreadable((try? container.decode(RawJSON.self)) ?? .null, reason: Self.describe(error))
        }
    }

    /// `key 'relevance': expected Double`, `missing key 'id'`: short, naming the key.
    static func describe(_ error: any Error) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
            return keys.isEmpty ? "" : "key '\(keys.joined(separator: "."))': "
        }
        switch error as? DecodingError {
        case .typeMismatch(let type, let context)?: return "\(path(context))expected \(type)"
        case .valueNotFound(let type, let context)?: return "\(path(context))expected \(type), found null"
        case .keyNotFound(let key, let context)?: return "\(path(context))missing key '\(key.stringValue)'"
        case .dataCorrupted(let context)?: return "\(path(context))\(context.debugDescription)"
        default: return "\(error)"
        }
    }
}
