import NookCore

/// The broker's state file (`state.json`): a versioned, self-describing JSON document.
///
/// ```json
/// {"format": "nook-state", "version": 1,
///  "registry": {"counter": 7, "modules": [{"id": "music", "display_name": "Music", ...,
///               "content": {"home": {node}}, "activities": [{"id": "song", "views": {...}, ...}]}]},
///  "presentation": null, "settings": null, "tokens": null}
/// ```
/// `presentation`, `settings` and `tokens` are reserved for the presentation state machine and
/// `SetTokens`; a broker that does not use them yet writes back whatever it read.
public struct StateFile: Codable, Hashable, Sendable {
    public static let formatName = "nook-state"
    public static let currentVersion = 1

    public var format: String
    public var version: Int
    public var registry: RegistrySnapshot
    public var presentation: StoredValue?
    public var settings: [String: StoredValue]?
    public var tokens: [String: StoredValue]?

    public init(
        registry: RegistrySnapshot, presentation: StoredValue? = nil, settings: [String: StoredValue]? = nil,
        tokens: [String: StoredValue]? = nil
    ) {
        format = Self.formatName
        version = Self.currentVersion
        self.registry = registry
        self.presentation = presentation
        self.settings = settings
        self.tokens = tokens
    }
}

/// The registry as stored: everything but owners (a restarted broker has no connections).
public struct RegistrySnapshot: Codable, Hashable, Sendable {
    public var counter: UInt64
    public var modules: [Module]

    public struct Module: Codable, Hashable, Sendable {
        public var id: String
        public var displayName: String
        public var version: String
        public var content: [String: StoredNode]
        public var compactOrder: UInt64?
        public var activities: [Activity]

        enum CodingKeys: String, CodingKey {
            case id, version, content, activities
            case displayName = "display_name"
            case compactOrder = "compact_order"
        }
    }

    public struct Activity: Codable, Hashable, Sendable {
        public var id: String
        public var accessibilityLabel: String
        public var views: [String: StoredNode]
        public var relevance: Double
        public var staleDate: Int64?
        public var sequence: UInt64?
        public var startOrder: UInt64

        enum CodingKeys: String, CodingKey {
            case id, views, relevance, sequence
            case accessibilityLabel = "accessibility_label"
            case staleDate = "stale_date"
            case startOrder = "start_order"
        }
    }

    public static let empty = RegistrySnapshot(counter: 0, modules: [])
}

extension Registry {
    /// What the state file keeps of this registry; modules and activities sorted by id.
    public var snapshot: RegistrySnapshot {
        RegistrySnapshot(
            counter: counter,
            modules: modules.values.sorted { $0.id < $1.id }.map { module in
                RegistrySnapshot.Module(
                    id: module.id, displayName: module.info.displayName, version: module.info.version,
                    content: Dictionary(uniqueKeysWithValues: module.content.map { ($0.key.rawValue, StoredNode($0.value.rawNode)) }),
                    compactOrder: module.compactOrder,
                    activities: module.activities.values.sorted { $0.id < $1.id }.map { activity in
                        RegistrySnapshot.Activity(
                            id: activity.id, accessibilityLabel: activity.accessibilityLabel,
                            views: Dictionary(uniqueKeysWithValues: activity.views.map { ($0.key.rawValue, StoredNode($0.value.rawNode)) }),
                            relevance: activity.relevance, staleDate: activity.staleDate, sequence: activity.lastSequence,
                            startOrder: activity.startOrder)
                    })
            })
    }
}
