import NookCore

/// Module-level slots (`SetContent`).
public enum ModuleSlot: String, Hashable, Sendable, CaseIterable, Comparable {
    case compactLeading = "compact_leading"
    case compactTrailing = "compact_trailing"
    case home
    case widget

    public var isCompact: Bool { self == .compactLeading || self == .compactTrailing }
    public static func < (lhs: ModuleSlot, rhs: ModuleSlot) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// An activity's views (`StartActivity` keys).
public enum ActivitySlot: String, Hashable, Sendable, CaseIterable, Comparable {
    case compactLeading = "compact_leading"
    case compactTrailing = "compact_trailing"
    case minimal
    case peek
    case expanded

    public var isRequired: Bool { self != .peek && self != .expanded }
    public static func < (lhs: ActivitySlot, rhs: ActivitySlot) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Who holds a module.
public enum ModuleOwner: Hashable, Sendable {
    /// A live connection (its unique name).
    case connected(String)
    /// Nobody: the owner left (or the broker restarted). At `until` the module ends, unless a
    /// connection registers the id first and takes it back.
    case vanished(until: BrokerTime)

    public var connection: String? {
        if case .connected(let name) = self { return name }
        return nil
    }
}

/// `Register`'s `info`.
public struct ModuleInfo: Hashable, Sendable {
    public var displayName: String
    public var version: String
    public init(displayName: String = "", version: String = "") {
        self.displayName = displayName
        self.version = version
    }
}

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

/// One registered module.
public struct ModuleRecord: Hashable, Sendable {
    public let id: String
    public var owner: ModuleOwner
    public var info: ModuleInfo
    /// Module-level views by slot.
    public var content: [ModuleSlot: ViewNode]
    /// Registry-wide counter value when compact content was last set; nil without any.
    public var compactOrder: UInt64?
    public var activities: [String: ActivityRecord]

    public init(
        id: String, owner: ModuleOwner, info: ModuleInfo = ModuleInfo(), content: [ModuleSlot: ViewNode] = [:],
        compactOrder: UInt64? = nil, activities: [String: ActivityRecord] = [:]
    ) {
        self.id = id
        self.owner = owner
        self.info = info
        self.content = content
        self.compactOrder = compactOrder
        self.activities = activities
    }

    /// SPEC rule 8's view of this module: each activity's nook ids.
    public var marks: ModuleMarks {
        ModuleMarks(module: id, activities: activities.mapValues(\.nookIds))
    }
}

/// A (module, activity) pair, as `GetState`'s `activities` lists them.
public struct ActivityRef: Hashable, Sendable, CustomStringConvertible {
    public var module: String
    public var activity: String
    public init(module: String, activity: String) {
        self.module = module
        self.activity = activity
    }
    public var description: String { "\(module)/\(activity)" }
}

extension ViewNode {
    func collectNookIds(into ids: inout Set<String>) {
        if let shared = props.shared, shared.namespace.isEmpty { ids.insert(shared.id) }
        for child in children { child.collectNookIds(into: &ids) }
    }
}

extension DiagnosticCode {
    /// An update whose `sequence` is older than the last one applied; it was ignored.
    public static let staleUpdate: DiagnosticCode = "stale-update"
    /// A module id was taken back with activities it had before (after a restart).
    public static let moduleRestored: DiagnosticCode = "module-restored"
}
