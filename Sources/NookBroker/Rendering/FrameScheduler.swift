/// Decides when each subscribed renderer is due a plan. A pure value: time comes in as an
/// argument, nothing here touches a clock or the bus, so every interleaving can be tested.
///
/// The contract, per subscriber:
/// 1. **One plan per frame.** Frames are the ticks of the subscriber's refresh rate counted
///    from the broker's time zero, so renderers of the same rate share frame boundaries (and
///    are due together, which lets the broker plan once for all of them). A subscriber is never
///    due twice in one frame: a send, or a failed attempt, uses up the frame.
/// 2. **The latest change is always sent.** Every change bumps the subscriber's `wanted`
///    version; a plan covers the version it was built at, so a change landing while a plan is
///    being built (or a send that fails) leaves the subscriber due again on a later frame.
/// 3. **A bounded window.** At most `window` plans may be unacknowledged (the broker pings
///    after every second plan, and whenever the window fills; an answer acknowledges every
///    plan sent before its ping). While the window is full the subscriber is
///    not due: changes pile up as one latest state, not as queued messages. An acknowledgement
///    that frees a window which stayed full for `stallTime` or longer while a change waited
///    says so: the renderer had stopped reading, and the broker sends it a fresh-window plan of
///    the current scene rather than animating from what it saw long ago. (A window full for
///    a moment is normal during a flood: the answers queue behind the calls the broker has
///    yet to read.)
public struct FrameScheduler: Hashable, Sendable {
    /// What the scheduler knows of one subscriber.
    public struct Subscriber: Hashable, Sendable {
        /// Frames per second, within `FrameScheduler.rates`.
        public internal(set) var rate: Double
        /// Bumped by every change this subscriber should see.
        public internal(set) var wanted: UInt64 = 0
        /// The newest version a sent plan covered.
        public internal(set) var sent: UInt64 = 0
        /// The frame of the last plan sent (or attempted); nil before the first.
        public internal(set) var lastFrame: Int64?
        /// Plans sent and not yet acknowledged.
        public internal(set) var unacknowledged: Int
        /// Since when the window has been full (nil: it is not).
        public internal(set) var fullSince: BrokerTime?
        /// When this subscriber was last served (sent to, or attempted), as a count of the
        /// scheduler's sends: orders `due` (0: never).
        public internal(set) var servedTurn: UInt64 = 0
        /// Since when the broker's byte budget for unread plans holds it back (nil: it does
        /// not): not due meanwhile, like a full window.
        public internal(set) var heldSince: BrokerTime?
        /// When it was added or last acknowledged a plan.
        public internal(set) var heardAt: BrokerTime = .zero

        /// A change has not been sent yet.
        public var isWaiting: Bool { wanted > sent }
    }

    /// The refresh rates the scheduler honours; others are clamped into it.
    public static let rates: ClosedRange<Double> = 1...1000

    /// How many plans may be unacknowledged at once.
    public let window: Int
    /// How long a window stays full before the renderer counts as having stopped reading.
    public let stallTime: Double
    public private(set) var subscribers: [String: Subscriber] = [:]
    /// Sends and attempts so far (see `Subscriber.servedTurn`).
    private var serves: UInt64 = 0

    public init(window: Int, stallTime: Double = 1) {
        precondition(window >= 1, "a window holds at least one plan")
        self.window = window
        self.stallTime = stallTime
    }

    // MARK: Frames

    /// The frame `time` falls in at `rate`. A sliver of tolerance keeps a frame's own start
    /// time (`start(of:)`, computed in floating point) inside that frame.
    public static func frame(at time: BrokerTime, rate: Double) -> Int64 {
        Int64((time.seconds * rate + 1e-6).rounded(.down))
    }

    /// When `frame` begins at `rate`.
    public static func start(of frame: Int64, rate: Double) -> BrokerTime {
        BrokerTime(seconds: Double(frame) / rate)
    }

    static func clamped(_ rate: Double) -> Double {
        rate.isFinite ? min(max(rate, rates.lowerBound), rates.upperBound) : RenderSubscriber.defaultRefreshRate
    }

    // MARK: Subscribers

