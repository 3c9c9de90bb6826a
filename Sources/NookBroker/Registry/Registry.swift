import NookCore

/// Modules, their module-level content and their activities, as a value.
///
/// Contract: the registry is a pure state machine. It never touches D-Bus, files or clocks:
/// callers pass the caller's unique connection name and the current `BrokerTime`, and each
/// mutating method either throws a `RegistryError` (leaving the registry exactly as it was)
/// or applies the change whole and returns the `RegistryAction`s the caller must perform.
///
/// Rules (docs/broker.md has the full table):
/// 1. A module id is held by one live connection at a time, and a connection holds at most
///    one module. Every change goes through the caller's own module; a `module` key naming
///    another connection's module is `AccessDenied`.
/// 2. When the owner leaves, the module keeps everything for `grace` seconds. A connection
///    that registers the id meanwhile takes it all back; otherwise `expire(now:)` ends it.
/// 3. Activities order by relevance (highest first), ties by start order (first started
///    first); the first is the primary activity.
/// 4. An update whose `sequence` is older than the last applied is ignored with a
///    `stale-update` diagnostic to the module.
///
/// ```swift
/// var registry = Registry()
/// var actions = try registry.register(module: "music", info: [:], caller: ":1.7", now: .zero)
/// actions = try registry.startActivity("song", spec: spec, caller: ":1.7", now: .zero)
/// registry.displayOrder   // [music/song]
/// ```
public struct Registry: Hashable, Sendable {
    public var limits: RegistryLimits
    /// The wall clock (unix µs) as the service last told it, for checks against dates (a
    /// detached activity's `dismiss_date` at most 24 h ahead); nil skips them (pure tests).
    public var unixNow: Int64?
    /// How far ahead a detached activity's `dismiss_date` may be (contract 1.1: 24 h).
    public static let maxDetachedMicroseconds: Int64 = 24 * 3600 * 1_000_000
    /// `broker.moduleGrace`, in seconds.
    public var grace: Double
    /// `rules.named` from the theme, so the class problems a module hears about when it
    /// publishes a view are read the way the planner reads the classes (SPEC rule 24).
    public var namedRules: [String: String] = [:]
    public internal(set) var modules: [String: ModuleRecord] = [:]
    /// Live owner connection -> module id.
    private var moduleByConnection: [String: String] = [:]
    /// Start order of activities and order of compact content, shared, always increasing.
    var counter: UInt64 = 0

    public init(limits: RegistryLimits = .standard, grace: Double = 10) {
        self.limits = limits
        self.grace = grace
    }

    var validator: ViewValidator { ViewValidator(limits: limits.view) }

    mutating func nextOrder() -> UInt64 {
        counter += 1
        return counter
    }

    // MARK: Queries

    /// The module `connection` holds, if any.
    public func module(ownedBy connection: String) -> String? { moduleByConnection[connection] }

    public func activity(_ ref: ActivityRef) -> ActivityRecord? { modules[ref.module]?.activities[ref.activity] }

    /// Every activity, primary first: relevance descending, then start order.
    public var displayOrder: [ActivityRef] {
        var all: [(ref: ActivityRef, stale: Bool, relevance: Double, order: UInt64)] = []
        for module in modules.values {
            for activity in module.activities.values {
                all.append((ActivityRef(module: module.id, activity: activity.id), activity.isStale, activity.relevance, activity.startOrder))
            }
        }
        all.sort { Self.showsBefore($0.stale, $0.relevance, $0.order, $1.stale, $1.relevance, $1.order) }
        return all.map(\.ref)
    }

    /// The display order: fresh before stale, then relevance (highest first), then start
    /// order (unique, so the order is total).
    private static func showsBefore(_ aStale: Bool, _ aRelevance: Double, _ aOrder: UInt64, _ bStale: Bool, _ bRelevance: Double, _ bOrder: UInt64) -> Bool {
        if aStale != bStale { return !aStale }
        return aRelevance != bRelevance ? aRelevance > bRelevance : aOrder < bOrder
    }

