extension Diagnostic {
    /// The contract's diagnostic `a{sv}`: `code`, `severity`, `message`, `module`, `id`, plus
    /// `path` (an addition: where in the view it happened) when known.
    public var wireDictionary: [String: PropValue] {
        var out: [String: PropValue] = [
            "code": .string(code.rawValue), "severity": .string(severity.rawValue), "message": .string(message),
            "module": .string(module), "id": .string(id),
        ]
        if !path.isEmpty { out["path"] = .string(path) }
        return out
    }
}
