import NookBus
import NookCore

/// What `GetState` answers and `StateChanged` broadcasts (contract 1.1: `items`, `modules`),
/// and the coalescing of those broadcasts: at most one per `StateBroadcast.interval` while the
/// state changes, and always one carrying the final state.
struct StateBroadcast {
    /// The shortest gap between two `StateChanged` signals.
    static let interval = 0.05
    /// The bus thread's timer for the next broadcast (nil: none is due). A timer of the bus
    /// thread rather than a sleeping task: the task woke a pool thread and the dispatch timer
    /// thread 20 times a second while modules publish, each competing with the bus thread.
    var pending: BusExecutor.TimerID?
    var lastSent: [String: DBusValue]?
    var lastSentAt: BrokerTime?
}

extension Broker {
    /// The `a{sv}` of `GetState` and `StateChanged`.
    func stateRecord() -> [String: DBusValue] {
        let order = registry.displayOrder
        var focus = machine.state.focus
        if machine.state == .pill || machine.state == .hidden {
            // The pill shows the primary activity, or the module whose compact content it shows.
            focus = (order.first?.module ?? registry.compactContentModule ?? "", order.first?.activity ?? "")
        }
        var state: [String: DBusValue] = [
            "presentation": .string(machine.state.presentation.rawValue),
            "module": .string(focus.module),
            "activity": .string(focus.activity),
            "activities": .array(element: "(ss)", order.map { .structure([.string($0.module), .string($0.activity)]) }),
            "reduce_motion": .bool(settings.reduceMotion),
            "serial": .uint64(serial),
            "persistence": .string(persistenceError == nil ? "ok" : "failing"),
            "items": .array(element: "a{sv}", stateItems(order)),
            "modules": .array(element: "a{sv}", stateModules(order)),
        ]
        if let persistenceError { state["persistence_error"] = .string(persistenceError) }
        return state
    }

    /// One record per activity in display order. `role`: `primary` beside the notch,
    /// `secondary` in a capsule, `none` while the nook is hidden.
    private func stateItems(_ order: [ActivityRef]) -> [DBusValue] {
        let hidden = machine.state == .hidden
        return order.enumerated().compactMap { index, ref in
            guard let activity = registry.activity(ref) else { return nil }
            let role = hidden ? "none" : index == 0 ? "primary" : "secondary"
            return .vardict([
                "module": .string(ref.module), "activity": .string(ref.activity),
                "accessibility_label": .string(activity.accessibilityLabel), "relevance": .double(activity.relevance),
                "stale": .bool(activity.isStale), "role": .string(role),
            ])
        }
    }

    /// One record per registered module, by id; its activities in display order.
    private func stateModules(_ order: [ActivityRef]) -> [DBusValue] {
        registry.modules.keys.sorted().compactMap { id in
            guard let module = registry.modules[id] else { return nil }
            let activities = order.filter { $0.module == id }.map { DBusValue.string($0.activity) }
            return .vardict([
                "module": .string(id), "display_name": .string(module.info.displayName),
                "connected": .bool(module.owner.connection != nil), "activities": .array(element: "s", activities),
            ])
        }
    }

    /// Something a status bar may show changed: a `StateChanged` goes out within
    /// `StateBroadcast.interval`, carrying the state as it is then.
    func noteStateChange() {
        guard stateBroadcast.pending == nil else { return }
        let wait = stateBroadcast.lastSentAt.map { max(0, $0.seconds + StateBroadcast.interval - now.seconds) } ?? 0
        stateBroadcast.pending = connection.executor.runOnce(after: .microseconds(Int64((wait * 1_000_000).rounded(.up)))) { [weak self] in
            // On the bus thread: the actor's own executor.
            self?.assumeIsolated { $0.broadcastState() }
        }
    }

    private func broadcastState() {
        stateBroadcast.pending = nil
        let record = stateRecord()
        guard record != stateBroadcast.lastSent else { return }
        let path = self.path
        do {
            try connection.assumeIsolated { bus in
                try bus.emitSignal(path: path, interface: NookNames.controlInterface, member: ControlMember.stateChanged.rawValue, arguments: [.vardict(record)])
            }
            stateBroadcast.lastSent = record
            stateBroadcast.lastSentAt = now
        } catch {
            log(.warning, "could not broadcast StateChanged: \(error)")
        }
    }
}