    /// The earliest `dismiss_date` (unix µs) of a live activity.
    public var nextDismissDate: Int64? {
        earliest { $0.dismissDate }
    }

    /// Ends every activity whose `dismiss_date` is at or before `unixMicroseconds` (dismissal
    /// `default`), and a module kept only for detached activities once it has none left.
    public mutating func dismissDue(unixMicroseconds now: Int64) -> [RegistryAction] {
        var actions: [RegistryAction] = []
        for moduleId in modules.keys.sorted() {
            let due = modules[moduleId]!.activities.values.filter { ($0.dismissDate ?? .max) <= now }.map(\.id).sorted()
            for id in due {
                modules[moduleId]!.activities[id] = nil
                actions.append(.sceneChanged(SceneChange(cause: .activityEnded, module: moduleId, activity: id, dismissal: .default)))
            }
            if case .detached = modules[moduleId]!.owner, modules[moduleId]!.activities.isEmpty { modules[moduleId] = nil }
        }
        if !actions.isEmpty { actions.append(.persist) }
        return actions
    }

    /// The earliest `stale_date` (unix µs) of an activity not yet stale.
    public var nextStaleDate: Int64? {
        earliest { $0.isStale ? nil : $0.staleDate }
    }

    /// The earliest of `date` over every activity, read in place. The broker asks after every
    /// call: gathering the activities into an array first copied each of them, about 1,400 K
    /// instructions per call at 256 modules x 4 activities (`nook-bench --profile
    /// publish-crowd`).
    private func earliest(_ date: (borrowing ActivityRecord) -> Int64?) -> Int64? {
        var earliest: Int64?
        for module in modules.values {
            for activity in module.activities.values {
                if let at = date(activity), at < (earliest ?? .max) { earliest = at }
            }
        }
        return earliest
    }

    /// Marks every activity whose `stale_date` is at or before `unixMicroseconds` as stale: it
    /// moves after the fresh ones, its module hears `activity-stale`, and renderers get a plan.
    public mutating func markStale(unixMicroseconds now: Int64) -> [RegistryAction] {
        var actions: [RegistryAction] = []
        for moduleId in modules.keys.sorted() {
            var diagnostics: [Diagnostic] = []
            for id in modules[moduleId]!.activities.keys.sorted() {
                guard let activity = modules[moduleId]!.activities[id], !activity.isStale,
                      let staleDate = activity.staleDate, staleDate <= now else { continue }
                modules[moduleId]!.activities[id]!.isStale = true
                diagnostics.append(Diagnostic(.activityStale, .info, "activity \"\(id)\" passed its stale_date; it now sorts after fresh activities until an update gives it a new one",
                                              module: moduleId, id: id))
                actions.append(.sceneChanged(SceneChange(cause: .activityUpdated, module: moduleId, activity: id)))
            }
            actions = deliver(diagnostics, module: moduleId) + actions
        }
        return actions
    }

    /// Every module's marks (SPEC rule 8): the ids each live activity marks in all its views,
    /// on screen or not.
    public var marks: [String: ModuleMarks] { modules.mapValues(\.marks) }

    /// SPEC "pill": the activity whose compact views sit either side of the notch.
    /// `displayOrder.first`, found in one pass without sorting (it is asked several times
    /// for every change a module makes).
    public var primaryActivity: ActivityRef? {
        var best: (module: String, activity: String, stale: Bool, relevance: Double, order: UInt64)?
        for module in modules.values {
            for activity in module.activities.values {
                if let current = best,
                   !Self.showsBefore(activity.isStale, activity.relevance, activity.startOrder, current.stale, current.relevance, current.order) { continue }
                best = (module.id, activity.id, activity.isStale, activity.relevance, activity.startOrder)
            }
        }
        return best.map { ActivityRef(module: $0.module, activity: $0.activity) }
    }

