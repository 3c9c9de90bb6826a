import NookCore

/// Render delivery's decisions, as a value that takes events and returns what to do, the way
/// `Registry` returns `RegistryAction`s: who is due a plan and when the frame timer fires
/// (`FrameScheduler`), when a delivery pass spans several turns and what waits for its end,
/// when to ping a renderer and what its answer frees, when unread bytes hold a renderer back,
/// when to ask the bus daemon what it really holds, and when a renderer that reads nothing is
/// dropped. It touches no clock and no bus (time comes in as an argument), so every transition
/// is tested without one (`DeliveryMachineTests`); Broker+Delivery.swift plans, sends and
/// carries out its actions.
struct DeliveryMachine {
    /// What the broker is asked to do.
    enum Action: Equatable {
        /// Set the frame timer for `at`, replacing the one set (the broker delivers when it fires).
        case armFrameTimer(at: BrokerTime)
        case cancelFrameTimer
        /// Ping a renderer: its answer (`pingEnded`) acknowledges what the ping covers.
        case ping(Ping)
        /// Look for silent renderers (`silenceCheckFired`) after this many seconds.
        case armSilenceCheck(after: Double)
        /// Ask the bus daemon how many bytes it holds for these connections (`busHolds`).
        case askBusWhatItHolds([String])
        /// The renderer has read nothing for `silentRendererTimeout` while its unread plans
        /// held it back: unsubscribe it.
        case drop(String, unreadBytes: Int)
        /// Its next plan starts a fresh window of the current scene: it had stopped reading.
        case freshWindow(String, FreshWindowReason)
        /// The bus daemon holds less for `connection` than it was charged: it read without
        /// acknowledging (for the log).
        case readWithoutAcknowledging(String, heldByBus: Int)
    }

    enum FreshWindowReason: Equatable {
        /// Its window of unacknowledged plans was full for `stallTime` or longer.
        case caughtUp
        /// Unread bytes held it back for `stallTime` or longer.
        case heldBack
    }

    /// One ping: what its answer acknowledges.
    struct Ping: Equatable {
        var connection: String
        var plans: Int
        var bytes: Int
        /// `UnreadPlanBytes.generation` when it was sent: an answer after a settle frees nothing.
        var generation: Int
    }

    /// One frame's delivery while it spans several turns of the bus thread: the renderers
    /// still to serve, in the order the pass began with, and the changes that landed meanwhile
    /// (queued when it ends, so renderers served in it share one snapshot and one plan).
    struct Pass {
        let startedAt: BrokerTime
        var due: [String]
        private(set) var held: [(action: PlanAction, connections: [String]?)] = []

        init(startedAt: BrokerTime, due: [String]) {
            self.startedAt = startedAt
            self.due = due
        }

        /// A flood during a pass stays one entry: changes for the same subscribers coalesce.
        mutating func hold(_ action: PlanAction, for connections: [String]?) {
            if let last = held.indices.last, held[last].connections == connections {
                held[last].action = held[last].action.coalescing(action)
            } else {
                held.append((action, connections))
            }
        }
    }

    /// Plans one ping acknowledges. Messages on a connection arrive in order, so the answer to
    /// a ping sent after a plan says the renderer has read every plan before it: one ping per
    /// two plans halves the acknowledgement traffic (two messages through the bus daemon per
    /// ping) that hundreds of renderers in a flood cost, and the window stays as it was.
    static let plansPerPing = 2
    /// How long one turn of a pass serves renderers before the bus thread reads calls again,
    /// in seconds (at least one renderer is served a turn).
    static let turnLength = 0.000_2
    /// The largest share of the bus thread's time a pass spanning several turns takes.
    static let deliveryDuty = 0.33

