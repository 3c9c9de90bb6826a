import NookCore

/// Call arguments (`spec`, `changes`, `options`, `info`) are read with the one `FieldReader`;
/// each failure is an `InvalidArgs` (or `LimitsExceeded`) naming the call, the key and both
/// types. These are the reads only the registry makes.

extension FieldReader where Failure == RegistryError {
    /// `remove` (`as`): the keys to take away, each one of `allowed`.
    func removals(allowed: Set<String>) throws(RegistryError) -> [String] {
        try removals(given: fields["remove"], allowed: allowed)
    }

    func removals(given value: PropValue?, allowed: Set<String>) throws(RegistryError) -> [String] {
        guard let value else { return [] }
        guard case .array(let items) = value else { throw wrongType("remove", expected: "as", found: value) }
        var keys: [String] = []
        for item in items {
            guard case .string(let key) = item else { throw wrongType("remove", expected: "as", found: value) }
            guard allowed.contains(key) else {
                throw error("remove", "\"\(InputQuote.text(key))\" cannot be removed (only \(allowed.sorted().joined(separator: ", ")))")
            }
            keys.append(key)
        }
        return keys
    }

    /// Info diagnostics for keys outside `known`, sorted, so newer clients keep working.
    func unknownKeys(known: Set<String>, module: String) -> [Diagnostic] {
        unknownKeyDiagnostics(fields.keys.filter { !known.contains($0) }.sorted(), module: module)
    }

    /// `unknownKeys`' diagnostics for `keys`, in their order.
    func unknownKeyDiagnostics(_ keys: [String], module: String) -> [Diagnostic] {
        guard !keys.isEmpty else { return [] }
        let context = context
        return keys.map { key in
            Diagnostic(.unknownKey, .info, "\(context): key '\(InputQuote.text(key))' is not known and was ignored", path: InputQuote.text(key), module: module)
        }
    }

    /// Refuses a call whose decoded size passes the payload limit.
    func checkPayload(limit: Int) throws(RegistryError) {
        try checkPayload(bytes: fields.reduce(0) { $0 + 9 + $1.key.utf8.count + $1.value.estimatedWireBytes }, limit: limit)
    }

    /// `checkPayload(limit:)` of a sum already made (`ActivityFields.payloadBytes`).
    func checkPayload(bytes: Int, limit: Int) throws(RegistryError) {
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
