import NookCore

/// Something the caller of a registry method must do: the registry decides, the service
/// performs (sends signals, tracks peers, writes the state file, asks for a plan).
public enum RegistryAction: Hashable, Sendable {
    /// Send these diagnostics to this connection only (the module's owner).
    case diagnostics(connection: String, module: String, [Diagnostic])
    /// The scene changed; the presentation layer turns this into a plan.
    case sceneChanged(SceneChange)
    /// Start watching this connection, so its leaving starts the module's grace period.
    case trackPeer(String)
    /// Stop watching this connection.
    case untrackPeer(String)
    /// The persistent state changed: write it (debounced) within a second.
    case persist
}

/// Why the scene changed: the contract's plan causes the registry can produce.
public enum SceneCause: String, Hashable, Sendable, CaseIterable {
    case activityStarted = "activity_started"
    case activityUpdated = "activity_updated"
    case activityEnded = "activity_ended"
    case contentChanged = "content_changed"
    case moduleVanished = "module_vanished"

    /// The plan cause it is: each one by name, so a new cause cannot fall back silently.
    public var planCause: PlanCause {
        switch self {
        case .activityStarted: .activityStarted
        case .activityUpdated: .activityUpdated
        case .activityEnded: .activityEnded
        case .contentChanged: .contentChanged
        case .moduleVanished: .moduleVanished
        }
    }
}

/// One change of the scene, with what the planner needs to know about it.
public struct SceneChange: Hashable, Sendable {
    public var cause: SceneCause
    public var module: String
    /// The activity concerned, or nil for module-level content.
    public var activity: String?
    /// The module-level slot concerned (`content_changed`), or nil.
    public var slot: ModuleSlot?
    /// For endings: `default` or `immediate`.
    public var dismissal: Dismissal?
    /// False when the update asked for no animation (`animate: false`).
    public var animate: Bool
    /// The caller's own animation preset (`animation` of `UpdateActivity`), if any.
    public var animation: String?
    /// An update that changed only the activity's peek or expanded view (or nothing drawn):
    /// while the nook shows neither (the pill, or hidden), no renderer has anything to redraw,
    /// and no plan goes out (`Broker.sceneChanged`).
    public var panelsOnly: Bool

    public init(
        cause: SceneCause, module: String, activity: String? = nil, slot: ModuleSlot? = nil,
        dismissal: Dismissal? = nil, animate: Bool = true, animation: String? = nil, panelsOnly: Bool = false
    ) {
        self.panelsOnly = panelsOnly
        self.cause = cause
        self.module = module
        self.activity = activity
        self.slot = slot
        self.dismissal = dismissal
        self.animate = animate
        self.animation = animation
    }
}

extension Array where Element == RegistryAction {
    /// The scene changes among these actions, in order.
    public var sceneChanges: [SceneChange] {
        compactMap { if case .sceneChanged(let change) = $0 { change } else { nil } }
    }

    /// The diagnostics sent to `connection`, in order.
    public func diagnostics(to connection: String) -> [Diagnostic] {
        flatMap { action -> [Diagnostic] in
            if case .diagnostics(let target, _, let list) = action, target == connection { return list }
            return []
        }
    }

    public var persists: Bool { contains(.persist) }
}