    let limits: RenderLimits
    private(set) var scheduler: FrameScheduler
    /// Plans covered by pings sent and not yet ended, per connection. Kept apart from the
    /// subscription so that subscribing again cannot reset the window of one that does not read.
    private(set) var plansAwaitingAnswer: [String: Int] = [:]
    /// Plans sent to each connection since its last ping.
    private(set) var plansSincePing: [String: Int] = [:]
    /// Bytes of plans (and `Subscribe` replies) each connection has not acknowledged, whether
    /// or not it is still subscribed (`RenderLimits.maxUnreadPlanBytes`).
    private(set) var unread = UnreadPlanBytes()
    /// Of those, the bytes sent since the connection's last ping.
    private(set) var bytesSincePing: [String: Int] = [:]
    /// Subscribers the byte budget holds back, looked at again when acknowledgements free bytes.
    private(set) var held: Set<String> = []
    private(set) var silenceCheckArmed = false
    /// When the bus daemon was last asked what it holds, and whether it is being asked now.
    private(set) var settledAt: BrokerTime?
    private(set) var settling = false
    /// When the frame timer is set for (nil: it is not).
    private(set) var timerDue: BrokerTime?
    /// True while a module's call is carried out: its changes do not arm the frame timer,
    /// since the call ends by serving the one due renderer or arming it (`callEnded`).
    private(set) var frameTimerHeld = false
    private(set) var pass: Pass?
    private var lastPlanID: UInt64 = 0
    /// Plans made (a plan shared by several renderers counting once) and plans sent (counting
    /// each renderer): `GetState`'s `plans_made` and `plans_sent`.
    private(set) var plansMade: UInt64 = 0
    private(set) var plansSent: UInt64 = 0

    init(limits: RenderLimits) {
        self.limits = limits
        scheduler = FrameScheduler(window: limits.maxUnacknowledgedPlans, stallTime: limits.stallTime)
    }

    /// A new id for a plan about to be sent (`RenderSubscriber.lastPlanID`).
    mutating func nextPlanID() -> UInt64 {
        lastPlanID += 1
        return lastPlanID
    }

    mutating func planMade() { plansMade &+= 1 }

    // MARK: Subscriptions

    /// `Subscribe`'s reply, a whole plan, was made at `now`; `replyBytes` is what the bus daemon
    /// holds for it until read (nil: no reply is sent). The reply uses up the current frame; a
    /// window left full by an earlier subscription of the same connection stays full.
    mutating func subscribed(_ connection: String, rate: Double, at now: BrokerTime, replyBytes: Int?) {
        plansMade &+= 1
        plansSent &+= 1
        scheduler.add(connection, rate: rate, at: now, unacknowledged: plansAwaitingAnswer[connection] ?? 0)
        if let replyBytes {
            unread.sent(replyBytes, to: connection)
            bytesSincePing[connection, default: 0] += replyBytes
        }
    }

    /// The `Subscribe` reply is on its way: a ping behind it says when it is read.
    mutating func subscribeReplied(_ connection: String) -> Action? {
        guard bytesSincePing[connection] != nil else { return nil }
        return .ping(ping(connection, covering: 0))
    }

    /// No more plans for `connection`. Plans not yet pinged count for nothing now; those a
    /// ping covers stay until it ends, and bytes sent since the last ping get a ping of their own.
    mutating func unsubscribed(_ connection: String) -> Action? {
        scheduler.remove(connection)
        plansSincePing[connection] = nil
        held.remove(connection)
        guard bytesSincePing[connection] != nil else { return nil }
        return .ping(ping(connection, covering: 0))
    }

    mutating func setRate(_ rate: Double, for connection: String, at now: BrokerTime) {
        scheduler.setRate(rate, for: connection, at: now)
    }

    // MARK: Changes and the frame timer

    /// What a change does (`changed`).
    enum ChangeOutcome: Equatable {
        /// A pass is under way: the change waits for its end (the caller changes nothing else).
        case heldForPass
        /// The subscribers take the change now; the frame timer as `timer` says (nil: as it is).
        case take(timer: Action?)
    }

