extension ResolvedVariant {
    /// The scene's `variants` entry (CONTRACT, rule 23): `state` is the chain of states as
    /// written without group names (`active:group-hover`), `group_path` the group node of the
    /// innermost group condition (`""` when none), `classes` the utility. `conditions`
    /// (an addition) lists each condition with its own `group_path`, for chains that name
    /// more than one group.
    public var wireDictionary: [String: PropValue] {
        let states = conditions.map { $0.groupPath == nil ? $0.state : "group-" + $0.state }
        return [
            "state": .string(states.joined(separator: ":")),
            "group_path": .string(conditions.last { $0.groupPath != nil }?.groupPath ?? ""),
            "classes": .string(utility),
            "conditions": .array(conditions.map { condition in
                .dictionary(["state": .string(condition.state), "group_path": .string(condition.groupPath ?? "")])
            }),
        ]
    }
}

extension SlotNamespaces {
    /// The ids this tree marks in the nook namespace, as written: what `ModuleMarks` needs
    /// for an activity's views (union over its slots).
    public var nookIds: Set<String> {
        Set(elements.lazy.filter { $0.key.namespace == .nook }.map(\.id))
    }
}
