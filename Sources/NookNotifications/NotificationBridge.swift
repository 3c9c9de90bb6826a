import FoundationEssentials
import Glibc
import NookFiles
import NookBus
import NookModuleAPI
import Synchronization

/// Why the bridge could not start.
public struct BridgeStartError: Error, CustomStringConvertible {
    public let description: String
    /// Another program owns `org.freedesktop.Notifications` (exit status 3 in nook-notifications).
    public let nameTaken: Bool
}

/// The freedesktop Notifications server that publishes each notification as a Nook activity.
///
/// `Notify` and `CloseNotification` run on the service connection's thread: they change the
/// `NotificationTable` under a lock and reply at once (`Notify` reads its request only after
/// replying with the id), so a client never waits for the broker. A `Publisher` then applies
/// the table's queued changes to the broker, in order, coalescing what piled up meanwhile (a
/// flood of 1,000 costs at most `capacity` activities).
public final class NotificationBridge: Sendable {
    public static let moduleID = "notifications"

    let bus: BusConnection
    let module: NookModule
    let settings: BridgeSettings
    let table: Locked<NotificationTable>
    let wake: AsyncStream<Void>.Continuation
    let publisher: Publisher
    let log: @Sendable (String) -> Void
    /// The notification rules in effect (RulesFile.swift).
    let rules: RulesState

    init(bus: BusConnection, module: NookModule, settings: BridgeSettings, wake: AsyncStream<Void>.Continuation, log: @escaping @Sendable (String) -> Void) {
        self.bus = bus
        self.module = module
        self.settings = settings
        self.table = Locked(NotificationTable(capacity: settings.capacity))
        self.wake = wake
        self.log = log
        self.rules = RulesState(path: settings.rulesPath, log: log)
        let store = settings.stateDirectory.map { HistoryStore(directory: $0, fileName: Self.historyFileName) }
        let dndStore = settings.stateDirectory.map { HistoryStore(directory: $0, fileName: Self.dndFileName) }
        self.publisher = Publisher(
            bus: bus, module: module, settings: settings, history: Self.loadHistory(store, capacity: settings.historyCapacity, log: log),
            historyWriter: store.map { CoalescingWriter(store: $0, log: log) },
            dnd: Self.loadDoNotDisturb(dndStore, log: log), dndWriter: dndStore.map { CoalescingWriter(store: $0, interval: .zero, log: log) },
            log: log)
    }

    /// The history file in the state directory.
    public static let historyFileName = "notifications-history.json"
    /// Do not disturb's file in the state directory.
    public static let dndFileName = "notifications-dnd.json"

    /// Do not disturb as kept in `store`; off when there is none or it is refused (moved aside, logged).
    static func loadDoNotDisturb(_ store: HistoryStore?, log: @Sendable (String) -> Void) -> DoNotDisturb {
        guard let store else { return DoNotDisturb() }
        switch store.load(DoNotDisturb.self, validate: \.problem) {
        case .none: break
        case .loaded(let state): return state
        case .corrupt(let reason, let movedTo):
            log("do not disturb's \(store.path) is refused (\(reason)); \(movedTo.map { "moved to \($0)" } ?? "it could not be moved aside"); it is off")
        case .refused(let reason):
            log("do not disturb is kept in memory only: \(reason)")
        }
        return DoNotDisturb()
    }

    /// The history kept in `store`; empty when there is none, and when the file is refused
    /// (moved aside and logged).
    static func loadHistory(_ store: HistoryStore?, capacity: Int, log: @Sendable (String) -> Void) -> NotificationHistory {
        guard let store else { return NotificationHistory(capacity: capacity) }
        switch store.load(HistoryFileContent.self, validate: \.problem) {
        case .none: return NotificationHistory(capacity: capacity)
        case .loaded(let content): return NotificationHistory(capacity: capacity, entries: content.entries)
        case .corrupt(let reason, let movedTo):
            log("the history \(store.path) is refused (\(reason)); \(movedTo.map { "moved to \($0)" } ?? "it could not be moved aside"); starting with none")
        case .refused(let reason):
            log("the history is kept in memory only: \(reason)")
        }
        return NotificationHistory(capacity: capacity)
    }