    /// The module that last set module-level compact content (shown when no activity is live).
    public var compactContentModule: String? {
        modules.values.filter { $0.compactOrder != nil }.max { $0.compactOrder! < $1.compactOrder! }?.id
    }

    /// When the next grace period ends, if any module is in one.
    public var nextExpiry: BrokerTime? {
        modules.values.compactMap { if case .vanished(let until) = $0.owner { until } else { nil } }.min()
    }

    /// The connections that own modules (what the service must be tracking).
    public var liveConnections: Set<String> { Set(moduleByConnection.keys) }

    // MARK: Modules

    /// `Register(s module, a{sv} info)`.
    public mutating func register(module id: String, info: [String: PropValue], caller: String, now: BrokerTime)
        throws(RegistryError) -> [RegistryAction]
    {
        try checkIdentifier(id, what: "module id")
        let reader = FieldReader<RegistryError>(fields: info, context: "Register info")
        try reader.checkPayload(limit: limits.maxPayloadBytes)
        let displayName = try reader.optionalString("display_name", maxBytes: limits.maxInfoStringBytes)
        let version = try reader.optionalString("version", maxBytes: limits.maxInfoStringBytes)
        var rules: ModuleRules?
        if let value = reader.fields["rules"] { rules = try ModuleRules(reading: value, context: "Register \"\(id)\" info") }
        let unknown = reader.unknownKeys(known: ["display_name", "version", "rules"], module: id)
        if let held = moduleByConnection[caller], held != id {
            throw RegistryError(
                .invalidArgs, "module \"\(id)\": this connection already registered module \"\(held)\" (one module per connection; Unregister first)")
        }
        var actions: [RegistryAction] = []
        if var existing = modules[id] {
            switch existing.owner {
            case .connected(let owner) where owner == caller:
                break
            case .connected:
                throw RegistryError(.moduleTaken, "module \"\(id)\" is registered by another live connection")
            case .vanished, .detached:
                // Taken back within the grace period (or, for detached activities, after it):
                // everything it had stays as it was.
                existing.owner = .connected(caller)
                for key in existing.activities.keys { existing.activities[key]!.adoptable = true }
                modules[id] = existing
                moduleByConnection[caller] = id
                actions.append(.trackPeer(caller))
                let kept = existing.activities.keys.sorted()
                let slots = existing.content.keys.sorted().map(\.rawValue)
                actions.append(.diagnostics(connection: caller, module: id, [
                    Diagnostic(
                        .moduleRestored, .info,
                        "module \"\(id)\" taken back with activities [\(kept.joined(separator: ", "))] and content [\(slots.joined(separator: ", "))]; "
                            + "StartActivity of a kept id replaces it once, UpdateActivity changes it",
                        module: id)
                ]))
            }
        } else {
            if modules.count >= limits.maxModules {
                guard let eviction = evictOwnerlessModule(for: caller, registering: id) else {
                    throw RegistryError(
                        .limitsExceeded, "module \"\(id)\": already \(modules.count) modules, each with a live connection (maxModules \(limits.maxModules))")
                }
                actions += eviction
            }
            modules[id] = ModuleRecord(id: id, owner: .connected(caller))
            moduleByConnection[caller] = id
            actions.append(.trackPeer(caller))
        }
        if displayName != nil || version != nil || modules[id]!.info == ModuleInfo() {
            modules[id]!.info = ModuleInfo(displayName: displayName ?? "", version: version ?? "")
        }
        // Like display_name: a Register with `rules` replaces them, one without keeps them.
        if let rules { modules[id]!.rules = rules }
        if !unknown.isEmpty { actions.append(.diagnostics(connection: caller, module: id, unknown)) }
        actions.append(.persist)
        return actions
    }