    /// A subscriber that was just sent its first plan (the `Subscribe` reply) at `now`: that
    /// plan covers everything so far and uses up the current frame. `unacknowledged` carries
    /// over plans still unacknowledged from an earlier subscription of the same connection.
    public mutating func add(_ id: String, rate: Double, at now: BrokerTime, unacknowledged: Int = 0) {
        let rate = Self.clamped(rate)
        subscribers[id] = Subscriber(rate: rate, lastFrame: Self.frame(at: now, rate: rate), unacknowledged: unacknowledged,
                                     fullSince: unacknowledged >= window ? now : nil, heardAt: now)
    }

    // MARK: Held back by bytes

    /// The broker's byte budget holds `id` back from `now`: it is not due until `release`.
    public mutating func hold(_ id: String, at now: BrokerTime) {
        guard subscribers[id] != nil, subscribers[id]!.heldSince == nil else { return }
        subscribers[id]!.heldSince = now
    }

    /// The byte budget lets `id` through again.
    /// - Returns: true when it had been held back for `stallTime` or longer while a change
    ///   waited: its next plan should start a fresh window, as after a stall.
    @discardableResult
    public mutating func release(_ id: String, at now: BrokerTime) -> Bool {
        guard let subscriber = subscribers[id], let since = subscriber.heldSince else { return false }
        subscribers[id]!.heldSince = nil
        return subscriber.isWaiting && now.seconds - since.seconds >= stallTime
    }

    /// Subscribers whose own unacknowledged plans are over the broker's byte budget
    /// (`ownBytesOver`) and keep them from being sent more (a full window, or held back), and
    /// that have acknowledged nothing for `time` or longer at `now`. (A full window of small
    /// plans alone does not count: it costs nookd little, however long it lasts.)
    public func silent(for time: Double, at now: BrokerTime, ownBytesOver: (String) -> Bool) -> [String] {
        subscribers.filter { id, subscriber in
            (subscriber.unacknowledged >= window || subscriber.heldSince != nil) && ownBytesOver(id)
                && now.seconds - subscriber.heardAt.seconds >= time
        }.map(\.key).sorted()
    }

    /// Whether `id` is blocked by a full window or held back.
    public func isBlocked(_ id: String) -> Bool {
        subscribers[id].map { $0.unacknowledged >= window || $0.heldSince != nil } ?? false
    }

    public mutating func remove(_ id: String) {
        subscribers[id] = nil
    }

    /// A new refresh rate. A subscriber sent a plan in the current frame (of the old rate) waits
    /// for the next frame of the new one; any other may be sent one at once.
    public mutating func setRate(_ rate: Double, for id: String, at now: BrokerTime) {
        guard var subscriber = subscribers[id], Self.clamped(rate) != subscriber.rate else { return }
        let sentThisFrame = subscriber.lastFrame == Self.frame(at: now, rate: subscriber.rate)
        subscriber.rate = Self.clamped(rate)
        let current = Self.frame(at: now, rate: subscriber.rate)
        subscriber.lastFrame = sentThisFrame ? current : current - 1
        subscribers[id] = subscriber
    }

    // MARK: Changes and sends

    /// Something `id` shows changed.
    public mutating func changed(_ id: String) {
        subscribers[id]?.wanted += 1
    }

    /// Something every subscriber shows changed.
    public mutating func changedAll() {
        // Through indices: iterating `keys` while writing would copy the dictionary.
        var index = subscribers.startIndex
        while index != subscribers.endIndex {
            subscribers.values[index].wanted += 1
            subscribers.formIndex(after: &index)
        }
    }

    /// The version a plan built now covers: pass it to `sent(_:covering:at:)`.
    public func version(of id: String) -> UInt64 {
        subscribers[id]?.wanted ?? 0
    }

    /// Whether `id` should be sent a plan now.
    public func isDue(_ id: String, at now: BrokerTime) -> Bool {
        guard let subscriber = subscribers[id], subscriber.isWaiting, subscriber.unacknowledged < window, subscriber.heldSince == nil else { return false }
        guard let last = subscriber.lastFrame else { return true }
        return Self.frame(at: now, rate: subscriber.rate) > last
    }