    /// Something `connections` show changed (nil: every subscriber).
    mutating func changed(_ action: PlanAction, for connections: [String]?, at now: BrokerTime) -> ChangeOutcome {
        if pass != nil {
            pass!.hold(action, for: connections)
            return .heldForPass
        }
        if let connections {
            for connection in connections { scheduler.changed(connection) }
        } else {
            scheduler.changedAll()
        }
        return .take(timer: frameTimerHeld ? nil : armFrameTimer(at: now))
    }

    /// A module's call is being carried out: its changes leave the frame timer alone.
    mutating func callStarted() { frameTimerHeld = true }

    /// What the end of a module's call does (`callEnded`).
    enum CallEndOutcome: Equatable {
        /// Exactly one renderer is due: serve it now, before the reply (the frame timer is
        /// cancelled: `cancelTimer`).
        case serve(String, cancelTimer: Bool)
        case timer(Action?)
    }

    /// The call's changes are applied. A change exactly one renderer is due to show goes out to
    /// it before the call is answered: the plan is what the user sees, and a module woken by its
    /// reply takes CPU time the plan would need. With several due, their plans stay on the
    /// frame timer's turns, so no call waits behind many plans. A pass under way keeps its pace.
    mutating func callEnded(at now: BrokerTime) -> CallEndOutcome {
        frameTimerHeld = false
        guard pass == nil else { return .timer(nil) }
        guard let only = scheduler.onlyDue(at: now) else { return .timer(armFrameTimer(at: now)) }
        let cancel = timerDue != nil
        timerDue = nil
        return .serve(only, cancelTimer: cancel)
    }

    /// The frame timer for the earliest time a subscriber is due (or none).
    mutating func armFrameTimer(at now: BrokerTime) -> Action? {
        guard let due = scheduler.nextDue(after: now) else {
            guard timerDue != nil else { return nil }
            timerDue = nil
            return .cancelFrameTimer
        }
        return armFrameTimer(for: due)
    }

    /// Makes sure the frame timer fires at `due` or earlier.
    private mutating func armFrameTimer(for due: BrokerTime) -> Action? {
        // A timer set for an earlier moment re-arms when it fires.
        if let armed = timerDue, armed <= due { return nil }
        timerDue = due
        return .armFrameTimer(at: due)
    }

    // MARK: Passes

    /// The frame timer fired (or a call serves its one due renderer): the renderers to serve,
    /// from the pass under way or a new one (`known`, else every due subscriber, longest
    /// waiting first); nil when nobody is due (end the pass: `passEnded`).
    mutating func passTurn(known: [String]?, at now: BrokerTime) -> Pass? {
        timerDue = nil
        if pass == nil {
            let due = known ?? scheduler.due(at: now)
            guard !due.isEmpty else { return nil }
            pass = Pass(startedAt: now, due: due)
        }
        return pass
    }

    /// Whether `connection`, due when the pass began, is due still (it may have left, or
    /// filled its window since).
    func isDue(_ connection: String, at now: BrokerTime) -> Bool { scheduler.isDue(connection, at: now) }

    /// The turn served the first `served` renderers of the pass, from `start` to `end`.
    /// - Returns: the frame timer for the next turn (a pause twice as long as this turn took:
    ///   planning takes at most `deliveryDuty` of the bus thread however many are due), or nil
    ///   when the pass is over (`passEnded`).
    mutating func turnEnded(served: Int, from start: BrokerTime, to end: BrokerTime) -> Action? {
        pass!.due.removeFirst(min(served, pass!.due.count))
        guard !pass!.due.isEmpty else { return nil }
        let spent = max(0, end.seconds - start.seconds)
        return armFrameTimer(for: BrokerTime(seconds: end.seconds + spent * (1 / Self.deliveryDuty - 1)))
    }

    /// The pass is over. Returns the changes it held, for the caller to apply (`changed`, then
    /// `armFrameTimer`) now that no pass holds them.
    mutating func passEnded() -> [(action: PlanAction, connections: [String]?)] {
        defer { pass = nil }
        return pass?.held ?? []
    }

