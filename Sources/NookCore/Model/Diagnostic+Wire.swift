extension Diagnostic {
    /// The contract's diagnostic `a{sv}`: `code`, `severity`, `message`, `module`, `id`, plus
    /// `path` (an addition: where in the view it happened) when known, and for a diagnostic
    /// about an element (contract 1.1) `element` (its id, as `id`) and `activity` (`""` for a
    /// module-level view).
    public var wireDictionary: [String: PropValue] {
        var out: [String: PropValue] = [
            "code": .string(code.rawValue), "severity": .string(severity.rawValue), "message": .string(message),
            "module": .string(module), "id": .string(id),
        ]
        if !path.isEmpty { out["path"] = .string(path) }
        if isAboutElement {
            out["element"] = .string(id)
            out["activity"] = .string(activity)
        } else if !activity.isEmpty {
            out["activity"] = .string(activity)
        }
        return out
    }
}