    /// Every subscriber due a plan now, the one served longest ago first (never served: by id).
    /// When a frame's plans take several turns of the bus thread, those served last lead the
    /// next frame, so nobody waits behind the same renderers frame after frame.
    public func due(at now: BrokerTime) -> [String] {
        subscribers.filter { isDue($0.key, at: now) }
            .sorted { ($0.value.servedTurn, $0.key) < ($1.value.servedTurn, $1.key) }
            .map(\.key)
    }

    /// The one subscriber due a plan now, when exactly one is (nil for none or several).
    /// Stops at the second, so a call may ask it with hundreds subscribed.
    public func onlyDue(at now: BrokerTime) -> String? {
        var found: String?
        for id in subscribers.keys where isDue(id, at: now) {
            if found != nil { return nil }
            found = id
        }
        return found
    }

    /// A plan covering `version` went out to `id` at `now`.
    public mutating func sent(_ id: String, covering version: UInt64, at now: BrokerTime) {
        guard var subscriber = subscribers[id] else { return }
        subscriber.sent = max(subscriber.sent, min(version, subscriber.wanted))
        subscriber.lastFrame = Self.frame(at: now, rate: subscriber.rate)
        serves += 1
        subscriber.servedTurn = serves
        subscriber.unacknowledged += 1
        if subscriber.unacknowledged >= window, subscriber.fullSince == nil { subscriber.fullSince = now }
        subscribers[id] = subscriber
    }

    /// Nothing needed sending after all (the change left nothing to plan): `version` counts
    /// as covered, without using up a frame or a place in the window.
    public mutating func settled(_ id: String, covering version: UInt64) {
        guard var subscriber = subscribers[id] else { return }
        subscriber.sent = max(subscriber.sent, min(version, subscriber.wanted))
        subscribers[id] = subscriber
    }

    /// Sending to `id` failed at `now`: the change still waits, and the frame is used up, so
    /// the next attempt comes a frame later rather than in a tight loop.
    public mutating func failed(_ id: String, at now: BrokerTime) {
        guard var subscriber = subscribers[id] else { return }
        subscriber.lastFrame = Self.frame(at: now, rate: subscriber.rate)
        serves += 1
        subscriber.servedTurn = serves
        subscribers[id] = subscriber
    }

    /// `id` acknowledged its `plans` oldest unacknowledged plans at `now` (one answer to a
    /// ping acknowledges every plan sent before that ping).
    /// - Returns: true when this freed a window that had been full for `stallTime` or longer
    ///   while a change waited: the renderer had stopped reading, and its next plan should
    ///   start a fresh window.
    @discardableResult
    public mutating func acknowledged(_ id: String, plans: Int = 1, at now: BrokerTime) -> Bool {
        guard var subscriber = subscribers[id] else { return false }
        subscriber.heardAt = max(subscriber.heardAt, now)
        subscribers[id] = subscriber
        guard subscriber.unacknowledged > 0, plans > 0 else { return false }
        let stalled = subscriber.fullSince.map { now.seconds - $0.seconds >= stallTime } ?? false
        let resumed = subscriber.unacknowledged >= window && subscriber.isWaiting && stalled
        subscriber.unacknowledged -= min(plans, subscriber.unacknowledged)
        if subscriber.unacknowledged < window { subscriber.fullSince = nil }
        subscribers[id] = subscriber
        return resumed
    }

    /// The earliest time at or after `now` when some subscriber is due, or nil when none is
    /// waiting with room in its window (an acknowledgement or a change will say when).
    public func nextDue(after now: BrokerTime) -> BrokerTime? {
        var earliest: BrokerTime?
        for subscriber in subscribers.values {
            guard let at = Self.nextDue(subscriber, window: window, after: now) else { continue }
            earliest = min(earliest ?? at, at)
        }
        return earliest
    }

    /// When `id` is next due, at or after `now` (nil: not until something changes).
    public func nextDue(of id: String, after now: BrokerTime) -> BrokerTime? {
        subscribers[id].flatMap { Self.nextDue($0, window: window, after: now) }
    }

    private static func nextDue(_ subscriber: Subscriber, window: Int, after now: BrokerTime) -> BrokerTime? {
        guard subscriber.isWaiting, subscriber.unacknowledged < window, subscriber.heldSince == nil else { return nil }
        if let last = subscriber.lastFrame, frame(at: now, rate: subscriber.rate) <= last {
            return start(of: last + 1, rate: subscriber.rate)
        }
        return now
    }
}
