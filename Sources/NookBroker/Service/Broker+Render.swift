import NookBus
import NookCore

/// Renderers: `Subscribe`, `Unsubscribe`, `Pointer`, `DisplayChanged`, and the unicast `Plan`
/// signal each subscriber receives in its own display's geometry.
extension Broker {
    /// `Subscribe(a{sv} display) -> (o handle, a{sv} plan)`: a fresh-window plan of the scene.
    /// A connection is one renderer: subscribing again replaces its subscription.
    func subscribe(_ caller: String, display record: [String: PropValue], expectsReply: Bool = true) throws(DBusError) -> [DBusValue] {
        var subscriber = try Self.subscriber(caller, record)
        let limit = delivery.limits.maxRenderers
        guard subscribers[caller] != nil || subscribers.count < limit else {
            throw DBusError(nook: .limitsExceeded, "Subscribe: maxRenderers (\(limit)) renderers are subscribed already")
        }
        // Its reply is a whole plan, which the bus daemon holds (charged to nookd) until the
        // renderer reads it: not while this connection, or all renderers, have too much unread.
        let perRenderer = delivery.limits.maxUnreadPlanBytes
        // Perhaps it read them without answering a ping: the bus daemon knows.
        if delivery.machine.unread.unread(caller) >= perRenderer { settleUnreadNow(caller) }
        let unread = delivery.machine.unread.unread(caller)
        guard unread < perRenderer else {
            throw DBusError(nook: .limitsExceeded, "Subscribe: this connection has \(unread) bytes of plans it has not read (maxUnreadPlanBytes \(perRenderer)); read them, then subscribe again")
        }
        let total = delivery.machine.unread.total, totalLimit = delivery.limits.maxUnreadPlanBytesTotal
        guard total < totalLimit else {
            settleUnreadSoon()
            throw DBusError(nook: .limitsExceeded, "Subscribe: renderers have \(total) bytes of plans unread (maxUnreadPlanBytesTotal \(totalLimit)); try again once they read them or leave")
        }
        subscriptionCount += 1
        let handle = try! ObjectPath("\(NookNames.objectPath)/subscribers/\(subscriptionCount)")
        let now = self.now
        let (plan, sampleRate) = subscriber.plan(
            to: SceneAssembler.content(for: machine.state, registry: registry), presentation: machine.state.presentation,
            action: PlanAction(cause: .subscribe, serial: nextSerial()), settings: settings, now: now, id: delivery.machine.nextPlanID(),
            marks: registry.marks)
        subscribers[caller] = subscriber
        tellModules(about: plan)
        let reply: [DBusValue] = [.objectPath(handle), Self.wire(plan, sampleRate: sampleRate)]
        // The reply is this frame's plan; a window left full by an earlier subscription stays full.
        delivery.machine.subscribed(
            caller, rate: subscriber.refreshRate, at: now,
            replyBytes: expectsReply ? reply.reduce(Self.signalHeaderBytes) { $0 + $1.marshalledSize } : nil)
        trackRenderer(caller)
        log(.info, "renderer \(caller) subscribed (\(Int(subscriber.display.width))x\(Int(subscriber.display.height)) at \(subscriber.refreshRate) Hz)")
        return reply
    }

    /// After `Subscribe`'s reply is on its way: a ping behind it, whose answer says the
    /// renderer read it (`RenderLimits.maxUnreadPlanBytes`).
    func subscribeReplied(_ caller: String) {
        if let ping = delivery.machine.subscribeReplied(caller) { carryOut(ping) }
    }

    /// `Unsubscribe()`, or the renderer left the bus: no more plans, and its match rule goes.
    func unsubscribe(_ caller: String) {
        subscribers[caller] = nil
        // Bytes it has not read stay with the bus daemon until it reads them: a ping says when.
        if let ping = delivery.machine.unsubscribed(caller) { carryOut(ping) }
        untrackRenderer(caller)
    }

    /// `DisplayChanged(a{sv})`: a display changed. From a subscribed renderer it is that
    /// renderer's display, refresh rate and capabilities; from anyone else (a display manager,
    /// nookctl) it is the display geometry every renderer shows, and the one previews use; it
    /// never changes a renderer's refresh rate or capabilities, which only the renderer knows.
    /// Each affected renderer gets a fresh-window plan on its next frame.
    func displayChanged(_ caller: String, display record: [String: PropValue]) throws(DBusError) -> UInt64 {
        let updated = try Self.subscriber(caller, record)
        let action = PlanAction(cause: .displayChanged, serial: nextSerial())
        let affected: [String]
        if var own = subscribers[caller] {
            own.display = updated.display
            own.refreshRate = updated.refreshRate
            own.capabilities = updated.capabilities
            subscribers[caller] = own
            delivery.machine.setRate(own.refreshRate, for: caller, at: now)
            affected = [caller]
        } else {
            previewDisplay = updated.display
            affected = Array(subscribers.keys)
            for connection in affected { subscribers[connection]!.display = updated.display }
        }
        for connection in affected { subscribers[connection]!.freshWindow = .displayChanged }
        queue(action, for: affected)
        return action.serial
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
            action: planAction, settings: settings, now: now, marks: registry.marks)
        return [Self.wire(plan, sampleRate: sampleRate)]
    }

    /// A whole plan as a reply's `a{sv}`, by the encoder the `Plan` signals use (`WirePlan`).
    static func wire(_ plan: TransitionPlan, sampleRate: Double?) -> DBusValue {
        WireCodec.vardict(WirePlan(plan, sampleRate: sampleRate).tape.dictionary)
    }

    /// A stand-in renderer on the default display that already shows `state`.
    static func previewSubscriber(showing state: NookState, display: DisplayInfo, registry: Registry, settings: PlannerSettings, now: BrokerTime) -> RenderSubscriber {
        var subscriber = RenderSubscriber(connection: "", name: "preview", display: display)
        _ = subscriber.plan(to: SceneAssembler.content(for: state, registry: registry), presentation: state.presentation,
                            action: PlanAction(cause: .subscribe, serial: 0), settings: settings, now: now + -1_000,
                            marks: registry.marks)
        return subscriber
    }
}
