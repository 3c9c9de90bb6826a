import NookBus
import NookCore

/// A module's live link to the Nook broker: registers the module, publishes its content and
/// activities, and keeps them published when the broker restarts.
///
/// ```swift
/// var configuration = NookModuleConfiguration(id: "music", displayName: "Music")
/// configuration.setCompactLeading { Image(systemName: "music.note") }
/// let module = try await NookModule.connect(configuration)
///
/// var song = NookLiveActivity(id: "song", accessibilityLabel: "Now playing") {
///     CoverArt(track: track).frame(width: 20, height: 20).nookSharedElement("cover")
/// } compactTrailing: {
///     EqualizerBars(level: 0.6)
/// } minimal: {
///     Image(systemName: "music.note")
/// }
/// try await module.start(song)
/// song.setExpanded { SongDetail(track: track) }
/// try await module.update(song)             // sends only the expanded view
/// try await module.end(song, dismissal: .default)
/// ```
///
/// Delivery. Calls reach the broker one at a time, in the order they were made; each update
/// carries only the views and values that changed since the last delivered state, with a
/// `sequence` larger than any before it for that activity.
///
/// Broker restarts. The module follows the broker's name on the bus. When the broker leaves,
/// calls keep succeeding and return `.queued`: the SDK keeps the latest state of every
/// activity, every end, and the module's content. When a broker appears again, the module
/// registers again and sends all of it, by itself; `events()` reports each step.
///
/// Bus restarts. When the bus daemon itself goes away, the module reports `.disconnected`,
/// keeps every call (they return `.queued`) and reconnects to the same address by itself,
/// retrying with a short backoff until it succeeds or is closed. Once connected again it
/// follows the broker's name as at start-up and republishes everything to the broker that
/// appears on the new bus.
///
/// Errors. A refused call throws `NookModuleError` with the contract's error name and the
/// broker's message, and the SDK forgets the refused change (its view of the activity stays
/// what the broker has). Views are checked in the module first with the broker's own
/// validator, so a bad view is refused even while the broker is away.
public actor NookModule {
    static let brokerName = NookNames.busName
    static let objectPath = ObjectPath.nook

    /// The module id.
    public nonisolated let id: String

    /// The bus connection; replaced when the module reconnects after the bus went away.
    var connection: BusConnection
    /// The connection the module began on, kept for its thread: the module runs there (its
    /// `unownedExecutor`), so a call it makes leaves without a thread hop. After a reconnect
    /// the module stays on that thread, which runs on without its bus.
    nonisolated let home: BusConnection
    /// The module's connection's thread (`home`).
    public nonisolated var unownedExecutor: UnownedSerialExecutor { home.unownedExecutor }
    /// Where the module connected, kept to reconnect after the bus daemon restarts.
    let address: NookModuleAddress
    /// The configuration as the module last set it.
    public internal(set) var configuration: NookModuleConfiguration
    /// Module content the current broker has from us, by slot.
    var deliveredContent: [ModuleSlot: SetContent] = [:]
    var entries: [String: ActivityEntry] = [:]
    /// Activity ids in the order they were started: replays keep the broker's start order.
    var startOrder: [String] = []
    /// Activity ids a person dismissed: never started again by this module instance.
    var dismissedIDs: Set<String> = []

    /// The broker's unique name while it owns `org.nook.Nook1`; nil while it is away.
    var broker: String?
    /// The broker instance this module registered with; calls are only sent when it is `broker`.
    var registeredWith: String?
    /// True after the first registration: later ones are reconnects.
    var everRegistered = false
    var gate = SerialGate()
    var monitor: Task<Void, Never>?
    var diagnosticsMatch: MatchToken?
    var isClosed = false
    /// The bus connection itself died: nothing can be delivered any more.
    var busLost = false
    /// Reconnects after the bus was lost; nil while connected (or closed).
    var reconnector: Task<Void, Never>?

    /// The broker's unique name, readable on the bus thread to filter the `Diagnostics` signal.
    let brokerCell = BrokerCell()
    let diagnosticsHub = Broadcast<Diagnostic>()
    let eventsHub = Broadcast<NookModuleEvent>()
    /// Presses of the module's controls (NookModule+Actions.swift).
    let actionsHub = Broadcast<NookActionEvent>()
    let actionQueue = ActionQueue()
    var actionsMatch: MatchToken?
    var actionTask: Task<Void, Never>?

    init(connection: BusConnection, address: NookModuleAddress, configuration: NookModuleConfiguration) {
        self.connection = connection
        self.home = connection
        self.address = address
        self.configuration = configuration
        self.id = configuration.id
    }

    deinit {
        monitor?.cancel()
        reconnector?.cancel()
        actionTask?.cancel()
        actionQueue.finish()
        diagnosticsHub.finish()
        eventsHub.finish()
        actionsHub.finish()
    }

    // MARK: Connecting

    /// Connects to the bus, registers the module and publishes `configuration`'s content.
    ///
    /// When no broker is running the module still connects: it registers and publishes as
    /// soon as one appears (on the session bus, asking D-Bus to start one).
    /// - Parameters:
    ///   - configuration: the module id, its info and its content.
    ///   - address: `.session` (default) or another bus.
    ///   - shared: a connection the program already has to that bus, for the module to
    ///     share rather than open its own (nil: its own). A program that answers calls on it
    ///     (a bridge serving another interface) then publishes from the thread that took the
    ///     call, with no hop between threads. The module closes it on `close()`; should that
    ///     bus go away, the module reconnects on a connection of its own.
    /// - Throws: `NookModuleError`: the broker refused the registration (`ModuleTaken`,
    ///   `InvalidId`, ...) or the content, or the bus could not be reached (`Disconnected`).
    public static func connect(
        _ configuration: NookModuleConfiguration, address: NookModuleAddress = .session, sharing shared: BusConnection? = nil
    ) async throws -> NookModule {
        if let problem = Identifier.problem(configuration.id) {
            throw NookModuleError(.invalidId, "module id \"\(configuration.id)\" \(problem)")
        }
        try Self.validate(configuration)
        let connection: BusConnection
        do {
            if let shared {
                connection = shared
            } else {
                connection = try await Self.openConnection(address, reconnecting: false)
            }
        } catch {
            throw NookModuleError(.disconnected, "cannot connect to the bus (\(address)): \(error)")
        }
        let module = NookModule(connection: connection, address: address, configuration: configuration)
        await module.startActionTask()
        do {
            try await module.begin()
        } catch {
            await module.close()
            throw error
        }
        return module
    }

    /// Stops following the broker and closes the connection, without ending anything: the
    /// broker keeps the module's activities for its grace period, so a restarted module can
    /// take them back. Use `unregister()` to end everything at once.
    public func close() async {
        guard !isClosed else { return }
        isClosed = true
        monitor?.cancel()
        monitor = nil
        reconnector?.cancel()
        reconnector = nil
        await connection.close()
        actionQueue.finish()
        diagnosticsHub.finish()
        eventsHub.finish()
        actionsHub.finish()
    }

    /// Ends every activity and removes the module's content (`Unregister`), then closes.
    /// With the broker away there is nobody to tell: the module just closes, and the broker's
    /// grace period ends what it kept.
    public func unregister() async throws {
        await enterGate()
        defer { leaveGate() }
        var failure: NookModuleError?
        if let owner = registeredWith, owner == broker {
            do { try await send(NookContract.Modules.unregister, []) } catch .refused(let error) { failure = error } catch {}
        }
        entries.removeAll()
        startOrder.removeAll()
        registeredWith = nil
        await close()
        if let failure { throw failure }
    }

    // MARK: Streams and state

    /// The broker's diagnostics for this module (`stale-update`, `id-suffixed`, unknown keys,
    /// `module-restored`, ...), from the moment of the call. Each call gives its own stream.
    public nonisolated func diagnostics() -> AsyncStream<Diagnostic> { diagnosticsHub.subscribe() }

    /// The link's events (connected, broker lost, deliveries refused), from the moment of the call.
    public nonisolated func events() -> AsyncStream<NookModuleEvent> { eventsHub.subscribe() }

    /// True while the module is registered with the running broker, so calls are delivered at once.
    public var isConnected: Bool { broker != nil && registeredWith == broker }

    /// The activities started and not ended, in start order, as last set by the module.
    public var activities: [NookLiveActivity] {
        startOrder.compactMap { entries[$0] }.filter { $0.ending == nil }.map(\.activity)
    }

    // MARK: Module content

    /// Publishes the module's content: `SetContent` for each slot whose view changed,
    /// `ClearContent` for each slot that lost its view.
    /// - Returns: `.queued` when the broker is away (sent on its return).
    /// - Throws: `NookModuleError` when a view is refused; that slot keeps its previous content.
    @discardableResult
    public func publish(_ configuration: NookModuleConfiguration) async throws -> NookDelivery {
        guard configuration.id == id else {
            throw NookModuleError(.invalidArgs, "configuration id \"\(configuration.id)\": this connection publishes module \"\(id)\"")
        }
        try Self.validate(configuration)
        await enterGate()
        defer { leaveGate() }
        try ensureUsable()
        self.configuration = configuration
        guard await readyToSend() else {
            try ensureUsable()
            return .queued
        }
        do {
            try await sendContent()
            return .delivered
        } catch .away {
            try ensureUsable()
            return .queued
        } catch .refused(let error) {
            throw error
        }
    }

    /// Changes the configuration in place and publishes it.
    ///
    /// ```swift
    /// try await module.configure { $0.setHome { TimerList(timers: timers) } }
    /// ```
    @discardableResult
    public func configure(_ change: (inout NookModuleConfiguration) -> Void) async throws -> NookDelivery {
        var copy = configuration
        change(&copy)
        return try await publish(copy)
    }

    // MARK: Activities

    /// Starts a live activity (`StartActivity`).
    /// - Returns: `.queued` when the broker is away (started on its return).
    /// - Throws: `NookModuleError`: `ActivityExists` when the module already runs that id,
    ///   `InvalidView` / `InvalidId` / `LimitsExceeded` from the checks.
    @discardableResult
    public func start(_ activity: NookLiveActivity) async throws -> NookDelivery {
        if let problem = Identifier.problem(activity.id) {
            throw NookModuleError(.invalidId, "activity id \"\(activity.id)\" \(problem)")
        }
        try Self.validate(activity)
        await enterGate()
        defer { leaveGate() }
        try ensureUsable()
        if dismissedIDs.contains(activity.id) {
            throw NookModuleError(.activityDismissed, "activity \"\(activity.id)\" of module \"\(id)\" was dismissed by the user; start one with a new id")
        }
        if let existing = entries[activity.id], existing.ending == nil {
            throw NookModuleError(.activityExists, "activity \"\(activity.id)\" of module \"\(id)\" is already live (use update)")
        }
        // Restarting an id whose end is still held back: the broker will get the new start instead.
        var entry = ActivityEntry(activity: activity)
        entry.sequence = entries[activity.id]?.sequence ?? 0
        entries[activity.id] = entry
        startOrder.removeAll { $0 == activity.id }
        startOrder.append(activity.id)
        return try await deliver(activity.id, undo: { module in
            module.entries[activity.id] = nil
            module.startOrder.removeAll { $0 == activity.id }
        })
    }

    /// Sends what changed in `activity` since the broker last got it (`UpdateActivity`).
    /// - Parameters:
    ///   - animate: false shows the new views at once.
    ///   - animation: the caller's own preset, for animation scopes that name none.
    /// - Returns: `.queued` when the broker is away: only the latest state is sent on its return.
    /// - Throws: `NookModuleError`: `UnknownActivity` when it was not started (or has ended).
    @discardableResult
    public func update(_ activity: NookLiveActivity, animate: Bool = true, animation: AnimationPreset? = nil) async throws
        -> NookDelivery
    {
        // The views the model has were checked when they were set.
        try Self.validate(activity, since: entries[activity.id]?.activity)
        await enterGate()
        defer { leaveGate() }
        try ensureUsable()
        guard var entry = entries[activity.id], entry.ending == nil else {
            throw unknownActivity(activity.id)
        }
        let before = entry
        entry.activity = activity
        entry.options = UpdateOptions(animate: animate, animation: animation)
        entries[activity.id] = entry
        return try await deliver(activity.id, undo: { module in
            var restored = before
            restored.sequence = module.entries[activity.id]?.sequence ?? before.sequence
            if let delivered = restored.delivered { restored.activity = delivered }
            module.entries[activity.id] = restored
        })
    }

    /// Ends an activity (`EndActivity`).
    /// - Returns: `.queued` when the broker is away: the end is remembered and sent on its return.
    /// - Throws: `NookModuleError` `UnknownActivity` when the module has no such live activity.
    @discardableResult
    public func end(_ activity: NookLiveActivity, dismissal: NookDismissal = .default) async throws -> NookDelivery {
        try await end(activityID: activity.id, dismissal: dismissal)
    }

    /// Ends the activity with this id.
    @discardableResult
    public func end(activityID: String, dismissal: NookDismissal = .default) async throws -> NookDelivery {
        await enterGate()
        defer { leaveGate() }
        try ensureUsable()
        guard var entry = entries[activityID], entry.ending == nil else {
            throw unknownActivity(activityID)
        }
        entry.ending = dismissal
        entries[activityID] = entry
        return try await deliver(activityID, undo: { module in module.entries[activityID]?.ending = nil })
    }

    /// Ends every live activity, in start order.
    public func endAll(dismissal: NookDismissal = .default) async throws {
        for activity in activities { try await end(activityID: activity.id, dismissal: dismissal) }
    }

    // MARK: Dismissals

    /// A person dismissed `activityID`: forget it, and say so once.
    func userDismissed(_ activityID: String) async {
        await enterGate()
        defer { leaveGate() }
        forgetDismissed(activityID)
    }

    /// Drops a dismissed activity from the model (call with the gate held).
    func forgetDismissed(_ activityID: String) {
        guard !dismissedIDs.contains(activityID) else { return }
        dismissedIDs.insert(activityID)
        // An end the module asked for first is not the user's dismissal.
        let endedByModule = entries[activityID]?.ending != nil
        entries[activityID] = nil
        startOrder.removeAll { $0 == activityID }
        if !endedByModule { eventsHub.yield(.activityDismissed(activityID, by: .user)) }
    }

    func unknownActivity(_ activityID: String) -> NookModuleError {
        if dismissedIDs.contains(activityID) {
            return NookModuleError(.unknownActivity, "activity \"\(activityID)\" of module \"\(id)\" was dismissed by the user")
        }
        return NookModuleError(.unknownActivity, "module \"\(id)\" has no live activity \"\(activityID)\"")
    }

    // MARK: Local checks

    /// Throws `Disconnected` once the module was closed. A lost bus is not an error: calls are
    /// kept, as while the broker is away, and delivered once the module has reconnected.
    func ensureUsable() throws(NookModuleError) {
        if isClosed { throw NookModuleError(.disconnected, "module \"\(id)\" was closed") }
    }

    static func validate(_ configuration: NookModuleConfiguration) throws(NookModuleError) {
        for call in configuration.setContentCalls {
            do { _ = try call.validated() } catch {
                throw NookModuleError(error, context: "\(call.slot.rawValue) content of module \"\(configuration.id)\"")
            }
        }
    }

    static func validate(_ activity: NookLiveActivity, since previous: NookLiveActivity? = nil) throws(NookModuleError) {
        do { try activity.validate(changedSince: previous) } catch {
            throw NookModuleError(error, context: "activity \"\(activity.id)\"")
        }
    }
}

extension NookModule {
    /// Sends one raw Modules call on this module's connection, bypassing the model. For tests
    /// that need the broker's reaction to something the SDK never sends (a stale `sequence`).
    @_spi(Testing)
    public func sendUnchecked(_ method: ContractMethod, _ arguments: [DBusValue]) async throws -> [DBusValue] {
        do {
            return try await send(method, arguments)
        } catch .refused(let error) {
            throw error
        } catch .away {
            throw NookModuleError(.disconnected, "the broker is not running")
        }
    }
}
