import FoundationEssentials
import Glibc
import NookBus
import NookCore
import NookModuleAPI

/// Applies the table's changes to the broker, one batch at a time: starts, updates and ends
/// activities, peeks at new ones, runs expiry timers, writes and removes image files, and
/// emits `NotificationClosed`.
///
/// It runs on the bus thread that takes `Notify` (the module shares the service's
/// connection): a notification goes from the call to its `UpdateActivity` without waking
/// another thread.
actor Publisher {
    let bus: BusConnection
    let module: NookModule
    nonisolated var unownedExecutor: UnownedSerialExecutor { module.unownedExecutor }
    let settings: BridgeSettings
    let log: @Sendable (String) -> Void
    /// What the broker has, by notification id.
    var published: [UInt32: NookLiveActivity] = [:]
    /// When each notification expires, and the one timer that sleeps until the soonest.
    var expiries = ExpiryDeadlines()
    var expiryTimer: (task: Task<Void, Never>, due: ContinuousClock.Instant)?
    var imageFiles: [UInt32: String] = [:]
    /// What each published activity was made of, to make it again when the stack changes.
    var contents: [UInt32: NotificationContent] = [:]
    /// The stack as the batch being applied leaves it; `stackShown` as the top one shows it.
    var stack = NotificationStack(live: [:])
    var stackShown: (id: UInt32, summary: NotificationStack.Summary?)?
    /// The notification of the batch that peeks (one peek a batch: the highest urgency, then
    /// the newest, as the stack orders them), and each app's peeks left
    /// (`NotificationStack.PeekAllowance`).
    var peekWanted: (id: UInt32, urgency: Urgency)?
    var peekAllowances: [String: NotificationStack.PeekAllowance] = [:]
    /// The closed notifications, kept in `historyWriter`'s file.
    var history: NotificationHistory
    let historyWriter: CoalescingWriter<HistoryFileContent>?

    /// Do not disturb, kept in `dndWriter`'s file; `dndTimer` ends it at its `until`.
    var dnd: DoNotDisturb
    let dndWriter: CoalescingWriter<DoNotDisturb>?
    var dndTimer: Task<Void, Never>?
    /// A notification was counted in the batch being applied.
    var dndCounted = false
    /// The `dnd` activity (DoNotDisturbIndicator.swift).
    let dndIndicator = DoNotDisturbIndicator()
    /// How many times each live activity has been peeked at: a peek's end applies only to
    /// the latest peek (a synchronous replacement peeks again, and its peek lasts its own
    /// `peekDuration`, not what was left of the one before).
    var peekCounts: [String: UInt64] = [:]

    init(bus: BusConnection, module: NookModule, settings: BridgeSettings, history: NotificationHistory,
         historyWriter: CoalescingWriter<HistoryFileContent>?, dnd: DoNotDisturb, dndWriter: CoalescingWriter<DoNotDisturb>?,
         log: @escaping @Sendable (String) -> Void) {
        self.dnd = dnd
        self.dndWriter = dndWriter
        self.bus = bus
        self.module = module
        self.settings = settings
        self.history = history
        self.historyWriter = historyWriter
        self.log = log
    }

    /// Applies each batch as it is woken, then rests until `publishInterval` has passed since
    /// the batch began: what arrives meanwhile waits in the table, coalesced per notification,
    /// and goes out as the next batch.
    func run(_ wakes: AsyncStream<Void>, bridge: NotificationBridge) async {
        let clock = ContinuousClock()
        for await _ in wakes {
            // The call that woke this batch was answered just now on this thread, and the bus
            // daemon, woken by that reply, is likely waiting for this CPU (the kernel wakes a
            // process where its waker runs): let it forward the reply before the batch's work.
            sched_yield()
            let began = clock.now
            let (changes, closed) = bridge.takePending()
            await apply(changes, closed: closed, bridge: bridge)
            let rest = settings.publishInterval - began.duration(to: clock.now)
            if rest > .zero { await bus.executor.sleep(for: rest) }
        }
    }

    func apply(_ changes: [NotificationTable.Change], closed: [UInt32: NotificationRequest], bridge: NotificationBridge) async {
        var historyChanged = false
        // The stack once the batch is applied: its top is shown with it from the start.
        var live = contents.mapValues(\.request)
        var shown: Set<UInt32> = []
        for change in changes {
            switch change {
            case .show(let id, let entry):
                live[id] = entry.request
                shown.insert(id)
            case .close(let id, _): live[id] = nil
            }
        }
        stack = NotificationStack(live: live)
        for change in changes {
            switch change {
            case .show(let id, let entry): await show(id, entry, bridge: bridge)
            case .close(let id, let reason):
                await close(id, reason)
                // `transient`, or a rule's `history=no`: never kept in the history.
                if let request = closed[id], history.capacity > 0, request.ruleEffects.keepsInHistory, !request.specHints.transient {
                    history.append(NotificationHistory.Entry(id: id, request: request, reason: reason, closedAt: NookInstant.now().unixMicroseconds))
                    historyChanged = true
                }
            }
        }
        if let peekWanted {
            self.peekWanted = nil
            await peek(at: NotificationViews.activityID(peekWanted.id))
        }
        await restack(shownInBatch: shown)
        if historyChanged { saveHistory() }
        if dndCounted {
            dndCounted = false
            saveDND()
        }
    }

    // MARK: History (org.nook.Notifications1)

    func saveHistory() {
        guard let historyWriter else { return }
        let content = HistoryFileContent(entries: history.entries)
        Task { await historyWriter.schedule(content) }
    }

    func historyEntries() -> [NotificationHistory.Entry] { history.entries }

    func popNewest() -> NotificationHistory.Entry? {
        let entry = history.popNewest()
        if entry != nil { saveHistory() }
        return entry
    }

    func clearHistory() -> Int {
        let count = history.entries.count
        history.clear()
        saveHistory()
        return count
    }

    // MARK: Do not disturb

    func doNotDisturb() -> DoNotDisturb { dnd }

    func setDoNotDisturb(_ mode: DoNotDisturb.Mode, seconds: Double?) -> DoNotDisturb {
        dnd.set(mode, seconds: seconds, now: NookInstant.now().unixMicroseconds)
        log("do not disturb \(dnd.on ? "on" : "off")\(dnd.until.map { " for \(Double($0 - NookInstant.now().unixMicroseconds) / 1e6) s" } ?? "")")
        armDNDTimer()
        saveDND()
        return dnd
    }

    /// Ends do not disturb at its `until` (a timer; a state loaded already past it ends now).
    func armDNDTimer() {
        dndTimer?.cancel()
        dndTimer = nil
        guard dnd.on, let until = dnd.until else { return }
        let remaining = max(0, until - NookInstant.now().unixMicroseconds)
        dndTimer = Task { [weak self] in
            try? await Task.sleep(for: .microseconds(remaining))
            guard !Task.isCancelled else { return }
            await self?.endDNDIfDue()
        }
    }

    func endDNDIfDue() {
        // The sleep may wake a little early: past `until` by the clock it ends; else sleep again.
        if dnd.expire(now: NookInstant.now().unixMicroseconds + 1_000) {
            log("do not disturb ended by itself (\(dnd.arrived) arrived meanwhile)")
            dndTimer = nil
            saveDND()
        } else {
            armDNDTimer()
        }
    }

    /// Keeps the state and tells listeners (`DoNotDisturbChanged`: a status bar following it).
    func saveDND() {
        let state = dnd
        let bus = self.bus
        let log = self.log
        Task {
            do {
                try await bus.emit(NookContract.Notifications.doNotDisturbChanged, [state.vardict])
            } catch { log("cannot emit DoNotDisturbChanged: \(error)") }
        }
        showDNDIndicator()
        guard let dndWriter else { return }
        Task { await dndWriter.schedule(state) }
    }

    /// Writes the history now (the bridge leaving).
    func flushHistory() async {
        guard let historyWriter else { return }
        await historyWriter.schedule(HistoryFileContent(entries: history.entries))
        await historyWriter.flush()
        if let dndWriter {
            await dndWriter.schedule(dnd)
            await dndWriter.flush()
        }
    }

    func show(_ id: UInt32, _ entry: NotificationTable.Entry, bridge: NotificationBridge) async {
        let request = entry.request
        let expiry = settings.expiry(of: request)
        if let expiry {
            expiries.set(id, at: .now + expiry, generation: entry.generation)
        } else {
            expiries.remove(id)
        }
        armExpiryTimer(bridge: bridge)
        let image = imageURI(id, request)
        let desktop = desktopEntry(id, request)
        var content = NotificationContent(
            id: id, request: request, iconURI: appIconURI(id, request) ?? desktopIconURI(id, desktop) ?? image ?? "dialog-information-symbolic",
            imageURI: image,
            // The bridge ends it at expiry (reason 1); the broker's dismiss_date, a little
            // later, ends it should the bridge be stuck or gone.
            dismissDate: expiry.map { NookInstant.now() + $0 + .seconds(2) },
            invoke: { [weak bridge] key in await bridge?.invoke(id, key) }, stack: stack.summary(for: id))
        content.displayName = desktop?.name
        content.openLink = { [weak self] url in await self?.openLink(id, url) }
        let activity = NotificationViews.activity(content)
        do {
            if published[id] != nil {
                try await module.update(activity)
                // A synchronous replacement (a volume script's) shows itself again, with its sound.
                if request.specHints.synchronous != nil, !dnd.holdsPeek(of: request.urgency) {
                    playSound(id, request)
                    if request.urgency != .low, !request.ruleEffects.noPeek { await peek(at: activity.id) }
                }
            } else {
                try await module.start(activity)
                if dnd.holdsPeek(of: request.urgency) {
                    // Kept and announced once per batch (`apply`), not once per notification.
                    dndCounted = true
                } else {
                    playSound(id, request)
                    if request.ruleEffects.noPeek {
                        // A rule's no-peek: it stacks like the rest, never peeked at.
                    } else if request.urgency == .critical || request.urgency == .normal && peekAllowed(for: request.appName) {
                        // One peek a batch, at its top (NotificationStack): the rest stack.
                        if peekWanted.map({ ($0.urgency.rawValue, $0.id) < (request.urgency.rawValue, id) }) ?? true { peekWanted = (id, request.urgency) }
                    }
                }
            }
            published[id] = activity
            contents[id] = content
            if stack.top == id { stackShown = (id, content.stack) }
        } catch {
            log("notification \(id): the broker refused it: \(error)")
        }
    }

    /// Sleeps until the soonest deadline; an armed timer that wakes no later is kept.
    func armExpiryTimer(bridge: NotificationBridge?) {
        guard let next = expiries.earliest else {
            expiryTimer?.task.cancel()
            expiryTimer = nil
            return
        }
        if let armed = expiryTimer, armed.due <= next { return }
        expiryTimer?.task.cancel()
        let task = Task { [weak self, weak bridge] in
            try? await Task.sleep(until: next, clock: .continuous)
            guard !Task.isCancelled else { return }
            await self?.expiryTimerFired(bridge: bridge)
        }
        expiryTimer = (task, next)
    }

    func expiryTimerFired(bridge: NotificationBridge?) {
        expiryTimer = nil
        for due in expiries.takeDue(at: .now) { bridge?.expire(due.id, generation: due.generation) }
        armExpiryTimer(bridge: bridge)
    }

    func close(_ id: UInt32, _ reason: CloseReason) async {
        // The timer, should it wake for this one, finds nothing due and sleeps on.
        expiries.remove(id)
        peekCounts.removeValue(forKey: NotificationViews.activityID(id))
        contents.removeValue(forKey: id)
        if published.removeValue(forKey: id) != nil {
            _ = try? await module.end(activityID: NotificationViews.activityID(id), dismissal: reason == .dismissed ? .immediate : .default)
        }
        if let file = imageFiles.removeValue(forKey: id) { try? FileManager.default.removeItem(atPath: file) }
        do {
            try await bus.emitSignal(
                path: NotificationsInterface.path, interface: NotificationsInterface.name, member: "NotificationClosed",
                arguments: [.uint32(id), .uint32(reason.rawValue)])
        } catch { log("cannot emit NotificationClosed: \(error)") }
    }

    /// Gives the stack's top its count and list, and takes them from the one that was on top
    /// before: at most two `UpdateActivity` a batch, and none when the stack's look did not
    /// change (a lone notification, or one replaced in place under the same top).
    func restack(shownInBatch shown: Set<UInt32>) async {
        let top = stack.top
        if let old = stackShown, old.id != top, old.summary != nil, !shown.contains(old.id) {
            await remake(old.id, stack: nil)
        }
        if let top, !shown.contains(top), stackShown?.id != top || stackShown?.summary != stack.summary {
            await remake(top, stack: stack.summary)
        }
        stackShown = top.map { ($0, stack.summary(for: $0)) }
    }

    /// Sends notification `id`'s activity again, with `stack` (or none).
    func remake(_ id: UInt32, stack summary: NotificationStack.Summary?) async {
        guard var content = contents[id], published[id] != nil else { return }
        content.stack = summary
        contents[id] = content
        let activity = NotificationViews.activity(content)
        do {
            try await module.update(activity)
            published[id] = activity
        } catch {
            log("notification \(id): the broker refused its stack: \(error)")
        }
    }

    static let maxPeekAllowances = 256

    /// Whether a new notification of `app` may peek (`NotificationStack.PeekAllowance`: a
    /// flood from one app peeks a few times, then once a second, and the rest stack unpeeked).
    func peekAllowed(for app: String) -> Bool {
        let now = NookInstant.now().unixMicroseconds
        // Forget the apps whose allowance is full again, so the table stays small; past 256
        // apps at once (a client cycling app names) forget them all: the table is bounded, and
        // its pruning runs once per 256 apps at most, not on every notification.
        if peekAllowances.count >= Self.maxPeekAllowances {
            peekAllowances = peekAllowances.filter { !$0.value.isFull(at: now) }
            if peekAllowances.count >= Self.maxPeekAllowances / 2 { peekAllowances.removeAll(keepingCapacity: true) }
        }
        var allowance = peekAllowances[app] ?? NotificationStack.PeekAllowance()
        let allowed = allowance.take(at: now)
        peekAllowances[app] = allowance
        return allowed
    }

    /// Peeks at `activity` now and ends the peek after `peekDuration`, if the nook still
    /// peeks at it then (another notification's peek, or a person, may have moved on) and
    /// it was not peeked at again meanwhile.
    func peek(at activity: String) async {
        let module = NotificationBridge.moduleID
        let count = (peekCounts[activity] ?? 0) &+ 1
        peekCounts[activity] = count
        do {
            _ = try await control.peek(module: module, activity: activity)
        } catch {
            log("cannot peek at \(activity): \(error)")
            return
        }
        let duration = settings.peekDuration
        Task {
            try? await Task.sleep(for: duration)
            guard self.peekCounts[activity] == count else { return }
            guard let state = try? await self.control.getState(),
                state["presentation"] == .string("peek"), state["module"] == .string(module), state["activity"] == .string(activity)
            else { return }
            _ = try? await self.control.endPeek()
        }
    }

    /// nookd's Control interface, answering within 5 s.
    var control: NookControlProxy { NookControlProxy(bus, timeout: .seconds(5)) }

    /// What an `app_icon` or `image-path` names.
    enum IconSource: Equatable {
        case none
        /// A `file://` URI of a readable regular file, or an icon-theme name.
        case uri(String)
        /// A path the renderer is not given: why (`does not exist`, `is a FIFO, not a regular file`).
        case refused(path: String, reason: String)
    }

    /// The largest `app_icon` or `image-path` file passed on: the renderer reads no more (16 MiB).
    static let maxImageFileBytes: Int64 = 16 * 1024 * 1024

    /// Reads `icon` as a path (absolute, or a `file://` URI) or an icon name. A path is passed
    /// on only when `stat` says it is a regular file and it is readable: a FIFO or a device
    /// would stall whoever opens it (`NookImageFile`).
    static func iconSource(_ icon: String) -> IconSource {
        guard !icon.isEmpty else { return .none }
        let path = icon.hasPrefix("file://") ? String(icon.dropFirst("file://".count)) : icon
        if path.hasPrefix("/") {
            if let reason = NookImageFile.refusal(path: path, maxBytes: maxImageFileBytes) { return .refused(path: path, reason: reason) }
            return .uri("file://" + path)
        }
        return icon.contains("/") ? .refused(path: icon, reason: "is neither an absolute path nor an icon name") : .uri(icon)
    }

    /// The app icon as `iconSource` reads it; a refused path is logged.
    func appIconURI(_ id: UInt32, _ request: NotificationRequest) -> String? {
        switch Self.iconSource(request.appIcon) {
        case .none: return nil
        case .uri(let uri): return uri
        case .refused(let path, let reason):
            log("notification \(id): app_icon '\(path.prefixBytes(200))' \(reason); shown without it")
            return nil
        }
    }

    /// `image-data` written as a PNG file, else a readable `image-path` (a regular file or an
    /// icon name); nil when neither is usable (a refused path is logged and skipped).
    func imageURI(_ id: UInt32, _ request: NotificationRequest) -> String? {
        if let raw = request.imageData {
            let file = settings.imageDirectory + "/\(id).png"
            do {
                try FileManager.default.createDirectory(atPath: settings.imageDirectory, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
                try Data(raw.png).write(to: URL(fileURLWithPath: file), options: .atomic)
                imageFiles[id] = file
                return "file://" + file
            } catch {
                log("notification \(id): cannot write its image-data to \(file): \(error)")
            }
        }
        guard let path = request.imagePath else { return nil }
        switch Self.iconSource(path) {
        case .uri(let uri): return uri
        case .refused(let refused, let reason):
            log("notification \(id): image-path '\(refused.prefixBytes(200))' \(reason); shown without it")
        case .none: break
        }
        return nil
    }
}
