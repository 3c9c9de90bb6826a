import NookCore

/// Typed reads from a decoded `a{sv}` (`spec`, `changes`, `options`, `info`); each failure is
/// an `InvalidArgs` naming the key and both types.
struct SpecReader {
    let values: [String: PropValue]
    /// What the dictionary is, for messages: `StartActivity spec`.
    let context: String

    private func wrongType(_ key: String, _ expected: String, _ found: PropValue) -> RegistryError {
        RegistryError(.invalidArgs, "\(context): key '\(key)': expected type \(expected), found \(found.typeName)")
    }

    private func outOfRange(_ key: String, _ problem: String) -> RegistryError {
        RegistryError(.invalidArgs, "\(context): key '\(key)': \(problem)")
    }

    func has(_ key: String) -> Bool { values[key] != nil }

    func string(_ key: String, maxBytes: Int) throws(RegistryError) -> String? {
        guard let value = values[key] else { return nil }
        guard case .string(let text) = value else { throw wrongType(key, "s", value) }
        if text.utf8.count > maxBytes {
            throw RegistryError(
                .limitsExceeded, "\(context): key '\(key)': \(text.utf8.count) bytes (at most \(maxBytes))")
        }
        return text
    }

    /// A `d` within `domain` (`NumberDomain.relevance`, ...).
    func double(_ key: String, in domain: NumberDomain) throws(RegistryError) -> Double? {
        guard let value = values[key] else { return nil }
        guard let number = value.lenientDouble else { throw wrongType(key, "d", value) }
        if let problem = domain.problem(number) { throw outOfRange(key, problem) }
        return number
    }

    /// An `x` in unix microseconds within `NumberDomain.unixDate` (years 1970..2200), so no
    /// date arithmetic on it can overflow.
    func date(_ key: String) throws(RegistryError) -> Int64? {
        guard let number = try int64(key) else { return nil }
        if let problem = NumberDomain.unixDate.problem(Double(number)) {
            throw outOfRange(key, "a date in unix microseconds must be in \(NumberDomain.unixDate.rangeText): \(problem)")
        }
        return number
    }

    func int64(_ key: String) throws(RegistryError) -> Int64? {
        guard let value = values[key] else { return nil }
        guard let number = value.lenientInt64 else { throw wrongType(key, "x", value) }
        return number
    }

    func uint64(_ key: String) throws(RegistryError) -> UInt64? {
        guard let value = values[key] else { return nil }
        guard case .uint(let number) = value else { throw wrongType(key, "t", value) }
        return number
    }

    /// `remove` (`as`): the keys to take away, each one of `allowed`.
    func removals(allowed: Set<String>) throws(RegistryError) -> [String] {
        guard let value = values["remove"] else { return [] }
        guard case .array(let items) = value else { throw wrongType("remove", "as", value) }
        var keys: [String] = []
        for item in items {
            guard case .string(let key) = item else { throw wrongType("remove", "as", value) }
            guard allowed.contains(key) else {
                throw RegistryError(
                    .invalidArgs, "\(context): key 'remove': \"\(InputQuote.text(key))\" cannot be removed (only \(allowed.sorted().joined(separator: ", ")))")
            }
            keys.append(key)
        }
        return keys
    }

    func bool(_ key: String) throws(RegistryError) -> Bool? {
        guard let value = values[key] else { return nil }
        guard case .bool(let flag) = value else { throw wrongType(key, "b", value) }
        return flag
    }

    func node(_ key: String) throws(RegistryError) -> RawNode? {
        guard let value = values[key] else { return nil }
        guard case .node(let node) = value else { throw wrongType(key, "v holding a view node (sa{sv}av)", value) }
        return node
    }

    func choice<E: RawRepresentable & CaseIterable>(_ key: String, _: E.Type) throws(RegistryError) -> E?
    where E.RawValue == String {
        guard let text = try string(key, maxBytes: 256) else { return nil }
        guard let value = E(rawValue: text) else {
            let allowed = E.allCases.map(\.rawValue).joined(separator: ", ")
            throw RegistryError(.invalidArgs, "\(context): key '\(key)': \"\(InputQuote.text(text))\" is not one of: \(allowed)")
        }
        return value
    }

    /// Info diagnostics for keys outside `known`, sorted, so newer clients keep working.
    func unknownKeys(known: Set<String>, module: String) -> [Diagnostic] {
        values.keys.filter { !known.contains($0) }.sorted().map { key in
            Diagnostic(.unknownKey, .info, "\(context): key '\(InputQuote.text(key))' is not known and was ignored", path: InputQuote.text(key), module: module)
        }
    }

    /// Refuses a call whose decoded size passes the payload limit.
    func checkPayload(limit: Int) throws(RegistryError) {
        let bytes = values.reduce(0) { $0 + 9 + $1.key.utf8.count + $1.value.estimatedWireBytes }
        if bytes > limit {
            throw RegistryError(.limitsExceeded, "\(context): about \(bytes) bytes of payload (at most \(limit), maxPayloadBytes)")
        }
    }
}

/// Checks an id (module or activity) against SPEC rule 1.
func checkIdentifier(_ id: String, what: String) throws(RegistryError) {
    if let problem = Identifier.problem(id) {
        throw RegistryError(.invalidId, "\(what) \"\(InputQuote.text(id))\" \(problem)")
    }
}