    // MARK: Serving one renderer

    /// Nothing needed sending after all: `version` counts as covered.
    mutating func nothingToSend(_ connection: String, covering version: UInt64) {
        scheduler.settled(connection, covering: version)
    }

    /// The subscriber left between the pass's start and its turn.
    mutating func gone(_ connection: String) { scheduler.remove(connection) }

    /// Whether `connection`'s own unread plans, or every renderer's together, are at their
    /// byte budget (`RenderLimits.maxUnreadPlanBytes`, `maxUnreadPlanBytesTotal`).
    func unreadBytesHoldBack(_ connection: String) -> Bool {
        unread.unread(connection) >= limits.maxUnreadPlanBytes || unread.total >= limits.maxUnreadPlanBytesTotal
    }

    /// Before a plan is made for `connection`: at its byte budget it waits, its latest state
    /// coalesced, until acknowledgements free bytes (`pingEnded`, `busHolds`).
    /// - Returns: nil to go on and send; else the actions of holding it back.
    mutating func holdBackIfOverBudget(_ connection: String, at now: BrokerTime) -> [Action]? {
        guard unreadBytesHoldBack(connection) else { return nil }
        scheduler.hold(connection, at: now)
        held.insert(connection)
        return [armSilenceCheck(), askBusSoon(at: now)].compactMap { $0 }
    }

    /// A plan of `bytes` covering `version` went out to `connection`, counted in the frame the
    /// pass began (`frameStart`): renderers a pass serves are due again at the same frame, so
    /// those sharing a plan keep sharing. Pings once `plansPerPing` plans are unpinged, or at
    /// once when the window or the byte budget is now full (only an answer can let it have more).
    mutating func sent(_ connection: String, bytes: Int, covering version: UInt64, frameStart: BrokerTime) -> [Action] {
        plansSent &+= 1
        unread.sent(bytes, to: connection)
        bytesSincePing[connection, default: 0] += bytes
        scheduler.sent(connection, covering: version, at: frameStart)
        let unpinged = (plansSincePing[connection] ?? 0) + 1
        let windowFull = (scheduler.subscribers[connection]?.unacknowledged ?? 0) >= scheduler.window
        let bytesFull = unread.unread(connection) >= limits.maxUnreadPlanBytes
        let silence = bytesFull ? armSilenceCheck() : nil
        guard unpinged >= Self.plansPerPing || windowFull || bytesFull else {
            plansSincePing[connection] = unpinged
            return silence.map { [$0] } ?? []
        }
        plansSincePing[connection] = nil
        return (silence.map { [$0] } ?? []) + [.ping(ping(connection, covering: unpinged))]
    }

    /// Sending failed: the change still waits, and the next attempt comes a frame later.
    mutating func sendFailed(_ connection: String, at now: BrokerTime) {
        scheduler.failed(connection, at: now)
    }

    // MARK: Acknowledgements

    /// A ping covering `plans` plans and the bytes sent since the last one.
    mutating func ping(_ connection: String, covering plans: Int) -> Ping {
        let bytes = bytesSincePing.removeValue(forKey: connection) ?? 0
        plansAwaitingAnswer[connection, default: 0] += plans
        return Ping(connection: connection, plans: plans, bytes: bytes, generation: unread.generation(of: connection))
    }

    /// `ping` ended: answered (everything it covers was read) or not (the renderer left the bus,
    /// and the daemon dropped all it held for it). Either way nookd is no longer charged.
    mutating func pingEnded(_ ping: Ping, answered: Bool, at now: BrokerTime) -> [Action] {
        let connection = ping.connection
        let left = (plansAwaitingAnswer[connection] ?? ping.plans) - ping.plans
        plansAwaitingAnswer[connection] = left > 0 ? left : nil
        let wasOverTotal = unread.total >= limits.maxUnreadPlanBytesTotal
        if answered {
            unread.read(ping.bytes, by: connection, generation: ping.generation)
        } else {
            unread.forget(connection)
            bytesSincePing[connection] = nil
        }
        var actions: [Action] = []
        if !held.isEmpty { actions += releaseHeld(only: wasOverTotal ? nil : connection, at: now) }
        // Unanswered: peer tracking drops its subscription.
        guard answered else { return actions }
        if scheduler.acknowledged(connection, plans: ping.plans, at: now) { actions.append(.freshWindow(connection, .caughtUp)) }
        // Only a renderer this answer lets through needs the timer.
        if let due = scheduler.nextDue(of: connection, after: now), let timer = armFrameTimer(for: due) { actions.append(timer) }
        return actions
    }

