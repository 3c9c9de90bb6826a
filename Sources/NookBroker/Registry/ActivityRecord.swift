import NookCore

/// One live activity of a module.
public struct ActivityRecord: Hashable, Sendable {
    public let id: String
    public var accessibilityLabel: String
    /// Validated views; the three required slots are always present.
    public var views: [ActivitySlot: ViewNode] {
        didSet { nookIds = Self.nookIds(in: views) }
    }
    /// The nook-namespace ids (`shared` with namespace `""`) marked anywhere in its views,
    /// kept with the views so rule 8 never walks the trees of untouched activities.
    public private(set) var nookIds: Set<String>
    public var relevance: Double
    /// Unix microseconds after which the activity is stale, if given.
    public var staleDate: Int64?
    /// Unix microseconds at which the broker ends it (dismissal `default`), if given.
    public var dismissDate: Int64?
    /// Whether it outlives its publisher's connection (contract 1.1 `lifetime`).
    public var lifetime: ActivityLifetime = .connection
    /// Whether a person may end it by hand (the spec key `dismissible`, default true): the
    /// renderer draws its close control and takes the dismiss gesture only when true.
    /// `Control.EndActivity` (`nookctl end`) ends it either way.
    public var dismissible = true
    /// True once `staleDate` has passed (the registry is told the time): a stale activity
    /// sorts after every fresh one, so it is never primary while a fresh one is live.
    public var isStale = false
    /// The `sequence` of the last start or update applied that carried one.
    public var lastSequence: UInt64?
    /// Registry-wide start counter: ties in relevance go to the activity started first.
    public let startOrder: UInt64
    /// True for an activity a module got back (restart of the module or of the broker) and has
    /// not touched since: a `StartActivity` of its id replaces it instead of failing.
    public var adoptable: Bool

    public init(
        id: String, accessibilityLabel: String, views: [ActivitySlot: ViewNode], relevance: Double = 0,
        staleDate: Int64? = nil, lastSequence: UInt64? = nil, startOrder: UInt64, adoptable: Bool = false
    ) {
        self.id = id
        self.accessibilityLabel = accessibilityLabel
        self.views = views
        self.nookIds = Self.nookIds(in: views)
        self.relevance = relevance
        self.staleDate = staleDate
        self.lastSequence = lastSequence
        self.startOrder = startOrder
        self.adoptable = adoptable
    }

    static func nookIds(in views: [ActivitySlot: ViewNode]) -> Set<String> {
        var ids: Set<String> = []
        for view in views.values { view.collectNookIds(into: &ids) }
        return ids
    }
}

/// Contract 1.1 `lifetime`: `connection` (v1: the grace period applies when the owner leaves)
/// or `detached` (kept after the owner leaves, until its `dismiss_date`).
public enum ActivityLifetime: String, Hashable, Sendable, CaseIterable {
    case connection, detached
}

/// A (module, activity) pair, as `GetState`'s `activities` lists them.
public struct ActivityRef: Hashable, Sendable, CustomStringConvertible {
    public var module: String
    public var activity: String
    public var description: String { "\(module)/\(activity)" }
}

extension ViewNode {
    func collectNookIds(into ids: inout Set<String>) {
        if let shared = props.shared, shared.namespace.isEmpty { ids.insert(shared.id) }
        for child in children { child.collectNookIds(into: &ids) }
    }
}
