import NookBus
import NookCore

/// Getting plans to renderers: calls only queue changes; one frame timer on the bus thread
/// plans and sends what is due, at most one plan per frame per renderer, planned once for all
/// renderers with the same inputs, and never more than a small window of plans a renderer has
/// not acknowledged. What is due, when, and what to ping or drop is `DeliveryMachine`'s to
/// decide; this file plans, sends, and carries out its actions.
extension Broker {
    /// Queues `action` for `connections` (every subscriber by default); their plans go out on
    /// their next frame. Never plans here (`deliverBeforeTheReplyWhenOneRendererIsDue` may,
    /// once a module's call has been applied).
    func queue(_ action: PlanAction, for connections: [String]? = nil) {
        guard case .take(let timer) = delivery.machine.changed(action, for: connections, at: now) else { return }
        // Every call passes here once per subscriber, so subscribers are changed in place
        // through their index: no copy of a subscriber (or of the dictionary) per call.
        if let connections {
            for connection in connections {
                guard let index = subscribers.index(forKey: connection) else { continue }
                subscribers.values[index].queue(action)
            }
        } else {
            var index = subscribers.startIndex
            while index != subscribers.endIndex {
                subscribers.values[index].queue(action)
                subscribers.formIndex(after: &index)
            }
        }
        // Plans made earlier no longer show the latest state.
        delivery.shared.removeAll()
        if let timer { carryOut(timer) }
    }

    /// While a module's call is carried out, the changes it queues leave the frame timer alone.
    func callStarted() { delivery.machine.callStarted() }

    /// A module's change that exactly one renderer is due to show goes out to it before the
    /// call is answered (`DeliveryMachine.callEnded`).
    func deliverBeforeTheReplyWhenOneRendererIsDue() {
        switch delivery.machine.callEnded(at: now) {
        case .serve(let only, let cancelTimer):
            if cancelTimer, let timer = delivery.timer { connection.executor.cancel(timer) }
            delivery.timer = nil
            deliverDueFrames(due: [only])
        case .timer(let timer):
            if let timer { carryOut(timer) }
        }
    }

    /// Sets the frame timer for the earliest time a renderer is due (or clears it).
    func armFrameTimer() {
        if let timer = delivery.machine.armFrameTimer(at: now) { carryOut(timer) }
    }

    /// Carries out what the delivery machine asked for.
    func carryOut(_ action: DeliveryMachine.Action) {
        switch action {
        case .armFrameTimer(let due):
            if let timer = delivery.timer { connection.executor.cancel(timer) }
            let delay = Duration.microseconds(Int64((max(0, due.seconds - now.seconds) * 1_000_000).rounded(.up)))
            delivery.timer = connection.executor.runOnce(after: delay) { [weak self] in
                // On the bus thread: the actor's own executor.
                self?.assumeIsolated { $0.deliverDueFrames() }
            }
        case .cancelFrameTimer:
            if let timer = delivery.timer { connection.executor.cancel(timer) }
            delivery.timer = nil
        case .ping(let ping):
            send(ping)
        case .armSilenceCheck(let seconds):
            delivery.silenceCheck = connection.executor.runOnce(after: .microseconds(Int64(seconds * 1_000_000))) { [weak self] in
                self?.assumeIsolated { $0.silenceCheckFired() }
            }
        case .askBusWhatItHolds(let candidates):
            askBusWhatItHolds(candidates)
        case .drop(let renderer, let bytes):
            log(.warning, "renderer \(renderer) has read nothing for \(delivery.limits.silentRendererTimeout)s with \(bytes) bytes of plans unread; dropped (it may subscribe again once it reads)")
            unsubscribe(renderer)
        case .freshWindow(let renderer, let reason):
            subscribers[renderer]?.freshWindow = .subscribe
            switch reason {
            case .caughtUp: log(.debug, "renderer \(renderer) caught up; it gets a fresh window of the current scene")
            case .heldBack: log(.debug, "renderer \(renderer) was held back by unread plans for a while; it gets a fresh window of the current scene")
            }
        case .readWithoutAcknowledging(let name, let bytes):
            log(.debug, "connection \(name) read its plans without acknowledging them: the bus holds \(bytes) bytes for it")
        }
    }

    func carryOut(_ actions: [DeliveryMachine.Action]) {
        for action in actions { carryOut(action) }
    }