    /// Connects to the bus at `address` (nil: the session bus), registers the `notifications`
    /// module, exports the interface and takes `org.freedesktop.Notifications`.
    /// - Throws: `BridgeStartError` (with `nameTaken` when another daemon has the name).
    public static func start(
        address: String?, settings: BridgeSettings, version: String, log: @escaping @Sendable (String) -> Void
    ) async throws -> NotificationBridge {
        let bus: BusConnection
        do { bus = try await BusConnection.connect(to: address.map { .address($0) } ?? .session, description: "nook-notifications") } catch {
            throw BridgeStartError(description: "cannot connect to the bus: \(error)", nameTaken: false)
        }
        // Say who has the name before registering: a second bridge would otherwise fail
        // on the module id instead of naming the daemon that runs.
        if !settings.replace, let owner = try? await bus.nameOwner(of: NotificationsInterface.name) {
            let error = await Self.ownerError(owner, bus: bus)
            await bus.close()
            throw error
        }
        let module: NookModule
        do {
            module = try await NookModule.connect(
                NookModuleConfiguration(id: moduleID, displayName: "Notifications", version: version),
                address: address.map { .bus($0) } ?? .session, sharing: bus)
        } catch {
            await bus.close()
            throw BridgeStartError(description: "cannot register the module: \(error)", nameTaken: false)
        }
        let (stream, wake) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let bridge = NotificationBridge(bus: bus, module: module, settings: settings, wake: wake, log: log)
        let interface = NotificationsInterface.interface(
            version: version, capabilities: settings.capabilities, notify: { [weak bridge] call in try bridge?.notify(call) ?? (0, {}) },
            close: { [weak bridge] id, sender in try bridge?.closeNotification(id, sender: sender) })
        _ = try await bus.export([interface], at: NotificationsInterface.path)
        _ = try await bus.export([NookNotificationsInterface.interface(bridge: bridge)], at: NookNotificationsInterface.path)
        await bridge.rules.start()
        await bridge.publisher.armDNDTimer()
        await bridge.publisher.showDNDIndicator()
        // On the bus thread that takes `Notify` (the publisher's executor): a wake and what the
        // publisher awaits then need no other thread (docs/notifications.md, "Speed").
        Task(executorPreference: bus.executor) { await bridge.publisher.run(stream, bridge: bridge) }
        Task {
            for await event in module.events() {
                if case .activityDismissed(let activity, by: .user) = event, let id = Self.notificationID(activity) {
                    bridge.close(id, .dismissed)
                }
            }
        }
        try await bridge.takeName()
        return bridge
    }

    /// The notification id of activity `n<id>`.
    static func notificationID(_ activity: String) -> UInt32? {
        activity.hasPrefix("n") ? UInt32(activity.dropFirst()) : nil
    }

