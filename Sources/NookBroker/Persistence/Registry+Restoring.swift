import NookBus
import NookCore

extension Registry {
    /// A registry holding a stored snapshot: every module without an owner, in its grace
    /// period from `now`, so a restarted module registers and takes its state back.
    ///
    /// Nothing stored is trusted. The snapshot is replayed through the registry's own entry
    /// points, the ones the D-Bus calls use: `register` for each module (display name and
    /// version as `Register` info), `setContent` for each module view, `startActivity` for each
    /// activity (its stored fields as a `StartActivity` spec). Every value first makes the
    /// round trip through the wire codec, so it reaches the registry in the shape a call would
    /// bring it. Whatever those entry points refuse (an invalid id, a view too deep, NaN, the
    /// module's activity limit) is returned in `rejected`, and the rest is restored; a tighter
    /// validator refuses the same things here as on the bus, with no second list of rules.
    ///
    /// Activities and compact content are replayed in their stored start order across all
    /// modules, so the display order comes back the same, and the order counter is renumbered
    /// from 1 (a stored counter near its maximum can never overflow later).
    public static func restoring(_ snapshot: RegistrySnapshot, limits: RegistryLimits = .standard, grace: Double = 10, now: BrokerTime)
        -> (registry: Registry, rejected: [RejectedEntry])
    {
        var registry = Registry(limits: limits, grace: grace)
        var rejected = snapshot.unreadable
        // Each stored module is replayed by a caller of its own; no D-Bus unique name
        // (":1.42") can look like these.
        var callers: [String: String] = [:]

        for (index, module) in snapshot.modules.enumerated() {
            let caller = "restoring-module-\(index)"
            let info: [String: PropValue] = ["display_name": .string(module.displayName), "version": .string(module.version)]
            do {
                _ = try registry.register(module: module.id, info: Self.asFromTheBus(info), caller: caller, now: now)
                callers[module.id] = caller
                registry.restoreRules(module, caller: caller, now: now, rejected: &rejected)
                // Dismissed ids are ids like any other: one that breaks the rules is set aside.
                for activity in module.dismissed {
                    do {
                        try checkIdentifier(activity, what: "dismissed activity id")
                        registry.modules[module.id]!.rememberDismissal(of: activity)
                    } catch {
                        rejected.append(RejectedEntry(kind: .activity, module: module.id, activity: activity, reason: error.message, stored: .json(.string(activity))))
                    }
                }
            } catch {
                rejected.append(RejectedEntry(kind: .module, module: module.id, reason: error.message, stored: .module(module)))
            }
        }

        // What takes a number from the order counter, replayed in stored order.
        enum Step {
            case compactContent(RegistrySnapshot.Module)
            case activity(RegistrySnapshot.Module, RegistrySnapshot.Activity)
        }
        var ordered: [(order: UInt64, tie: String, step: Step)] = []
        for module in snapshot.modules {
            guard let caller = callers[module.id], registry.modules[module.id]?.owner.connection == caller else { continue }
            for name in module.content.keys.sorted() where !Self.isCompact(name) {
                registry.restoreContent(name, module.content[name]!, module: module.id, caller: caller, now: now, rejected: &rejected)
            }
            if module.content.keys.contains(where: Self.isCompact) {
                ordered.append((module.compactOrder ?? 0, module.id, .compactContent(module)))
            }
            for activity in module.activities {
                ordered.append((activity.startOrder, "\(module.id)/\(activity.id)", .activity(module, activity)))
            }
        }
        ordered.sort { $0.order != $1.order ? $0.order < $1.order : $0.tie < $1.tie }
        for (_, _, step) in ordered {
            switch step {
            case .compactContent(let module):
                for name in module.content.keys.sorted() where Self.isCompact(name) {
                    registry.restoreContent(name, module.content[name]!, module: module.id, caller: callers[module.id]!, now: now, rejected: &rejected)
                }
            case .activity(let module, let activity):
                do {
                    _ = try registry.startActivity(
                        activity.id, spec: Self.asFromTheBus(activity.spec), caller: callers[module.id]!, now: now)
                } catch {
                    rejected.append(RejectedEntry(
                        kind: .activity, module: module.id, activity: activity.id, reason: error.message, stored: .activity(activity)))
                }
            }
        }

        // Every restored module waits for its process, as after a crash of that process.
        for (id, caller) in callers {
            _ = registry.connectionLeft(caller, now: now)
            for key in registry.modules[id]?.activities.keys.map({ $0 }) ?? [] {
                registry.modules[id]!.activities[key]!.adoptable = true
            }
        }
        return (registry, rejected)
    }

    /// The module's rules through `Register` info `rules`, after the module itself is back, so
    /// rules the theme's validation now refuses are set aside without losing the module.
    private mutating func restoreRules(_ module: RegistrySnapshot.Module, caller: String, now: BrokerTime, rejected: inout [RejectedEntry]) {
        guard !module.rules.isEmpty else { return }
        let rules = PropValue.dictionary(module.rules.mapValues(\.propValue))
        do {
            _ = try register(module: module.id, info: Self.asFromTheBus(["rules": rules]), caller: caller, now: now)
        } catch {
            rejected.append(RejectedEntry(kind: .token, module: module.id, key: "rules", reason: error.message, stored: .value(StoredValue(rules))))
        }
    }

    private static func isCompact(_ slot: String) -> Bool { ModuleSlot(rawValue: slot)?.isCompact ?? false }

    private mutating func restoreContent(
        _ name: String, _ node: StoredNode, module: String, caller: String, now: BrokerTime, rejected: inout [RejectedEntry]
    ) {
        do {
            let raw = try RawNode(wire: node.rawNode.wireValue, at: name)
            _ = try setContent(slot: name, view: raw, caller: caller, now: now)
        } catch let error as RegistryError {
            rejected.append(RejectedEntry(kind: .content, module: module, key: name, reason: error.message, stored: .node(node)))
        } catch {
            rejected.append(RejectedEntry(kind: .content, module: module, key: name, reason: "\(error)", stored: .node(node)))
        }
    }

    /// `values` after the trip a D-Bus call gives them: encoded as `a{sv}` and decoded by the
    /// codec the handlers use, so no stored shape reaches the registry that a call could not.
    static func asFromTheBus(_ values: [String: PropValue]) throws(RegistryError) -> [String: PropValue] {
        do { return try WireCodec.dictionary(WireCodec.vardict(values), at: "") } catch {
            throw RegistryError(.invalidArgs, error.description)
        }
    }
}

extension RegistrySnapshot.Activity {
    /// The stored activity as the `StartActivity` spec that would publish it again.
    var spec: [String: PropValue] {
        var spec: [String: PropValue] = ["accessibility_label": .string(accessibilityLabel), "relevance": .double(relevance)]
        for (slot, node) in views { spec[slot] = .node(node.rawNode) }
        if let staleDate { spec["stale_date"] = .int(staleDate) }
        if let dismissDate { spec["dismiss_date"] = .int(dismissDate) }
        if let lifetime { spec["lifetime"] = .string(lifetime) }
        if let dismissible { spec["dismissible"] = .bool(dismissible) }
        if let sequence { spec["sequence"] = .uint(sequence) }
        return spec
    }
}
