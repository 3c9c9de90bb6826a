import NookBus
import NookCore

/// Getting plans to renderers: calls only queue changes; one frame timer on the bus thread
/// plans and sends what is due, at most one plan per frame per renderer, planned once for all
/// renderers with the same inputs, and never more than a small window of plans a renderer has
/// not acknowledged.
extension Broker {
    /// Queues `action` for `connections` (every subscriber by default); their plans go out on
    /// their next frame. Never plans here (`deliverBeforeTheReplyWhenOneRendererIsDue` may,
    /// once a module's call has been applied).
    func queue(_ action: PlanAction, for connections: [String]? = nil) {
        // A pass under way plans from its snapshot to the end; the change waits for it.
        if delivery.pass != nil {
            delivery.pass!.hold(action, for: connections)
            return
        }
        // Every call passes here once per subscriber, so subscribers are changed in place
        // through their index: no copy of a subscriber (or of the dictionary) per call.
        if let connections {
            for connection in connections {
                guard let index = subscribers.index(forKey: connection) else { continue }
                subscribers.values[index].queue(action)
                delivery.scheduler.changed(connection)
            }
        } else {
            var index = subscribers.startIndex
            while index != subscribers.endIndex {
                subscribers.values[index].queue(action)
                subscribers.formIndex(after: &index)
            }
            delivery.scheduler.changedAll()
        }
        // Plans made earlier no longer show the latest state.
        delivery.shared.removeAll()
        if !delivery.frameTimerHeld { armFrameTimer() }
    }

    /// A module's change that exactly one renderer is due to show goes out to it before the
    /// call is answered. The plan is what the user sees; the reply only tells the module its
    /// change was taken, and a module woken by its reply takes CPU time the plan would need
    /// (on two cores the module, the bus daemon, the broker and the renderer take turns).
    /// With several renderers due, their plans stay on the frame timer's turns, so no call
    /// waits behind many plans: at most behind one.
    ///
    /// While the call's actions are carried out the frame timer is held (`frameTimerHeld`):
    /// it is armed here only when the plan is not sent at once, rather than armed for every
    /// change and cancelled again.
    func deliverBeforeTheReplyWhenOneRendererIsDue() {
        // A pass under way held the call's changes, and keeps its own pace.
        guard delivery.pass == nil else { return }
        let now = self.now
        guard let only = delivery.scheduler.onlyDue(at: now) else { return armFrameTimer() }
        if let timer = delivery.timer { connection.executor.cancel(timer) }
        deliverDueFrames(due: [only])
    }

    /// How long one firing of the frame timer goes on serving renderers before the bus thread
    /// reads calls again, in seconds: at least one renderer is served, and another only while
    /// the turn is shorter than this. With hundreds of renderers a frame's plans go out over
    /// several turns, and a call waits behind about this much, or one plan made.
    static let turnLength = 0.000_2
    /// The largest share of the bus thread's time a delivery pass spanning several turns
    /// takes (the rest: pauses between its turns).
    static let deliveryDuty = 0.33

    /// Sets the frame timer for the earliest time a renderer is due (or clears it).
    func armFrameTimer() {
        let now = self.now
        guard let due = delivery.scheduler.nextDue(after: now) else {
            if let timer = delivery.timer { connection.executor.cancel(timer) }
            delivery.timer = nil
            delivery.timerDue = nil
            return
        }
        armFrameTimer(at: due, now: now)
    }

    /// Makes sure the frame timer fires at `due` or earlier.
    private func armFrameTimer(at due: BrokerTime, now: BrokerTime) {
        // A timer set for an earlier moment re-arms when it fires.
        if delivery.timer != nil, let armed = delivery.timerDue, armed <= due { return }
        if let timer = delivery.timer { connection.executor.cancel(timer) }
        let delay = Duration.microseconds(Int64((max(0, due.seconds - now.seconds) * 1_000_000).rounded(.up)))
        delivery.timerDue = due
        delivery.timer = connection.executor.runOnce(after: delay) { [weak self] in
            // On the bus thread: the actor's own executor.
            self?.assumeIsolated { $0.deliverDueFrames() }
        }
    }

