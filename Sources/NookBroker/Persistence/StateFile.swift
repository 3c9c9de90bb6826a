import NookCore

/// The broker's state file (`state.json`): a versioned, self-describing JSON document.
///
/// ```json
/// {"format": "nook-state", "version": 1,
///  "registry": {"counter": 7, "modules": [{"id": "music", "display_name": "Music", ...,
///               "content": {"home": {node}}, "activities": [{"id": "song", "views": {...}, ...}]}]},
///  "presentation": null, "settings": null, "tokens": null}
/// ```
/// `presentation`, `settings` and `tokens` hold the presentation state machine's state,
/// Reduce Motion with the curve overrides, and the `SetTokens` overrides.
///
/// Reading is lenient per entry: a module, module view, activity, setting, token or the
/// presentation that cannot be decoded (a wrong JSON type, a missing key) lands in
/// `unreadable` (never written back), and the rest of the file is read; only a file whose
/// frame (`format`, `version`, `registry`) is broken is unreadable as a whole.
public struct StateFile: Codable, Hashable, Sendable {
    public static let formatName = "nook-state"
    public static let currentVersion = 1

    public var format: String
    public var version: Int
    public var registry: RegistrySnapshot
    public var presentation: StoredValue?
    public var settings: [String: StoredValue]?
    public var tokens: [String: StoredValue]?
    /// Entries that could not be decoded, the registry's included (not part of the file).
    public var unreadable: [RejectedEntry] = []

    enum CodingKeys: String, CodingKey { case format, version, registry, presentation, settings, tokens }

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
    /// Modules, module views and activities that could not be decoded (not part of the file).
    public var unreadable: [RejectedEntry] = []

    enum CodingKeys: String, CodingKey { case counter, modules }

    public init(counter: UInt64, modules: [Module]) {
        self.counter = counter
        self.modules = modules
    }

    public struct Module: Codable, Hashable, Sendable {
        public var id: String
        public var displayName: String
        public var version: String
        public var content: [String: StoredNode]
        public var compactOrder: UInt64?
        public var activities: [Activity]
        /// Activity ids a person dismissed, oldest first (`ModuleRecord.dismissed`).
        public var dismissed: [String] = []
        /// `Register` info `rules` (`ModuleRecord.rules`), token path -> value.
        public var rules: [String: StoredValue] = [:]
        /// Its views and activities that could not be decoded (not part of the file).
        var unreadable: [RejectedEntry] = []

        public init(
            id: String, displayName: String, version: String, content: [String: StoredNode], compactOrder: UInt64?,
            dismissed: [String] = [], rules: [String: StoredValue] = [:], activities: [Activity]
        ) {
            self.dismissed = dismissed
            self.rules = rules
            self.id = id
            self.displayName = displayName
            self.version = version
            self.content = content
            self.compactOrder = compactOrder
            self.activities = activities
        }

        enum CodingKeys: String, CodingKey {
            case id, version, content, activities, dismissed, rules
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
        /// Contract 1.1: when the broker ends it, and whether it outlives its publisher.
        public var dismissDate: Int64?
        public var lifetime: String?
        /// False when the module said a person may not end it by hand; absent (nil): true.
        public var dismissible: Bool?

        enum CodingKeys: String, CodingKey {
            case id, views, relevance, sequence, lifetime, dismissible
            case accessibilityLabel = "accessibility_label"
            case staleDate = "stale_date"
            case startOrder = "start_order"
            case dismissDate = "dismiss_date"
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
                    compactOrder: module.compactOrder, dismissed: module.dismissed,
                    rules: module.rules.tokens.mapValues(StoredValue.init),
                    activities: module.activities.values.sorted { $0.id < $1.id }.map { activity in
                        RegistrySnapshot.Activity(
                            id: activity.id, accessibilityLabel: activity.accessibilityLabel,
                            views: Dictionary(uniqueKeysWithValues: activity.views.map { ($0.key.rawValue, StoredNode($0.value.rawNode)) }),
                            relevance: activity.relevance, staleDate: activity.staleDate, sequence: activity.lastSequence,
                            startOrder: activity.startOrder, dismissDate: activity.dismissDate,
                            lifetime: activity.lifetime == .connection ? nil : activity.lifetime.rawValue,
                            dismissible: activity.dismissible ? nil : false)
                    })
            })
    }
}

// MARK: Lenient reading

extension StateFile {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(String.self, forKey: .format)
        version = try container.decode(Int.self, forKey: .version)
        registry = try container.decode(RegistrySnapshot.self, forKey: .registry)
        unreadable = registry.unreadable
        registry.unreadable = []
        switch try container.decodeIfPresent(Lenient<StoredValue>.self, forKey: .presentation) {
        case .read(let value)?: presentation = value
        case .unreadable(let raw, let reason)?: unreadable.append(RejectedEntry(kind: .presentation, reason: reason, stored: .json(raw)))
        case nil: presentation = nil
        }
        settings = try Self.lenientValues(container, .settings, kind: .setting, unreadable: &unreadable)
        tokens = try Self.lenientValues(container, .tokens, kind: .token, unreadable: &unreadable)
    }

    private static func lenientValues(
        _ container: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys, kind: RejectedEntry.Kind, unreadable: inout [RejectedEntry]
    ) throws -> [String: StoredValue]? {
        guard let entries = try container.decodeIfPresent([String: Lenient<StoredValue>].self, forKey: key) else { return nil }
        var values: [String: StoredValue] = [:]
        for (name, entry) in entries {
            switch entry {
            case .read(let value): values[name] = value
            case .unreadable(let raw, let reason): unreadable.append(RejectedEntry(kind: kind, key: name, reason: reason, stored: .json(raw)))
            }
        }
        return values
    }
}

extension RegistrySnapshot {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // Orders are renumbered on restore: a broken counter costs nothing.
        counter = (try? container.decode(UInt64.self, forKey: .counter)) ?? 0
        modules = []
        for entry in try container.decode([Lenient<Module>].self, forKey: .modules) {
            switch entry {
            case .read(var module):
                unreadable += module.unreadable
                module.unreadable = []
                modules.append(module)
            case .unreadable(let raw, let reason):
                unreadable.append(RejectedEntry(kind: .module, module: raw.string("id") ?? "?", reason: reason, stored: .json(raw)))
            }
        }
    }
}

extension RegistrySnapshot.Module {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        displayName = try container.decode(String.self, forKey: .displayName)
        version = try container.decode(String.self, forKey: .version)
        compactOrder = try container.decodeIfPresent(UInt64.self, forKey: .compactOrder)
        dismissed = (try? container.decodeIfPresent([String].self, forKey: .dismissed)) ?? []
        // Unreadable rules are dropped here; readable ones are validated again when restored.
        rules = (try? container.decodeIfPresent([String: StoredValue].self, forKey: .rules)) ?? [:]
        content = [:]
        for (slot, entry) in try container.decode([String: Lenient<StoredNode>].self, forKey: .content) {
            switch entry {
            case .read(let node): content[slot] = node
            case .unreadable(let raw, let reason):
                unreadable.append(RejectedEntry(kind: .content, module: id, key: slot, reason: reason, stored: .json(raw)))
            }
        }
        activities = []
        for entry in try container.decode([Lenient<RegistrySnapshot.Activity>].self, forKey: .activities) {
            switch entry {
            case .read(let activity): activities.append(activity)
            case .unreadable(let raw, let reason):
                unreadable.append(RejectedEntry(kind: .activity, module: id, activity: raw.string("id") ?? "?", reason: reason, stored: .json(raw)))
            }
        }
    }
}
