import NookCore

/// Room in a full module table. Modules with no live connection (in their grace period, or kept
/// for detached activities up to 24 h) count toward `maxModules`; without eviction, 512
/// short-lived connections could each leave one behind and refuse every later `Register` for a
/// day, across restarts. A new registration therefore ends the ownerless module used least
/// recently; only when every module has a live owner is it refused.
extension Registry {
    /// Ends the ownerless module whose newest activity started earliest (one without
    /// activities first; ties by id), and returns the actions that ending takes, with an
    /// info diagnostic for `caller`. Nil when every module has a live connection.
    mutating func evictOwnerlessModule(for caller: String, registering id: String) -> [RegistryAction]? {
        var victim: (id: String, lastStart: UInt64)?
        for (candidate, record) in modules where record.owner.connection == nil {
            let lastStart = record.activities.values.map(\.startOrder).max() ?? 0
            if let best = victim, (best.lastStart, best.id) <= (lastStart, candidate) { continue }
            victim = (candidate, lastStart)
        }
        guard let victim, let record = modules.removeValue(forKey: victim.id) else { return nil }
        var actions = Self.endings(of: record, cause: .moduleVanished)
        actions.append(.diagnostics(connection: caller, module: id, [
            Diagnostic(
                .moduleEvicted, .info,
                "module \"\(victim.id)\" had no live connection and was ended to make room for \"\(id)\" (maxModules \(limits.maxModules))",
                module: id)
        ]))
        return actions
    }
}