    /// The frame timer fired: plan and send for the renderers that are due, within
    /// `turnLength`; when some are left, the pass goes on in the next turn from the same
    /// snapshot and with the same order of renderers (`DeliveryPass`), and calls are read in
    /// between.
    func deliverDueFrames(due known: [String]? = nil) {
        delivery.timer = nil
        delivery.timerDue = nil
        let now = self.now
        if delivery.pass == nil {
            let due = known ?? delivery.scheduler.due(at: now)
            guard !due.isEmpty else { return endPass() }
            delivery.pass = DeliveryPass(
                content: SceneAssembler.content(for: machine.state, registry: registry), presentation: machine.state.presentation,
                settings: settings, marks: registry.marks, due: due, at: now)
        }
        let pass = delivery.pass!
        // Taken out while serving, so serving can change the rest of the delivery state.
        var shared = delivery.shared
        delivery.shared = [:]
        var served = 0
        for connection in pass.due {
            if served > 0, self.now.seconds - now.seconds >= Self.turnLength { break }
            served += 1
            // Due when the pass began; a renderer that left or filled its window since is not.
            guard delivery.scheduler.isDue(connection, at: now) else { continue }
            deliver(to: connection, in: pass, shared: &shared, now: now)
        }
        delivery.shared = shared
        delivery.pass!.due.removeFirst(served)
        guard delivery.pass!.due.isEmpty else {
            // The pass goes on after a pause twice as long as this turn took: planning for
            // renderers takes at most a third of the bus thread's time however many are due, so calls stay
            // prompt and the processes they come from get the CPU to make them. Renderers then
            // get plans less often than every frame, which is the most they are promised.
            let end = self.now
            let spentTime = max(0, end.seconds - now.seconds)
            armFrameTimer(at: BrokerTime(seconds: end.seconds + spentTime * (1 / Self.deliveryDuty - 1)), now: end)
            return
        }
        endPass()
    }

    /// The pass is over: the changes it held are queued (for the next frame) and the timer set
    /// for whoever is due next.
    private func endPass() {
        let held = delivery.pass?.held ?? []
        if delivery.pass != nil || !delivery.shared.isEmpty {
            releaseLater((delivery.pass.take(), delivery.passDestinations, delivery.shared))
        }
        delivery.passDestinations.removeAll()
        delivery.shared.removeAll()
        for change in held { queue(change.action, for: change.connections) }
        armFrameTimer()
    }

