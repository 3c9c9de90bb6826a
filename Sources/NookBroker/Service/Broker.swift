import FoundationEssentials
import NookBus
import NookCore
import NookText

/// The broker on the bus: decodes calls, applies them to the `Registry`, performs the actions
/// it returns (unicast diagnostics, peer tracking, grace timers, debounced persistence).
///
/// Confinement: `Broker` is an actor whose executor *is* its connection's bus thread
/// (`unownedExecutor` returns the connection's). Method handlers are `immediate`: sd-bus runs
/// them on that thread, where `assumeIsolated` enters the actor synchronously, so a call is
/// decoded, applied and answered without a single thread hop, and the registry, the peer
/// table and the timers are only ever touched on that one thread. Timers and peer tracking
/// are tasks isolated to the actor, hence on the same thread as well. Only file writes leave
/// it: `StateStore` is its own actor on the global executor, fed with value snapshots.
///
/// ```swift
/// let broker = try await Broker.start(BrokerConfiguration(address: .address(addr)))
/// // ... serve until SIGTERM
/// let saved = await broker.shutdown()   // writes the state file, closes the connection
/// ```
public actor Broker {
    public nonisolated let connection: BusConnection
    public nonisolated var unownedExecutor: UnownedSerialExecutor { connection.unownedExecutor }
    nonisolated let log: Log
    nonisolated let path: ObjectPath = .nook
    nonisolated let origin: ContinuousClock.Instant
    nonisolated let persistDelay: Duration
    /// The registry's view limits (`RegistryLimits.view`), for views read as calls arrive.
    nonisolated let viewLimits: ViewLimits
    nonisolated let store: StateStore

    public internal(set) var registry: Registry
    private var peers: [String: MatchToken] = [:]
    private var tracking: Set<String> = []
    private var expiryTask: Task<Void, Never>?
    private var scheduledExpiry: BrokerTime?
    /// The debounce (or retry) timer of the next state write.
    private var persistTask: Task<Void, Never>?
    /// The state write on its way to the disk, if any: at most one at a time (its error, nil
    /// once written).
    private var writing: Task<(any Error)?, Never>?
    private var dirty = false
    /// When the oldest change not yet on its way to the disk was made.
    private var dirtySince: ContinuousClock.Instant?
    private var generation: UInt64 = 0
    /// Why the last state write failed; nil while writes succeed (`GetState`'s `persistence`).
    private(set) var persistenceError: String? {
        didSet { if persistenceError != oldValue { noteStateChange() } }
    }
    private var failedWrites = 0
    private var retryDelay: Duration = .zero
    /// How long the last successful write took, from its start on the bus thread to its end.
    private var lastWriteDuration: Duration = .zero
    /// Every scene change, for tests and tools that watch the registry.
    private var sceneObservers: [@Sendable (SceneChange) -> Void] = []

    // Presentation and rendering (Broker+Presentation.swift, Broker+Render.swift).
    var machine = PresentationMachine()
    var subscribers: [String: RenderSubscriber] = [:]
    /// When and how plans reach them (Broker+Delivery.swift).
    var delivery: RenderDelivery
    /// The serial of the newest plan; increases by one per change that plans.
    var serial: UInt64 = 0
    var subscriptionCount: UInt64 = 0
    /// The theme from the configuration or the user's file; `SetTokens` overrides go on top.
    var baseTheme: Theme
    /// The theme file `reloadTheme()` reads again; nil when the configuration gave the theme.
    nonisolated let themeFile: URL?
    var tokenOverrides: [String: PropValue] = [:]
    var settings: PlannerSettings
    /// What each module's theme in `settings.moduleThemes` was made from (Broker+ModuleThemes).
    var moduleThemeSources: [String: ModuleThemeSource] = [:]
    /// Text is measured in the theme's `font.family` with fontconfig and HarfBuzz (else the
    /// estimate, `BrokerConfiguration.measuresTextWithFonts`).
    let measuresTextWithFonts: Bool
    /// The display previews are planned on without subscribers; `DisplayChanged` from a
    /// control client sets it.
    var previewDisplay = Broker.defaultDisplay
    /// The bus-thread timer for the next stale or dismiss date, and that date.
    var staleTimer: BusExecutor.TimerID?
    var scheduledStale: Int64?
    /// `StateChanged` broadcasts (Broker+State.swift).
    var stateBroadcast: StateBroadcast
    /// Replaced plans and scenes, freed after the plan is on its way (DeferredRelease.swift).
    var deferredRelease = DeferredRelease()
    /// What each module was told about its views since its content last changed (contract 1.1).
    var planDiagnostics = PlanDiagnosticsLedger()
    /// Presses per connection (`Activate`, `Invoke`; Broker+Touch.swift).
    var activations: ActivationLimiter
    /// Bus-thread time per process for `Subscribe`, `PreviewPlan`, `Register` (Broker+Limits.swift).
    var work: WorkLimiter
    /// The process behind each connection that made such a call (pids never change).
    var callerProcesses: [String: Peer] = [:]

    init(connection: BusConnection, registry: Registry, store: StateStore, file: StateFile?, configuration: BrokerConfiguration) {
        self.connection = connection
        self.registry = registry
        self.store = store
        self.log = configuration.log
        self.persistDelay = configuration.persistDelay
        viewLimits = configuration.limits.view
        self.origin = ContinuousClock.now
        self.baseTheme = configuration.theme ?? .builtIn
        self.themeFile = configuration.themeFile
        self.settings = PlannerSettings(theme: baseTheme, display: Broker.defaultDisplay)
        self.measuresTextWithFonts = configuration.measuresTextWithFonts
        self.settings.textMeasurement = Self.textMeasurement(family: settings.fontFamily, fonts: measuresTextWithFonts)
        self.registry.namedRules = settings.namedRules
        self.delivery = RenderDelivery(limits: configuration.renderLimits)
        self.stateBroadcast = StateBroadcast(limits: configuration.broadcastLimits)
        self.activations = ActivationLimiter(rate: configuration.renderLimits.activationsPerSecond, burst: configuration.renderLimits.activationBurst)
        self.work = WorkLimiter(configuration.callLimits)
        self.serial = Self.firstSerial(unixMicroseconds: Int64((Date().timeIntervalSince1970 * 1_000_000).rounded()))
    }

    /// Connects, restores the state file, exports the interfaces and takes `org.nook.Nook1`.
    /// - Throws: `BrokerStartError.nameTaken` when another broker owns the name.
    public static func start(_ configuration: BrokerConfiguration) async throws -> Broker {
        let log = configuration.log
        let theme = configuration.theme ?? BrokerConfiguration.loadTheme(environment: ProcessInfo.processInfo.environment, log: log)
        let grace = theme.duration(at: "broker.moduleGrace") ?? 10
        let store = StateStore(directory: configuration.stateDirectory ?? StateStore.defaultDirectory())
        var file: StateFile?
        var registry = Registry(limits: configuration.limits, grace: grace)
        var rejected: [RejectedEntry] = []
        switch await store.load() {
        case .refused(let error):
            throw BrokerStartError.stateDirectory(error)
        case .empty:
            log(.info, "no state file at \(store.fileURL.path); starting empty")
        case .corrupt(let reason, let movedTo):
            log(.warning, "state file \(store.fileURL.path) is unreadable (\(reason)); moved to \(movedTo ?? "nowhere: could not move it") and starting empty")
        case .loaded(let loaded):
            file = loaded
            // Grace counts from the broker's start: the time the modules need to reconnect.
            let restored = Registry.restoring(loaded.registry, limits: configuration.limits, grace: grace, now: .zero)
            registry = restored.registry
            rejected = loaded.unreadable + restored.rejected
            log(.info, "restored \(registry.modules.count) modules, \(registry.displayOrder.count) activities from \(store.fileURL.path)")
        }
        let connection = try await BusConnection.connect(to: configuration.address, description: "nookd")
        var resolved = configuration
        resolved.theme = theme
        if configuration.theme == nil {
            resolved.themeFile = BrokerConfiguration.themeFile(environment: ProcessInfo.processInfo.environment)
        }
        let broker = Broker(connection: connection, registry: registry, store: store, file: file, configuration: resolved)
        rejected += await broker.restorePresentation(file)
        await broker.refreshModuleThemes()
        await broker.keepRejected(rejected)
        try await connection.export(broker.interfaces, at: broker.path)
        do {
            try await connection.requestName(NookNames.busName)
        } catch BusError.nameTaken(let name) {
            await connection.close()
            throw BrokerStartError.nameTaken(name)
        }
        await broker.rescheduleExpiry()
        await broker.rescheduleStale()
        log(.info, "serving \(NookNames.busName) at \(NookNames.objectPath) as \(connection.uniqueName); module grace \(grace)s")
        return broker
    }

    /// Writes the state file now (retrying briefly if that fails) and closes the connection.
    /// - Returns: false when the final write failed: what the broker held is not on disk.
    public func shutdown() async -> Bool {
        expiryTask?.cancel()
        var saved = await flush()
        var delay = Self.firstRetryDelay
        for _ in 0..<Self.shutdownRetries where !saved {
            try? await Task.sleep(for: delay)
            delay *= 2
            saved = await flush()
        }
        persistTask?.cancel()
        persistTask = nil
        await connection.close()
        return saved
    }

    /// Returns once the broker's thread has run it: proof of life for the watchdog.
    public func heartbeat() {}

    /// Writes the state file now, whatever the debounce timer says.
    /// - Returns: whether this write reached the disk.
    @discardableResult
    public func flush() async -> Bool {
        persistTask?.cancel()
        persistTask = nil
        markDirty()
        return await writeState()
    }

    /// Calls `observer` (on the bus thread) for every scene change from now on.
    public func observeScene(_ observer: @escaping @Sendable (SceneChange) -> Void) {
        sceneObservers.append(observer)
    }

    var now: BrokerTime { BrokerTime(seconds: (ContinuousClock.now - origin) / .seconds(1)) }

    // MARK: Applying

    /// Runs a registry mutation; on success performs its actions, on failure throws the
    /// contract's error.
    func apply(_ body: (inout Registry, BrokerTime) throws(RegistryError) -> [RegistryAction]) throws(DBusError) {
        let actions: [RegistryAction]
        registry.unixNow = unixMicroseconds
        do { actions = try body(&registry, now) } catch {
            throw DBusError(error)
        }
        perform(actions, deliveringFirst: true)
    }

    /// Carries out what the registry asked for. With `deliveringFirst` (a module's call), a
    /// plan due to one renderer goes out before the timers for expiry and staleness are set
    /// again, so that bookkeeping is not on the way to the screen.
    func perform(_ actions: [RegistryAction], deliveringFirst: Bool = false) {
        planDiagnostics.follow(actions)
        if deliveringFirst { callStarted() }
        for action in actions {
            switch action {
            case .diagnostics(let target, let module, let diagnostics):
                sendDiagnostics(diagnostics, to: target, module: module)
            case .sceneChanged(let change):
                log(.debug, "scene: \(change.cause.rawValue) \(change.module)/\(change.activity ?? change.slot?.rawValue ?? "")")
                for observer in sceneObservers { observer(change) }
                sceneChanged(change)
            case .trackPeer(let name):
                Task { await self.track(name) }
            case .untrackPeer(let name):
                Task { await self.untrack(name) }
            case .persist:
                schedulePersist()
            }
        }
        if deliveringFirst { deliverBeforeTheReplyWhenOneRendererIsDue() }
        rescheduleExpiry()
        rescheduleStale()
    }

    func sendDiagnostics(_ diagnostics: [Diagnostic], to target: String, module: String) {
        let argument = WireCodec.diagnostics(diagnostics)
        let path = self.path
        do {
            try connection.assumeIsolated { connection in
                try connection.emit(NookContract.Modules.diagnostics, [argument], from: path, to: target)
            }
        } catch {
            log(.warning, "could not send \(diagnostics.count) diagnostics to \(module) (\(target)): \(error)")
        }
    }

    // MARK: Peers

    private func track(_ name: String) async {
        guard peers[name] == nil, !tracking.contains(name), registry.module(ownedBy: name) != nil else { return }
        tracking.insert(name)
        defer { tracking.remove(name) }
        do {
            let token = try await connection.trackPeer(name) { [weak self] in
                // On the bus thread: the actor's own executor.
                self?.assumeIsolated { $0.peerLeft(name) }
            }
            if registry.module(ownedBy: name) == nil {
                await connection.removeMatch(token)
            } else {
                peers[name] = token
            }
        } catch {
            log(.warning, "cannot track \(name): \(error)")
        }
    }

    private func untrack(_ name: String) async {
        if let token = peers.removeValue(forKey: name) { await connection.removeMatch(token) }
    }

    private func peerLeft(_ name: String) {
        guard let module = registry.module(ownedBy: name) else { return }
        let actions = registry.connectionLeft(name, now: now)
        log(.info, "module \"\(module)\" lost its connection \(name); it keeps its state for \(registry.grace)s")
        perform(actions)
    }

    // MARK: Grace timers

    func rescheduleExpiry() {
        let next = registry.nextExpiry
        guard next != scheduledExpiry else { return }
        expiryTask?.cancel()
        scheduledExpiry = next
        guard let next else {
            expiryTask = nil
            return
        }
        let deadline = origin + .milliseconds(Int64((next.seconds * 1000).rounded(.up)))
        expiryTask = Task { [weak self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            guard !Task.isCancelled else { return }
            await self?.expireDue()
        }
    }

    private func expireDue() {
        scheduledExpiry = nil
        let actions = registry.expire(now: now)
        for change in actions.sceneChanges where change.activity != nil {
            log(.info, "module \"\(change.module)\" did not come back: activity \"\(change.activity!)\" ends")
        }
        perform(actions)
    }

    // MARK: Stale dates

    /// Unix time in microseconds: stale dates are wall-clock times, unlike grace periods.
    nonisolated var unixMicroseconds: Int64 { Int64((Date().timeIntervalSince1970 * 1_000_000).rounded()) }

    /// The next wall-clock date the registry acts on: a `stale_date` or a `dismiss_date`.
    func rescheduleStale() {
        // A timer due no later than the next date stays: when it fires, `staleDue` does what is
        // due then and sets the next. So an update that moves a date later (a notification's
        // expiry, every update) costs no timer; only an earlier date replaces it.
        guard let next = [registry.nextStaleDate, registry.nextDismissDate].compactMap({ $0 }).min() else { return }
        if let scheduled = scheduledStale, scheduled <= next { return }
        if let staleTimer { connection.executor.cancel(staleTimer) }
        scheduledStale = next
        // Dates are within 1970..2200 (NumberDomain.unixDate): the difference cannot overflow.
        let wait = max(0, next - unixMicroseconds)
        staleTimer = connection.executor.runOnce(after: .microseconds(wait)) { [weak self] in
            // On the bus thread: the actor's own executor.
            self?.assumeIsolated { $0.staleDue() }
        }
    }

    private func staleDue() {
        scheduledStale = nil
        staleTimer = nil
        let now = unixMicroseconds
        perform(registry.markStale(unixMicroseconds: now) + registry.dismissDue(unixMicroseconds: now))
    }

    // MARK: Persistence

    /// A failed write is retried after 100 ms, then after twice as long each time, up to 5 s
    /// between attempts, until one succeeds. A stop retries three times (0.7 s) before it gives up.
    static let firstRetryDelay: Duration = .milliseconds(100)
    static let maxRetryDelay: Duration = .seconds(5)
    static let shutdownRetries = 3

    func schedulePersist() {
        // Whatever is saved is state a status bar may show.
        noteStateChange()
        markDirty()
        // A write on its way picks this change up when it ends (`writeNextIfDirty`).
        guard persistTask == nil, writing == nil else { return }
        startPersistTimer(after: debounce)
    }

    /// True while a change is not yet on disk: one is waiting for its write, or a write is on
    /// its way. `GetState`'s `persistence_pending`: a test (or a script about to kill nookd)
    /// waits for false instead of guessing how long a write takes.
    var hasUnwrittenState: Bool { dirty || writing != nil }

    /// The wait before the next write: `persistDelay` while writes are quick; shorter (down to
    /// `shortestDebounce`) once two writes as long as the last one would not fit in the rest of
    /// the second a change may wait (the write on its way and the one with the change).
    var debounce: Duration { Self.debounce(persistDelay, lastWrite: lastWriteDuration) }

    static func debounce(_ persistDelay: Duration, lastWrite: Duration) -> Duration {
        let room = .seconds(1) - lastWrite * 2
        return min(persistDelay, max(min(persistDelay, shortestDebounce), room))
    }

    static let shortestDebounce: Duration = .milliseconds(200)

    private func markDirty() {
        if !dirty { dirtySince = .now }
        dirty = true
    }

    private func startPersistTimer(after delay: Duration) {
        persistTask = Task { [weak self] in
            try? await Task.sleep(for: delay)
            guard !Task.isCancelled else { return }
            await self?.writeState()
        }
    }

    /// After a write: changes made while it was on its way are written next, as soon as the
    /// debounce of the oldest of them allows (at once, when the write took longer than that).
    private func writeNextIfDirty() {
        guard dirty, persistTask == nil, writing == nil else { return }
        let due = (dirtySince ?? .now) + debounce
        startPersistTimer(after: max(.zero, due - .now))
    }

    /// Writes the current state. At most one write is on its way at a time, and none waits
    /// in line behind it: what changes meanwhile is written by the next write, which starts
    /// when this one ends, with the state as it is then (the newest wins; nothing in between is
    /// encoded). The broker hands over a copy of its registry (a value: nothing is copied on
    /// this thread); the store builds and encodes the stored form on its own executor.
    ///
    /// A failure keeps the state dirty and schedules a retry with backoff; `GetState` says
    /// `persistence` `failing` until a write succeeds.
    /// - Returns: whether this write reached the disk.
    @discardableResult
    private func writeState() async -> Bool {
        persistTask = nil
        // Only `flush` gets here while a write is on its way: it waits for that one to end.
        // (Its own writer may resume after this one: whoever sees the ended write first
        // clears it, the other leaves alone whatever is there by then.)
        while let running = writing {
            _ = await running.value
            if writing == running { writing = nil }
        }
        guard dirty else { return persistenceError == nil }
        dirty = false
        dirtySince = nil
        generation += 1
        let attempt = generation
        let state = PersistedState(registry: registry, presentation: storedPresentation, settings: storedSettings, tokens: storedTokens)
        let store = self.store
        let write = Task.detached { () -> (any Error)? in
            do {
                try await store.save(state, generation: attempt)
                return nil
            } catch {
                return error
            }
        }
        writing = write
        let started = ContinuousClock.now
        let failure = await write.value
        if writing == write { writing = nil }
        defer { writeNextIfDirty() }
        if let error = failure {
            markDirty()
            // A newer write started meanwhile: its outcome is the one that counts.
            guard attempt == generation else { return false }
            let message = "\(error)"
            retryDelay = retryDelay == .zero ? Self.firstRetryDelay : min(retryDelay * 2, Self.maxRetryDelay)
            if message != persistenceError {
                log(.warning, "could not write the state file: \(message); retrying in \(retryDelay), then less and less often (at least every \(Self.maxRetryDelay))")
            }
            persistenceError = message
            failedWrites += 1
            scheduleRetry(after: retryDelay)
            return false
        }
        lastWriteDuration = started.duration(to: .now)
        if attempt == generation, persistenceError != nil {
            log(.info, "the state file is written again (\(store.fileURL.path)) after \(failedWrites) failed attempts")
            persistenceError = nil
            failedWrites = 0
            retryDelay = .zero
        }
        return true
    }

    private func scheduleRetry(after delay: Duration) {
        persistTask?.cancel()
        persistTask = Task { [weak self] in
            try? await Task.sleep(for: delay)
            guard !Task.isCancelled else { return }
            await self?.writeState()
        }
    }

    /// Logs each refused entry of the state file and keeps them in `state.rejected-<...>.json`;
    /// the cleaned state is written back, so the next start does not refuse them again.
    func keepRejected(_ rejected: [RejectedEntry]) async {
        guard !rejected.isEmpty else { return }
        for entry in rejected { log(.warning, "restoring state: \(entry.warning)") }
        do {
            let path = try await store.saveRejected(rejected)
            log(.warning, "restoring state: \(rejected.count) refused entries kept in \(path)")
        } catch {
            // Nowhere else to keep them: the log gets them whole.
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let json = (try? encoder.encode(rejected)).map { String(decoding: $0, as: UTF8.self) } ?? "(could not encode them)"
            log(.error, "restoring state: could not keep the \(rejected.count) refused entries in a file (\(error)); here they are: \(json)")
        }
        schedulePersist()
    }
}

public enum BrokerStartError: Error, CustomStringConvertible {
    case nameTaken(String)
    /// The state directory is not one nookd may use (`StateDirectory`).
    case stateDirectory(StateDirectoryError)
    public var description: String {
        switch self {
        case .nameTaken(let name): "the bus name \(name) is already owned: another nookd is running"
        case .stateDirectory(let error): "\(error)"
        }
    }
}

extension DBusError {
    /// The contract error for a registry refusal.
    init(_ error: RegistryError) {
        let name: NookErrorName =
            switch error.kind {
            case .invalidId: .invalidId
            case .notRegistered: .notRegistered
            case .moduleTaken: .moduleTaken
            case .unknownActivity: .unknownActivity
            case .activityExists: .activityExists
            case .unknownModule: .unknownModule
            case .invalidView: .invalidView
            case .invalidArgs: .invalidArgs
            case .accessDenied: .accessDenied
            case .limitsExceeded: .limitsExceeded
            case .activityDismissed: .activityDismissed
            case .invalidTheme: .invalidTheme
            }
        self.init(nook: name, error.message)
    }
}
