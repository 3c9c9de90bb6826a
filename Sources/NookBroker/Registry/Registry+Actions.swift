import NookCore

/// Controls in the registry's current views (contract 1.1, Touch): where `Control.Invoke`
/// finds the action it names.
extension Registry {
    /// Activity view keys in the order `Invoke` searches them: the views a person acts in
    /// most come first, so `info.slot` names the likeliest one when several carry the action.
    static let activityActionOrder: [ActivitySlot] = [.expanded, .peek, .compactLeading, .compactTrailing, .minimal]
    static let moduleActionOrder: [ModuleSlot] = [.home, .widget, .compactLeading, .compactTrailing]

    /// The slot of the first view of `activity` (or, for `""`, of the module's own views)
    /// that carries `action` on some node; nil when none does.
    /// - Throws: `unknownModule` / `unknownActivity` for ids the registry does not have
    ///   (`invalidId` for ids that could never be).
    public func slotCarrying(action: String, module: String, activity: String) throws(RegistryError) -> String? {
        try checkIdentifier(module, what: "module id")
        guard let record = modules[module] else {
            throw RegistryError(.unknownModule, "module \"\(module)\" is not registered")
        }
        if activity.isEmpty {
            return Self.moduleActionOrder.first { record.content[$0]?.carries(action: action) == true }?.rawValue
        }
        try checkIdentifier(activity, what: "activity id")
        guard let live = record.activities[activity] else {
            throw RegistryError(.unknownActivity, "module \"\(module)\" has no activity \"\(activity)\"")
        }
        return Self.activityActionOrder.first { live.views[$0]?.carries(action: action) == true }?.rawValue
    }
}

extension ViewNode {
    /// True when this node or one below it is a control with `action`.
    func carries(action: String) -> Bool {
        props.action == action || children.contains { $0.carries(action: action) }
    }
}