    /// The frame timer fired: plan and send for the renderers that are due, within
    /// `DeliveryMachine.turnLength`; when some are left, the pass goes on in the next turn from
    /// the same snapshot and with the same order of renderers, and calls are read in between.
    func deliverDueFrames(due known: [String]? = nil) {
        delivery.timer = nil
        let now = self.now
        guard let pass = delivery.machine.passTurn(known: known, at: now) else { return endPass() }
        if delivery.snapshot == nil {
            delivery.snapshot = PassSnapshot(
                content: SceneAssembler.content(for: machine.state, registry: registry), presentation: machine.state.presentation,
                settings: settings, marks: registry.marks)
        }
        let snapshot = delivery.snapshot!
        // Taken out while serving, so serving can change the rest of the delivery state.
        var shared = delivery.shared
        delivery.shared = [:]
        var served = 0
        for connection in pass.due {
            if served > 0, self.now.seconds - now.seconds >= DeliveryMachine.turnLength { break }
            served += 1
            // Due when the pass began; a renderer that left or filled its window since is not.
            guard delivery.machine.isDue(connection, at: now) else { continue }
            deliver(to: connection, from: snapshot, frameStart: pass.startedAt, shared: &shared, now: now)
        }
        delivery.shared = shared
        if let timer = delivery.machine.turnEnded(served: served, from: now, to: self.now) { return carryOut(timer) }
        if delivery.machine.pass?.due.isEmpty == false { return }
        endPass()
    }

    /// The pass is over: the changes it held are queued (for the next frame) and the timer set
    /// for whoever is due next.
    private func endPass() {
        let held = delivery.machine.passEnded()
        if delivery.snapshot != nil || !delivery.shared.isEmpty {
            releaseLater((delivery.snapshot.take(), delivery.passDestinations, delivery.shared))
        }
        delivery.passDestinations.removeAll()
        delivery.shared.removeAll()
        for change in held { queue(change.action, for: change.connections) }
        armFrameTimer()
    }

    /// Sends one due renderer its plan: planned and prepared as a signal once per distinct
    /// inputs in this pass (`shared`), recorded as sent only once the bus has taken it.
    private func deliver(to connection: String, from pass: PassSnapshot, frameStart: BrokerTime, shared: inout [PlanInputs: SharedPlan], now: BrokerTime) {
        guard let index = subscribers.index(forKey: connection) else { return delivery.machine.gone(connection) }
        let version = delivery.machine.scheduler.version(of: connection)
        let next = withSubscriber(at: index) { subscriber in
            subscriber.nextAction.map { (action: $0, inputs: subscriber.inputs(for: $0, at: now)) }
        }
        guard let (action, inputs) = next else { return delivery.machine.nothingToSend(connection, covering: version) }
        // Its own unread plans, or every renderer's together, are at their byte budget: it
        // waits, its latest state coalesced, until acknowledgements free bytes.
        if let holding = delivery.machine.holdBackIfOverBudget(connection, at: now) { return carryOut(holding) }
        var plan: SharedPlan
        // Made in this call: its modules are told once it is sent (`modulesTold` is set ahead,
        // and taken back if the send fails, so a renderer sharing it later tells them).
        var madeHere = false
        if let planned = shared[inputs] {
            plan = planned
        } else {
            let display = inputs.display
            let prepared = delivery.passDestinations[display]
            let made = withSubscriber(at: index) { subscriber in
                let destination = prepared
                    ?? subscriber.destination(for: pass.content, presentation: pass.presentation, settings: pass.settings,
                                              reusing: !action.causes.contains(.themeChanged))
                let planned = subscriber.planned(
                    to: pass.content, presentation: pass.presentation, action: action, settings: pass.settings, now: now, marks: pass.marks,
                    prepared: destination)
                // Subscribers sharing these inputs share their origin plan, so a delta against it
                // is theirs too.
                let wire = WirePlan(
                    planned.sent, sampleRate: planned.sampleRate, base: subscriber.deltaBase,
                    compact: subscriber.capabilities.contains(.compactPlans))
                return (destination: prepared == nil ? destination : nil, plan: planned.plan, wire: wire)
            }
            if let destination = made.destination { delivery.passDestinations[display] = destination }
            let path = self.path
            let signal = self.connection.assumeIsolated { bus in
                bus.prepareSignal(path: path, interface: NookNames.renderInterface, member: RenderMember.plan.rawValue, plan: made.wire)
            }
            plan = SharedPlan(id: delivery.machine.nextPlanID(), plan: made.plan, plannedAt: now, signal: signal, bytes: nil, modulesTold: true)
            madeHere = true
            delivery.machine.planMade()
        }
        // Its body's bytes are counted while the first renderer's message is written; the
        // others sharing it get the same bytes.
        let first = plan.bytes == nil
        let bytes: Int
        do {
            let counted = try self.connection.assumeIsolated { bus in try bus.emit(plan.signal, to: connection, countingBytes: first) }
            bytes = plan.bytes ?? (counted ?? 0) + Self.signalHeaderBytes
        } catch {
            // Not sent, so not recorded: the change still waits and goes out on a later frame.
            log(.warning, "could not send plan \(plan.plan.serial) to \(connection): \(error)")
            delivery.machine.sendFailed(connection, at: now)
            if madeHere {
                plan.modulesTold = false
                shared[inputs] = plan
            }
            return
        }
        let acknowledging = delivery.machine.sent(connection, bytes: bytes, covering: version, frameStart: frameStart)
        plan.bytes = bytes
        // Modules hear about a plan's diagnostics once it is on its way, once per plan made.
        if madeHere {
            shared[inputs] = plan
            tellModules(about: plan.plan)
        } else if !plan.modulesTold {
            plan.modulesTold = true
            shared[inputs] = plan
            tellModules(about: plan.plan)
        } else if first {
            shared[inputs] = plan
        }
        releaseLater(withSubscriber(at: index) { $0.didSend(plan.plan, id: plan.id, at: plan.plannedAt) })
        carryOut(acknowledging)
    }