    /// Lets held renderers through that the budget now allows: `only` that one (its own bytes
    /// went down), or every held one (the total went below its budget).
    private mutating func releaseHeld(only: String?, at now: BrokerTime) -> [Action] {
        let candidates = only.map { held.contains($0) ? [$0] : [] } ?? held.sorted()
        var actions: [Action] = []
        for connection in candidates where !unreadBytesHoldBack(connection) {
            held.remove(connection)
            if scheduler.release(connection, at: now) { actions.append(.freshWindow(connection, .heldBack)) }
            if let due = scheduler.nextDue(of: connection, after: now), let timer = armFrameTimer(for: due) { actions.append(timer) }
        }
        return actions
    }

    // MARK: What the bus daemon holds

    /// Asks the bus daemon, at most once a second, what it holds for the connections with the
    /// most bytes unread: a client that reads its messages without dispatching them never
    /// answers a ping, yet holds nothing at the daemon.
    mutating func askBusSoon(at now: BrokerTime) -> Action? {
        guard !settling else { return nil }
        if let last = settledAt, now.seconds - last.seconds < 1 { return nil }
        settling = true
        settledAt = now
        let candidates = unread.byConnection.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(64).map(\.key)
        return .askBusWhatItHolds(candidates)
    }

    /// The bus daemon's answer to `askBusWhatItHolds`: bytes it holds per connection.
    mutating func busHolds(_ answers: [(String, Int)], at now: BrokerTime) -> [Action] {
        settling = false
        var actions: [Action] = []
        for (name, bytes) in answers where unread.settle(name, heldByBus: bytes) {
            actions.append(.readWithoutAcknowledging(name, heldByBus: bytes))
        }
        if !actions.isEmpty, !held.isEmpty { actions += releaseHeld(only: nil, at: now) }
        return actions
    }

    /// The same for one connection asked at once (a `Subscribe` that would be refused).
    mutating func busHolds(_ bytes: Int, for connection: String) {
        unread.settle(connection, heldByBus: bytes)
    }

    // MARK: Silent renderers

    private mutating func armSilenceCheck() -> Action? {
        guard !silenceCheckArmed else { return nil }
        silenceCheckArmed = true
        return .armSilenceCheck(after: max(0.05, limits.silentRendererTimeout / 4))
    }

    /// The silence check fired: renderers that acknowledged nothing for
    /// `silentRendererTimeout` while their own unread plans, at their byte budget, held them
    /// back are dropped (what they have not read still counts until they read or leave); the
    /// check comes again while any is still over its budget and blocked.
    mutating func silenceCheckFired(at now: BrokerTime) -> [Action] {
        silenceCheckArmed = false
        let limits = limits
        let unread = unread
        let silent = scheduler.silent(for: limits.silentRendererTimeout, at: now) { unread.unread($0) >= limits.maxUnreadPlanBytes }
        var actions: [Action] = []
        for connection in silent {
            actions.append(.drop(connection, unreadBytes: unread.unread(connection)))
            if let ping = unsubscribed(connection) { actions.append(ping) }
        }
        let stillOver = unread.byConnection.contains { name, bytes in bytes >= limits.maxUnreadPlanBytes && scheduler.isBlocked(name) }
        if stillOver, let check = armSilenceCheck() { actions.append(check) }
        return actions
    }
}
