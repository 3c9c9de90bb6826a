import Foundation

/// What the state file of a test's nookd holds.
extension NookdProcess {
    /// The activities of `module` as the state file has them: id -> every string inside the
    /// record, keys included (labels, texts, symbols, prop names), so a test can look for
    /// what it sent.
    public func storedActivities(of module: String) -> [String: [String]] {
        guard let activities = storedRecord(of: module)?["activities"] as? [[String: Any]] else { return [:] }
        var out: [String: [String]] = [:]
        for activity in activities {
            guard let id = activity["id"] as? String else { continue }
            out[id] = strings(in: activity)
        }
        return out
    }

    /// The module-level content of `module` as the state file has it: slot -> every string
    /// inside its view (texts, symbols, shared ids, custom view names).
    public func storedContent(of module: String) -> [String: [String]] {
        guard let content = storedRecord(of: module)?["content"] as? [String: Any] else { return [:] }
        return content.mapValues { strings(in: $0) }
    }

    /// The state file's record of `module`; nil while there is none (or the file is half written).
    private func storedRecord(of module: String) -> [String: Any]? {
        guard let data = try? Data(contentsOf: stateDirectory.appendingPathComponent("state.json")),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let registry = root["registry"] as? [String: Any], let modules = registry["modules"] as? [[String: Any]]
        else { return nil }
        return modules.first { $0["id"] as? String == module }
    }

    private func strings(in value: Any) -> [String] {
        switch value {
        case let text as String: return [text]
        case let list as [Any]: return list.flatMap { strings(in: $0) }
        case let record as [String: Any]: return record.keys + record.values.flatMap { strings(in: $0) }
        default: return []
        }
    }
}
