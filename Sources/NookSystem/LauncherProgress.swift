import NookBus
import NookModuleAPI

/// One app's `com.canonical.Unity.LauncherEntry` `Update(s app_uri, a{sv} properties)`, read
/// and bounded: `progress` d (clamped to 0...1, NaN as 0), `progress-visible` b, `count` x
/// (clamped to 0...99,999), `count-visible` b. Other keys, and values of other types, are
/// ignored; an app URI over 512 bytes or without a desktop id is refused.
public struct LauncherUpdate: Hashable, Sendable {
    /// `application://firefox.desktop` -> `firefox`.
    public var desktopID: String
    public var progress: Double?
    public var progressVisible: Bool?

    public init?(appURI: String, properties: [String: DBusValue]) {
        guard appURI.utf8.count <= 512 else { return nil }
        var id = Substring(appURI)
        if id.hasPrefix("application://") { id = id.dropFirst("application://".count) }
        if id.hasSuffix(".desktop") { id = id.dropLast(".desktop".count) }
        guard !id.isEmpty, id.utf8.count <= 255, !id.contains("/") else { return nil }
        desktopID = String(id)
        if case .double(let value)? = properties["progress"] { progress = value.isFinite ? min(max(value, 0), 1) : 0 }
        if case .bool(let visible)? = properties["progress-visible"] { progressVisible = visible }
    }

    /// The activity id for the app: its desktop id in the contract's id characters (others
    /// become `-`), at most 64 of them, after `app-`.
    public var activityID: String {
        let safe = desktopID.unicodeScalars.prefix(64).map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar))
                ? Character(scalar) : "-"
        }
        return "app-" + String(safe)
    }
}

/// Apps' progress in the nook (downloads, copies), from the `LauncherEntry` signal Unity's and
/// KDE's task managers read: an activity per app while its progress is visible, a ring filling
/// beside the notch, the app's name and a bar in the expanded view; when it is done (progress
/// hidden at the end), a peek says so and it goes; hidden before the end, or the app leaving
/// the bus, it goes at once. At most `maxApps` at a time.
public actor LauncherProgressBridge {
    public static let interface = "com.canonical.Unity.LauncherEntry"
    public static let maxApps = 16

    struct Running {
        var update: LauncherUpdate
        var progress: Double
        var sender: String
        var leaving: MatchToken?
    }

    let module: NookModule
    let bus: BusConnection
    let names: @Sendable (String) -> String?
    let log: @Sendable (String) -> Void
    private var running: [String: Running] = [:]
    private let display: ShownActivity

    init(module: NookModule, bus: BusConnection, names: @escaping @Sendable (String) -> String?, log: @escaping @Sendable (String) -> Void) {
        self.module = module
        self.bus = bus
        self.names = names
        self.log = log
        self.display = ShownActivity(module: module, log: log)
    }

    /// Listens on `bus` (the session bus) for every app's `Update`.
    /// - Parameter names: an app's name for its desktop id (its `.desktop` file's `Name`).
    public static func start(bus: BusConnection, module: NookModule, names: @escaping @Sendable (String) -> String?,
                             log: @escaping @Sendable (String) -> Void) async throws -> LauncherProgressBridge {
        let bridge = LauncherProgressBridge(module: module, bus: bus, names: names, log: log)
        _ = try await bus.addMatch(MatchRule(interface: interface, member: "Update")) { signal in
            guard signal.arguments.count == 2, case .string(let uri) = signal.arguments[0], let properties = try? Vardict(signal.arguments[1]),
                  let update = LauncherUpdate(appURI: uri, properties: properties.values) else { return }
            let sender = signal.sender
            Task { await bridge.received(update, from: sender) }
        }
        return bridge
    }

    func received(_ update: LauncherUpdate, from sender: String) async {
        let id = update.activityID
        var entry = running[id]
        if let visible = update.progressVisible, !visible {
            guard var entry else { return }
            // The last update may carry the final progress with the hiding.
            if let progress = update.progress { entry.progress = progress }
            await finish(id, entry, done: entry.progress >= 0.99)
            return
        }
        if entry == nil {
            // Only a visible progress starts one; a count or a badge alone is not an activity.
            guard update.progressVisible == true, running.count < Self.maxApps else { return }
            let token = try? await bus.trackPeer(sender) { Task { await self.left(sender) } }
            entry = Running(update: update, progress: update.progress ?? 0, sender: sender, leaving: token)
        }
        if let progress = update.progress { entry!.progress = progress }
        running[id] = entry
        let activity = view(entry!, done: false).activity
        do {
            if await module.activities.contains(where: { $0.id == id }) {
                try await module.update(activity)
            } else {
                try await module.start(activity)
            }
        } catch {
            log("cannot show \(update.desktopID)'s progress: \(error)")
        }
    }

    func view(_ entry: Running, done: Bool) -> LevelDisplay {
        let name = names(entry.update.desktopID) ?? entry.update.desktopID
        return LevelDisplay(id: entry.update.activityID, symbol: done ? "emblem-ok-symbolic" : "folder-download-symbolic",
                            title: done ? "\(name): done" : name, level: done ? 1 : entry.progress, tint: nil, relevance: 600, opens: true,
                            ring: !done)
    }

    private func finish(_ id: String, _ entry: Running, done: Bool) async {
        running[id] = nil
        if let token = entry.leaving { await bus.removeMatch(token) }
        if done {
            log("\(entry.update.desktopID): done")
            await display.show(view(entry, done: true).activity, peekFor: .seconds(3), endAfter: .seconds(3))
        } else {
            _ = try? await module.end(activityID: id, dismissal: .immediate)
        }
    }

    private func left(_ sender: String) async {
        for (id, entry) in running where entry.sender == sender {
            running[id] = nil
            _ = try? await module.end(activityID: id, dismissal: .immediate)
        }
    }
}
