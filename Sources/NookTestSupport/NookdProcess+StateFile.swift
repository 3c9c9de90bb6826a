import Foundation

/// What the state file of a test's nookd holds.
extension NookdProcess {
    /// The activities of `module` as the state file has them: id -> every string inside the
    /// record, keys included (labels, texts, symbols, prop names), so a test can look for
    /// what it sent.
    public func storedActivities(of module: String) -> [String: [String]] {
        let file = stateDirectory.appendingPathComponent("state.json")
        guard let data = try? Data(contentsOf: file),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let registry = root["registry"] as? [String: Any], let modules = registry["modules"] as? [[String: Any]],
            let record = modules.first(where: { $0["id"] as? String == module }),
            let activities = record["activities"] as? [[String: Any]]
        else { return [:] }
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
        let file = stateDirectory.appendingPathComponent("state.json")
        guard let data = try? Data(contentsOf: file),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let registry = root["registry"] as? [String: Any], let modules = registry["modules"] as? [[String: Any]],
            let record = modules.first(where: { $0["id"] as? String == module }),
            let content = record["content"] as? [String: Any]
        else { return [:] }
        return content.mapValues { strings(in: $0) }
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