    /// Sends one due renderer its plan: planned and turned into its wire dictionary once per
    /// distinct inputs in this pass (`shared`), recorded as sent only once the bus has taken it.
    private func deliver(to connection: String, in pass: DeliveryPass, shared: inout [PlanInputs: SharedPlan], now: BrokerTime) {
        guard let index = subscribers.index(forKey: connection) else {
            delivery.scheduler.remove(connection)
            return
        }
        let version = delivery.scheduler.version(of: connection)
        let next = withSubscriber(at: index) { subscriber in
            subscriber.nextAction.map { (action: $0, inputs: subscriber.inputs(for: $0, at: now)) }
        }
        guard let (action, inputs) = next else {
            delivery.scheduler.settled(connection, covering: version)
            return
        }
        // Its own unread plans, or every renderer's together, are at their byte budget: it
        // waits, its latest state coalesced, until acknowledgements free bytes
        // (`releaseHeldRenderers`).
        if unreadBytesHoldBack(connection) {
            delivery.scheduler.hold(connection, at: now)
            delivery.held.insert(connection)
            armSilenceCheck()
            settleUnreadSoon()
            return
        }
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
                let wire = planned.sent.wireTape(
                    sampleRate: planned.sampleRate, base: subscriber.deltaBase, compact: subscriber.capabilities.contains(.compactPlans))
                return (destination: prepared == nil ? destination : nil, plan: planned.plan, wire: wire)
            }
            if let destination = made.destination { delivery.passDestinations[display] = destination }
            let path = self.path
            let signal = self.connection.assumeIsolated { bus in
                bus.prepareSignal(path: path, interface: NookNames.renderInterface, member: RenderMember.plan.rawValue, tape: made.wire)
            }
            plan = SharedPlan(id: delivery.nextPlanID(), plan: made.plan, plannedAt: now, signal: signal,
                              bytes: signal.marshalledSize + Self.signalHeaderBytes, modulesTold: true)
            shared[inputs] = plan
            madeHere = true
            delivery.plansMade &+= 1
        }
        do {
            try self.connection.assumeIsolated { bus in try bus.emit(plan.signal, to: connection) }
        } catch {
            // Not sent, so not recorded: the change still waits and goes out on a later frame.
            log(.warning, "could not send plan \(plan.plan.serial) to \(connection): \(error)")
            delivery.scheduler.failed(connection, at: now)
            if madeHere {
                plan.modulesTold = false
                shared[inputs] = plan
            }
            return
        }
        delivery.plansSent &+= 1
        delivery.unread.sent(plan.bytes, to: connection)
        delivery.bytesSincePing[connection, default: 0] += plan.bytes
        // Modules hear about a plan's diagnostics once it is on its way, once per plan made.
        if madeHere {
            tellModules(about: plan.plan)
        } else if !plan.modulesTold {
            plan.modulesTold = true
            shared[inputs] = plan
            tellModules(about: plan.plan)
        }
        releaseLater(withSubscriber(at: index) { $0.didSend(plan.plan, id: plan.id, at: plan.plannedAt) })
        // Counted in the frame the pass began: every renderer a pass serves is due again at
        // the same next frame, so they stay in one pass, and those that share a plan now
        // share the next one too (a pass crossing a frame boundary would otherwise split them
        // into groups that each need their own plans from then on).
        delivery.scheduler.sent(connection, covering: version, at: pass.startedAt)
        acknowledgeLater(connection)
    }

    /// Runs `body` on the subscriber at `index` in place. A subscriber holds whole scenes:
    /// reading one through the dictionary's getter copied it, and released the copy, each time.
    /// `body` must not touch `subscribers`.
    private func withSubscriber<Result>(at index: [String: RenderSubscriber].Index, _ body: (inout RenderSubscriber) -> Result) -> Result {
        body(&subscribers.values[index])
    }

    // MARK: Acknowledgements

    /// Plans one ping acknowledges. Messages on a connection arrive in order, so the answer to
    /// a ping sent after a plan says the renderer has read every plan before it: one ping per
    /// two plans halves the acknowledgement traffic (two messages through the bus daemon per
    /// ping) that hundreds of renderers in a flood cost, and the window stays as it was.
    static let plansPerPing = 2

    /// About what a signal's header and the bus daemon's bookkeeping add to its body, in
    /// bytes (a plan's header names the path, interface, member, sender and destination).
    static let signalHeaderBytes = 160

    /// Counts a plan just sent to `connection`, and pings it once it has `plansPerPing` plans
    /// unpinged, or at once when its window is now full or its unread bytes reach their budget
    /// (only an answer can let it have more).
    private func acknowledgeLater(_ connection: String) {
        let unpinged = (delivery.plansSincePing[connection] ?? 0) + 1
        let windowFull = (delivery.scheduler.subscribers[connection]?.unacknowledged ?? 0) >= delivery.scheduler.window
        let bytesFull = delivery.unread.unread(connection) >= delivery.limits.maxUnreadPlanBytes
        if bytesFull { armSilenceCheck() }
        guard unpinged >= Self.plansPerPing || windowFull || bytesFull else {
            delivery.plansSincePing[connection] = unpinged
            return
        }
        delivery.plansSincePing[connection] = nil
        ping(connection, covering: unpinged)
    }

    /// Pings `connection`: its answer acknowledges the `plans` sent before the ping, and the
    /// bytes sent to it since its last ping.
    func ping(_ connection: String, covering plans: Int) {
        let bytes = delivery.bytesSincePing.removeValue(forKey: connection) ?? 0
        let generation = delivery.unread.generation(of: connection)
        delivery.plansAwaitingAnswer[connection, default: 0] += plans
        do {
            try self.connection.assumeIsolated { bus in
                try bus.ping(connection) { [weak self] outcome in
                    self?.assumeIsolated { $0.pingEnded(connection, covering: plans, bytes: bytes, generation: generation, outcome) }
                }
            }
        } catch {
            // No ping, no answer: free the places now rather than never.
            pingEnded(connection, covering: plans, bytes: bytes, generation: generation, .answered)
        }
    }

    private func pingEnded(_ connection: String, covering plans: Int, bytes: Int, generation: Int, _ outcome: PingOutcome) {
        let left = (delivery.plansAwaitingAnswer[connection] ?? plans) - plans
        delivery.plansAwaitingAnswer[connection] = left > 0 ? left : nil
        // Answered: read. Unanswered: the renderer left the bus, and the daemon dropped all it
        // held for it. Either way nookd is no longer charged for them.
        let wasOverTotal = delivery.unread.total >= delivery.limits.maxUnreadPlanBytesTotal
        if outcome == .answered {
            delivery.unread.read(bytes, by: connection, generation: generation)
        } else {
            delivery.unread.forget(connection)
            delivery.bytesSincePing[connection] = nil
        }
        let now = self.now
        if !delivery.held.isEmpty {
            releaseHeldRenderers(only: wasOverTotal ? nil : connection, at: now)
        }
        // Unanswered: peer tracking drops its subscription.
        guard outcome == .answered else { return }
        if delivery.scheduler.acknowledged(connection, plans: plans, at: now) {
            subscribers[connection]?.freshWindow = .subscribe
            log(.debug, "renderer \(connection) caught up; it gets a fresh window of the current scene")
        }
        // Only a renderer this answer lets through needs the timer (and only it is looked at:
        // answers arrive once per ping, for every renderer).
        if let due = delivery.scheduler.nextDue(of: connection, after: now) { armFrameTimer(at: due, now: now) }
    }

    // MARK: Unread bytes

    /// Whether plans `connection` has not read, or all renderers' together, are at their budget
    /// (`RenderLimits.maxUnreadPlanBytes`, `maxUnreadPlanBytesTotal`).
    func unreadBytesHoldBack(_ connection: String) -> Bool {
        delivery.unread.unread(connection) >= delivery.limits.maxUnreadPlanBytes
            || delivery.unread.total >= delivery.limits.maxUnreadPlanBytesTotal
    }

    /// Asks the bus daemon, at most once a second and without holding the bus thread, how much
    /// it really holds for the connections with the most bytes unread (`UnreadPlanBytes.settle`):
    /// a client that reads its messages without dispatching them (python-dbus between blocking
    /// calls, with no main loop) never answers a ping, yet holds nothing at the daemon.
    func settleUnreadSoon() {
        guard !delivery.settling else { return }
        if let last = delivery.settledAt, now.seconds - last.seconds < 1 { return }
        delivery.settling = true
        delivery.settledAt = now
        let candidates = delivery.unread.byConnection.sorted { $0.value > $1.value }.prefix(64).map(\.key)
        let connection = self.connection
        Task { [weak self] in
            var held: [(String, Int)] = []
            for name in candidates {
                // No statistics on this bus: nothing to learn from the others either.
                guard let bytes = await connection.bytesHeldFor(name) else { break }
                held.append((name, bytes))
            }
            await self?.settledUnread(held)
        }
    }

    private func settledUnread(_ held: [(String, Int)]) {
        delivery.settling = false
        var settled = false
        for (name, bytes) in held where delivery.unread.settle(name, heldByBus: bytes) {
            settled = true
            log(.debug, "connection \(name) read its plans without acknowledging them: the bus holds \(bytes) bytes for it")
        }
        if settled, !delivery.held.isEmpty { releaseHeldRenderers(only: nil, at: now) }
    }

    /// The same for one connection, now, on the bus thread (a `Subscribe` that would be refused).
    func settleUnreadNow(_ name: String) {
        guard let bytes = connection.assumeIsolated({ $0.bytesHeldForNow(name) }) else { return }
        delivery.unread.settle(name, heldByBus: bytes)
    }

    /// Lets held renderers through that the budget now allows: `only` that one (its own bytes
    /// went down), or every held one (the total went below its budget).
    func releaseHeldRenderers(only: String?, at now: BrokerTime) {
        let candidates = only.map { delivery.held.contains($0) ? [$0] : [] } ?? Array(delivery.held)
        for connection in candidates where !unreadBytesHoldBack(connection) {
            delivery.held.remove(connection)
            if delivery.scheduler.release(connection, at: now) {
                subscribers[connection]?.freshWindow = .subscribe
                log(.debug, "renderer \(connection) was held back by unread plans for a while; it gets a fresh window of the current scene")
            }
            if let due = delivery.scheduler.nextDue(of: connection, after: now) { armFrameTimer(at: due, now: now) }
        }
    }

    /// Looks for renderers to drop every quarter of `silentRendererTimeout` while some
    /// renderer has its budget of bytes in plans it has not acknowledged.
    func armSilenceCheck() {
        guard delivery.silenceCheck == nil else { return }
        let period = max(0.05, delivery.limits.silentRendererTimeout / 4)
        delivery.silenceCheck = connection.executor.runOnce(after: .microseconds(Int64(period * 1_000_000))) { [weak self] in
            self?.assumeIsolated { $0.dropSilentRenderers() }
        }
    }

    /// Drops each renderer that has acknowledged nothing for `silentRendererTimeout` while its
    /// own unread plans, at their byte budget, held it back: it is unsubscribed (its place among
    /// `maxRenderers` is free again); what it has not read still counts until it reads or
    /// leaves the bus.
    private func dropSilentRenderers() {
        delivery.silenceCheck = nil
        let limits = delivery.limits
        let unread = delivery.unread
        let silent = delivery.scheduler.silent(for: limits.silentRendererTimeout, at: now) { unread.unread($0) >= limits.maxUnreadPlanBytes }
        for connection in silent {
            log(.warning, "renderer \(connection) has read nothing for \(limits.silentRendererTimeout)s with \(unread.unread(connection)) bytes of plans unread; dropped (it may subscribe again once it reads)")
            unsubscribe(connection)
        }
        let stillOver = delivery.unread.byConnection.contains { name, bytes in
            bytes >= limits.maxUnreadPlanBytes && delivery.scheduler.isBlocked(name)
        }
        if stillOver { armSilenceCheck() }
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