    /// `Unregister()`: ends the caller's activities, clears its content, frees the id.
    public mutating func unregister(caller: String, now: BrokerTime) throws(RegistryError) -> [RegistryAction] {
        let id = try ownModule(caller: caller, named: nil)
        let record = modules.removeValue(forKey: id)!
        moduleByConnection[caller] = nil
        var actions = Self.endings(of: record, cause: .activityEnded)
        actions.append(.untrackPeer(caller))
        actions.append(.persist)
        return actions
    }

    /// The connection `connection` left the bus: its module enters its grace period.
    public mutating func connectionLeft(_ connection: String, now: BrokerTime) -> [RegistryAction] {
        guard let id = moduleByConnection.removeValue(forKey: connection) else { return [] }
        modules[id]?.owner = .vanished(until: now + grace)
        return [.untrackPeer(connection)]
    }

    /// Ends every module whose grace period is over by `now` (`module_vanished`). Detached
    /// activities stay, and with them their module (`.detached`), until their dismiss dates.
    public mutating func expire(now: BrokerTime) -> [RegistryAction] {
        var actions: [RegistryAction] = []
        var removed = false
        for id in modules.keys.sorted() {
            guard case .vanished(let until) = modules[id]!.owner, until <= now else { continue }
            var record = modules.removeValue(forKey: id)!
            let detached = record.activities.filter { $0.value.lifetime == .detached }
            record.activities = record.activities.filter { $0.value.lifetime != .detached }
            actions += Self.endings(of: record, cause: .moduleVanished)
            if !detached.isEmpty {
                modules[id] = ModuleRecord(id: id, owner: .detached, info: record.info, activities: detached)
            }
            removed = true
        }
        if removed { actions.append(.persist) }
        return actions
    }

    /// Scene changes for a module leaving: each activity (display order), then its content.
    static func endings(of record: ModuleRecord, cause: SceneCause) -> [RegistryAction] {
        var actions: [RegistryAction] = []
        let activities = record.activities.values.sorted {
            $0.relevance != $1.relevance ? $0.relevance > $1.relevance : $0.startOrder < $1.startOrder
        }
        for activity in activities {
            actions.append(.sceneChanged(SceneChange(cause: cause, module: record.id, activity: activity.id, dismissal: .default)))
        }
        for slot in record.content.keys.sorted() {
            actions.append(.sceneChanged(SceneChange(cause: cause == .moduleVanished ? .moduleVanished : .contentChanged, module: record.id, slot: slot)))
        }
        return actions
    }

    /// The module a call acts on: the one named by a `module` key (which must be the caller's),
    /// else the caller's own.
    func ownModule(caller: String, named explicit: String?) throws(RegistryError) -> String {
        if let explicit {
            try checkIdentifier(explicit, what: "module id")
            guard let record = modules[explicit] else {
                throw RegistryError(.unknownModule, "module \"\(explicit)\" is not registered")
            }
            guard record.owner.connection == caller else {
                if record.owner.connection == nil {
                    throw RegistryError(
                        .accessDenied, "module \"\(explicit)\" has no owner (grace period, or detached activities); Register it to take it back before changing it")
                }
                throw RegistryError(.accessDenied, "module \"\(explicit)\" belongs to another connection; only its owner may change it")
            }
            return explicit
        }
        guard let id = moduleByConnection[caller] else {
            throw RegistryError(.notRegistered, "connection \(caller) has not registered a module (call Register first)")
        }
        return id
    }

    /// Diagnostics for the owner of `module`, as an action (none when empty or nobody owns it).
    func deliver(_ diagnostics: [Diagnostic], module: String) -> [RegistryAction] {
        guard !diagnostics.isEmpty, let connection = modules[module]?.owner.connection else { return [] }
        let stamped = diagnostics.map { diagnostic -> Diagnostic in
            var copy = diagnostic
            if copy.module.isEmpty { copy.module = module }
            return copy
        }
        return [.diagnostics(connection: connection, module: module, stamped)]
    }
}
