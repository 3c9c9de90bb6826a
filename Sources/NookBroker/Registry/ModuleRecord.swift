import NookCore

/// Who holds a module.
public enum ModuleOwner: Hashable, Sendable {
    /// A live connection (its unique name).
    case connected(String)
    /// Nobody: the owner left (or the broker restarted). At `until` the module ends, unless a
    /// connection registers the id first and takes it back.
    case vanished(until: BrokerTime)
    /// Nobody, and the grace period is over: the module stays only for its detached activities
    /// (contract 1.1), until their dismiss dates. A connection registering the id takes it back.
    case detached

    public var connection: String? {
        if case .connected(let name) = self { return name }
        return nil
    }
}

/// `Register`'s `info`.
public struct ModuleInfo: Hashable, Sendable {
    public var displayName: String = ""
    public var version: String = ""
}

/// One registered module.
public struct ModuleRecord: Hashable, Sendable {
    public let id: String
    public var owner: ModuleOwner
    public var info = ModuleInfo()
    /// `Register` info `rules`: the module's own named rules, applied when it publishes a view.
    public var rules: ModuleRules = .none
    /// Module-level views by slot.
    public var content: [ModuleSlot: ViewNode] = [:]
    /// Registry-wide counter value when compact content was last set; nil without any.
    public var compactOrder: UInt64?
    public var activities: [String: ActivityRecord] = [:]
    /// Activity ids a person dismissed (`Control.EndActivity`) while the module has been
    /// registered, oldest first: `StartActivity` refuses them, so updating cannot bring one
    /// back. Forgotten with the record, when the module unregisters or its grace runs out;
    /// only the newest `maxDismissed` are kept.
    public private(set) var dismissed: [String] = []
    public static let maxDismissed = 256

    /// Remembers that a person dismissed `activity`.
    public mutating func rememberDismissal(of activity: String) {
        dismissed.removeAll { $0 == activity }
        dismissed.append(activity)
        if dismissed.count > Self.maxDismissed { dismissed.removeFirst(dismissed.count - Self.maxDismissed) }
    }

    /// SPEC rule 8's view of this module: each activity's nook ids.
    public var marks: ModuleMarks {
        ModuleMarks(module: id, activities: activities.mapValues(\.nookIds))
    }
}