    /// `RequestName` with `ALLOW_REPLACEMENT | DO_NOT_QUEUE` (and `REPLACE_EXISTING` with
    /// `--replace`): another daemon keeps the name unless asked, and can take it back the same way.
    func takeName() async throws {
        let flags: UInt32 = 1 | 4 | (settings.replace ? 2 : 0)
        let reply = try await bus.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "RequestName",
            arguments: [.string(NotificationsInterface.name), .uint32(flags)], timeout: .seconds(10))
        switch reply.first {
        case .uint32(1)?, .uint32(4)?: return
        default:
            let owner = (try? await bus.nameOwner(of: NotificationsInterface.name)).flatMap { $0 } ?? "another connection"
            throw await Self.ownerError(owner, bus: bus)
        }
    }

    /// The error naming the daemon that owns the name: its unique name, pid and command.
    static func ownerError(_ owner: String, bus: BusConnection) async -> BridgeStartError {
        var who = owner
        if let credentials = try? await bus.credentials(of: NotificationsInterface.name) {
            let command = (try? String(contentsOfFile: "/proc/\(credentials.pid)/comm", encoding: .utf8))?
                .trimmingWhitespace
            who += " (pid \(credentials.pid)\(command.map { ", \($0)" } ?? ""))"
        }
        return BridgeStartError(
            description: "\(NotificationsInterface.name) is owned by \(who): another notification daemon is running; "
                + "stop it, or start nook-notifications with --replace to take the name",
            nameTaken: true)
    }

    /// Why the bridge stops serving without being asked to.
    public enum Departure: Sendable, Equatable {
        /// Another daemon took the name with its own `--replace`: a normal end.
        case nameTaken
        /// The bus connection went away: a failure, so a service manager restarts the bridge.
        case busLost
    }

    /// Returns when this connection no longer owns the name, or no longer has a bus.
    public func departure() async -> Departure {
        guard let changes = try? await bus.nameOwnerChanges(of: NotificationsInterface.name) else { return .busLost }
        let me = bus.uniqueName
        for await change in changes where change.newOwner != me { return .nameTaken }
        // The stream ends only when the connection closes.
        return .busLost
    }

    // MARK: The interface's methods (bus thread)

    /// `Notify`: the id (the reply) and the work after it. Only `replaces_id` is read before
    /// the reply; the request (markup, bounds, image-data) is read right after it, on this
    /// thread and before the next message, so the table is never behind the ids handed out.
    func notify(_ call: MethodCall) throws -> (UInt32, () -> Void) {
        guard call.arguments.count == 8, case .string(let appName) = call.arguments[0], case .uint32(let replacesID) = call.arguments[1] else {
            throw DBusError(.invalidArgs, "Notify: expected arguments of signature 'susssasa{sv}i'")
        }
        let synchronous = NotificationHints.synchronousValue(in: call.arguments[6])
        let id = table.withLock { $0.reserveID(replacing: replacesID, appName: appName, synchronous: synchronous) }
        return (id, { [self] in
            // The export checked the signature, so the request reads; it cannot throw here.
            guard var request = try? NotificationRequest(arguments: call.arguments, skippedByteArrays: call.skippedByteArrays) else { return }
            // The rules (docs/notifications.md "Rules"): an ignored one is never shown.
            let ignored = applyRules(to: &request, arguments: call.arguments)
            table.withLock { ignored ? $0.drop(request, as: id) : $0.notify(request, as: id, sender: call.sender) }
            wakePublisherAfterReply()
            if !request.problems.isEmpty { log("notification \(id) from \(call.sender): \(request.problems.joined(separator: "; "))") }
        })
    }

    /// `CloseNotification`: reason 3. Spec 1.2: "If the notification no longer exists, an
    /// empty D-BUS Error message is sent back": `InvalidArgs` with no text, and no signal.
    /// Only the connection that sent a notification closes it; to any other, it does not
    /// exist (docs/security.md). A person dismisses any of them through the nook.
    func closeNotification(_ id: UInt32, sender: String) throws {
        guard table.withLock({ $0.close(id, requestedBy: sender) }) else { throw Self.noSuchNotification }
        wakePublisherAfterReply()
    }

    static let noSuchNotification = DBusError(.invalidArgs, "")

    func close(_ id: UInt32, _ reason: CloseReason) {
        if table.withLock({ $0.close(id, reason) }) { wakePublisherAfterReply() }
    }

    /// Wakes the publisher once the call being handled on the bus thread has been answered
    /// (`Notify`'s reply is sent before its request is even read). A lone notification goes
    /// out at once: the publisher, idle, takes it as a batch of one. Only what arrives while
    /// a batch is being applied, or within `publishInterval` of its start, waits, and goes out
    /// together as the next batch (`Publisher.run`): the wake stream holds one wake, so calls
    /// back to back cost the publisher one wakeup a batch, not one each.
    ///
    /// (Until issue 40 the publisher was woken 1 ms after the reply, for every notification:
    /// a head start for the reply's way back to the client. A lone notification then reached
    /// the renderer's plan 6x to 11x the zero-work round trip later; docs/notifications.md, "Speed".)
    private func wakePublisherAfterReply() {
        wake.yield()
    }

    func expire(_ id: UInt32, generation: UInt64) {
        if table.withLock({ $0.expire(id, generation: generation) }) { wake.yield() }
    }

    func takePending() -> (changes: [NotificationTable.Change], closed: [UInt32: NotificationRequest]) {
        table.withLock { $0.takePendingWithClosed() }
    }

    // MARK: org.nook.Notifications1 (in a task, off the bus thread)

    /// `History()`: the closed notifications, newest first.
    func history() async -> [NotificationHistory.Entry] { await publisher.historyEntries().reversed() }

    /// `Restore()`: the newest closed notification shown again as a new one; its id, 0 when
    /// the history is empty.
    func restore() async -> UInt32 {
        guard let entry = await publisher.popNewest(), let request = try? entry.request else { return 0 }
        // Sent by no connection: no app can CloseNotification it; a person ends it, or it expires.
        let id = table.withLock { $0.notify(request, sender: "") }
        wake.yield()
        return id
    }

    func doNotDisturb() async -> DoNotDisturb { await publisher.doNotDisturb() }

    func setDoNotDisturb(_ mode: DoNotDisturb.Mode, seconds: Double?) async -> DoNotDisturb {
        await publisher.setDoNotDisturb(mode, seconds: seconds)
    }

    /// `Clear()`: forgets the history; how many entries it held.
    func clearHistory() async -> Int { await publisher.clearHistory() }

    /// A press of action `key` on notification `id`: `ActionInvoked`, then (unless the
    /// notification is resident) `NotificationClosed` reason 2.
    func invoke(_ id: UInt32, _ key: String) async {
        // A client may answer ActionInvoked at once with CloseNotification (notify-send
        // --wait does): the press ends a notification that is not resident before the signal
        // goes out, so that call finds it gone instead of closing it again (reason 3), and
        // its close (reason 2) is announced after the signal.
        let dismissed: Bool? = table.withLock { table in
            guard let entry = table.entries[id] else { return nil }
            return entry.request.resident ? false : table.withdraw(id)
        }
        guard let dismissed else { return }
        do {
            try await bus.emitSignal(
                path: NotificationsInterface.path, interface: NotificationsInterface.name, member: "ActionInvoked",
                arguments: [.uint32(id), .string(key)])
        } catch { log("cannot emit ActionInvoked: \(error)") }
        guard dismissed else { return }
        table.withLock { $0.announceClose(id, .dismissed) }
        wakePublisherAfterReply()
    }

    /// Closes every notification (reason 4, announced), ends their activities, unregisters
    /// the module and releases the name.
    public func shutDown() async {
        rules.stop()
        let ids = table.withLock { $0.order }
        for id in ids { _ = table.withLock { $0.close(id, .undefined) } }
        let (changes, closed) = takePending()
        await publisher.apply(changes, closed: closed, bridge: self)
        await publisher.flushHistory()
        _ = try? await bus.call(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "ReleaseName",
            arguments: [.string(NotificationsInterface.name)], timeout: .seconds(5))
        // The module shares the connection, and closes it.
        try? await module.unregister()
        await bus.close()
    }
}
