import NookBus
import NookCore

/// Renderers: `Subscribe`, `Unsubscribe`, `Pointer`, `DisplayChanged`, and the unicast `Plan`
/// signal each subscriber receives in its own display's geometry.
extension Broker {
    /// `Subscribe(a{sv} display) -> (o handle, a{sv} plan)`: a fresh-window plan of the scene.
    func subscribe(_ caller: String, display record: [String: PropValue]) throws(DBusError) -> [DBusValue] {
        var subscriber = try Self.subscriber(caller, record)
        subscriptionCount += 1
        let handle = try! ObjectPath("\(NookContract.objectPath)/subscribers/\(subscriptionCount)")
        let (plan, sampleRate) = subscriber.plan(
            to: SceneAssembler.content(for: machine.state, registry: registry), presentation: machine.state.presentation,
            action: PlanAction(cause: .subscribe, serial: nextSerial()), settings: settings, now: now)
        flushTasks.removeValue(forKey: caller)?.cancel()
        subscribers[caller] = subscriber
        if subscriberPeers[caller] == nil { Task { await self.trackSubscriber(caller) } }
        log(.info, "renderer \(caller) subscribed (\(Int(subscriber.display.width))x\(Int(subscriber.display.height)) at \(subscriber.refreshRate) Hz)")
        return [.objectPath(handle), WireCodec.vardict(plan.wireDictionary(sampleRate: sampleRate))]
    }

    func unsubscribe(_ caller: String) {
        subscribers[caller] = nil
        flushTasks.removeValue(forKey: caller)?.cancel()
        if let token = subscriberPeers.removeValue(forKey: caller) {
            Task { await self.connection.removeMatch(token) }
        }
    }

    /// `DisplayChanged(a{sv})`: a display changed. From a subscribed renderer it is that
    /// renderer's display; from anyone else (a display manager, nookctl) it is the display every
    /// renderer shows, and the one previews use. Each affected renderer gets a fresh-window plan.
    func displayChanged(_ caller: String, display record: [String: PropValue]) throws(DBusError) -> UInt64 {
        let updated = try Self.subscriber(caller, record)
        let affected = subscribers[caller] != nil ? [caller] : subscribers.keys.sorted()
        if subscribers[caller] == nil { previewDisplay = updated.display }
        let action = PlanAction(cause: .displayChanged, serial: nextSerial())
        for connection in affected {
            guard var subscriber = subscribers[connection] else { continue }
            subscriber.display = updated.display
            if subscribers[caller] != nil || record["refresh_rate"] != nil { subscriber.refreshRate = updated.refreshRate }
            if subscribers[caller] != nil || record["capabilities"] != nil { subscriber.capabilities = updated.capabilities }
            subscribers[connection] = subscriber
            flush(connection, action: action)
        }
        return action.serial
    }

    private func trackSubscriber(_ name: String) async {
        guard subscribers[name] != nil, subscriberPeers[name] == nil else { return }
        do {
            let token = try await connection.trackPeer(name) { [weak self] in
                self?.assumeIsolated { broker in
                    broker.log(.info, "renderer \(name) left the bus; dropped")
                    broker.unsubscribe(name)
                }
            }
            if subscribers[name] == nil { await connection.removeMatch(token) } else { subscriberPeers[name] = token }
        } catch {
            log(.warning, "cannot track renderer \(name): \(error)")
        }
    }

    // MARK: Delivery

    /// Queues `action` for one subscriber's next frame; the latest queued action wins.
    func schedule(_ action: PlanAction, for connection: String) {
        guard var subscriber = subscribers[connection] else { return }
        subscriber.pending = subscriber.pending.map { $0.coalescing(action) } ?? action
        subscribers[connection] = subscriber
        guard flushTasks[connection] == nil else { return }
        let due = subscriber.nextSendTime(now: now)
        // A frame has passed since the last plan: send now, without a timer's detour.
        if due <= now { return flush(connection, action: action) }
        let deadline = origin + .microseconds(Int64((due.seconds * 1_000_000).rounded(.up)))
        flushTasks[connection] = Task { [weak self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            guard !Task.isCancelled else { return }
            await self?.flushPending(connection)
        }
    }

    private func flushPending(_ connection: String) {
        flushTasks[connection] = nil
        guard let action = subscribers[connection]?.pending else { return }
        flush(connection, action: action)
    }

    /// Plans the current scene for one subscriber now and sends it.
    func flush(_ connection: String, action: PlanAction) {
        guard var subscriber = subscribers[connection] else { return }
        flushTasks.removeValue(forKey: connection)?.cancel()
        let (plan, sampleRate) = subscriber.plan(
            to: SceneAssembler.content(for: machine.state, registry: registry), presentation: machine.state.presentation,
            action: action, settings: settings, now: now)
        subscribers[connection] = subscriber
        let path = self.path
        let argument = WireCodec.vardict(plan.wireDictionary(sampleRate: sampleRate))
        do {
            try self.connection.assumeIsolated { bus in
                try bus.emitSignal(path: path, interface: NookContract.renderInterface, member: "Plan", arguments: [argument], destination: connection)
            }
        } catch {
            log(.warning, "could not send plan \(plan.serial) to \(connection): \(error)")
        }
    }

    /// `PreviewPlan(s action, a{sv} options)`: the plan `action` would cause now, for the first
    /// subscriber's display (or the default one). Changes nothing.
    func preview(_ name: String, options: [String: PropValue]) throws(DBusError) -> [DBusValue] {
        let action: ControlAction
        switch name {
        case "open": action = try Self.openAction(options)
        case "close": action = .close
        case "show": action = .show
        case "hide": action = .hide
        case "end_peek": action = .endPeek
        case "peek":
            guard let module = try Self.string(options, "module"), let activity = try Self.string(options, "activity") else {
                throw DBusError(nook: .invalidArgs, "PreviewPlan peek: give 'module' and 'activity' in options")
            }
            action = .peek(ActivityRef(module: module, activity: activity))
        default:
            throw DBusError(nook: .invalidArgs, "PreviewPlan: action must be open, close, peek, end_peek, show or hide, got '\(name)'")
        }
        var machine = self.machine
        let change: PresentationMachine.Change?
        do { change = try machine.apply(action, registry: registry) } catch { throw DBusError(error) }
        var subscriber = subscribers.keys.sorted().first.flatMap { subscribers[$0] }
            ?? Self.previewSubscriber(showing: self.machine.state, display: previewDisplay, registry: registry, settings: settings, now: now)
        let planAction = PlanAction(cause: change?.cause ?? PlanCause(rawValue: name) ?? .show, serial: serial + 1, via: change?.via ?? .claim)
        let (plan, sampleRate) = subscriber.plan(
            to: SceneAssembler.content(for: machine.state, registry: registry), presentation: machine.state.presentation,
            action: planAction, settings: settings, now: now)
        return [WireCodec.vardict(plan.wireDictionary(sampleRate: sampleRate))]
    }

    /// A stand-in renderer on the default display that already shows `state`.
    static func previewSubscriber(showing state: NookState, display: DisplayInfo, registry: Registry, settings: PlannerSettings, now: BrokerTime) -> RenderSubscriber {
        var subscriber = RenderSubscriber(connection: "", name: "preview", display: display)
        _ = subscriber.plan(to: SceneAssembler.content(for: state, registry: registry), presentation: state.presentation,
                            action: PlanAction(cause: .subscribe, serial: 0), settings: settings, now: now + -1_000)
        return subscriber
    }
}