    /// Runs `body` on the subscriber at `index` in place. A subscriber holds whole scenes:
    /// reading one through the dictionary's getter copied it, and released the copy, each time.
    /// `body` must not touch `subscribers`.
    private func withSubscriber<Result>(at index: [String: RenderSubscriber].Index, _ body: (inout RenderSubscriber) -> Result) -> Result {
        body(&subscribers.values[index])
    }

    // MARK: Acknowledgements

    /// About what a signal's header and the bus daemon's bookkeeping add to its body, in
    /// bytes (a plan's header names the path, interface, member, sender and destination).
    static let signalHeaderBytes = 160

    /// Sends `ping`; its answer (or the renderer leaving) goes back to the machine.
    private func send(_ ping: DeliveryMachine.Ping) {
        do {
            try self.connection.assumeIsolated { bus in
                try bus.ping(ping.connection) { [weak self] outcome in
                    self?.assumeIsolated { $0.pingEnded(ping, answered: outcome == .answered) }
                }
            }
        } catch {
            // No ping, no answer: free the places now rather than never.
            pingEnded(ping, answered: true)
        }
    }

    private func pingEnded(_ ping: DeliveryMachine.Ping, answered: Bool) {
        carryOut(delivery.machine.pingEnded(ping, answered: answered, at: now))
    }

    // MARK: Unread bytes

    /// Asks the bus daemon, without holding the bus thread, how much it really holds for
    /// `candidates` (`DeliveryMachine.askBusSoon`).
    private func askBusWhatItHolds(_ candidates: [String]) {
        let connection = self.connection
        Task { [weak self] in
            var held: [(String, Int)] = []
            for name in candidates {
                // No statistics on this bus: nothing to learn from the others either.
                guard let bytes = await connection.bytesHeldFor(name) else { break }
                held.append((name, bytes))
            }
            await self?.busHolds(held)
        }
    }

    private func busHolds(_ held: [(String, Int)]) {
        carryOut(delivery.machine.busHolds(held, at: now))
    }

    /// The same for one connection, now, on the bus thread (a `Subscribe` that would be refused).
    func settleUnreadNow(_ name: String) {
        guard let bytes = connection.assumeIsolated({ $0.bytesHeldForNow(name) }) else { return }
        delivery.machine.busHolds(bytes, for: name)
    }

    /// Asks the bus daemon soon (at most once a second) what it holds for renderers.
    func settleUnreadSoon() {
        if let ask = delivery.machine.askBusSoon(at: now) { carryOut(ask) }
    }

    private func silenceCheckFired() {
        delivery.silenceCheck = nil
        carryOut(delivery.machine.silenceCheckFired(at: now))
    }

    // MARK: Peer tracking

    /// Watches for `name` leaving the bus, once per connection.
    func trackRenderer(_ name: String) {
        guard delivery.tracking[name] == nil else { return }
        delivery.tracking[name] = .installing
        Task { await self.installRendererTracking(name) }
    }

    private func installRendererTracking(_ name: String) async {
        do {
            let token = try await connection.trackPeer(name) { [weak self] in
                self?.assumeIsolated { broker in
                    broker.log(.info, "renderer \(name) left the bus; dropped")
                    broker.unsubscribe(name)
                }
            }
            rendererTrackingInstalled(name, token)
        } catch {
            delivery.tracking[name] = nil
            log(.warning, "cannot track renderer \(name): \(error)")
        }
    }

    private func rendererTrackingInstalled(_ name: String, _ token: MatchToken) {
        guard subscribers[name] != nil else {
            // Unsubscribed while the match was being added.
            delivery.tracking[name] = nil
            connection.assumeIsolated { $0.removeMatch(token) }
            return
        }
        delivery.tracking[name] = .installed(token)
    }

    /// Stops watching `name`. A match still being added is removed by the task adding it, which
    /// finds no subscriber.
    func untrackRenderer(_ name: String) {
        guard case .installed(let token)? = delivery.tracking[name] else { return }
        delivery.tracking[name] = nil
        connection.assumeIsolated { $0.removeMatch(token) }
    }

    /// Match rules the broker holds to watch renderers (for tests and logs).
    var rendererMatchCount: Int { delivery.tracking.count }
}

