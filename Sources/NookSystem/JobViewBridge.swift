import NookBus
import NookModuleAPI

/// KDE apps' jobs in the nook (a Dolphin copy, a KIO download), through the job view protocol
/// Plasma serves: KDE apps do not send `LauncherEntry`; KIO asks `org.kde.kuiserver`'s
/// `requiresJobTracker`, introspects `/JobViewServer` for `org.kde.JobViewServerV2`, and reports
/// each job to `org.kde.JobViewServer` (docs/system/progress.md, "KDE apps' jobs"). Nook serves that
/// protocol only when no one else does (Plasma's shell owns the names in a Plasma session), as a
/// job view server: what it is, not a pretence.
///
/// A job is an activity of the `progress` module (`job-N`) from its view's request until it
/// ends: a ring beside the notch, the app's name and what the job does; done, a peek says so and
/// it goes after 3 s; failed, a peek in red names the error; cancelled, or its app leaving the
/// bus, it goes at once. At most `maxJobs` at a time; more are refused (`LimitsExceeded`).
public actor JobViewBridge {
    public static let serverName = "org.kde.JobViewServer"
    public static let kuiserverName = "org.kde.kuiserver"
    public static let serverPath: ObjectPath = "/JobViewServer"
    public static let maxJobs = 32
    /// KJob's `KilledJobError`: the user cancelled it.
    static let killedJobError: UInt32 = 1

    struct Running {
        var job: KDEJob
        var owner: String
        var export: ExportToken?
        var leaving: MatchToken?
    }

    let module: NookModule
    let bus: BusConnection
    let names: @Sendable (String) -> String?
    let log: @Sendable (String) -> Void
    private let display: ShownActivity
    private var running: [UInt32: Running] = [:]
    private var nextID: UInt32 = 1

    init(module: NookModule, bus: BusConnection, names: @escaping @Sendable (String) -> String?, log: @escaping @Sendable (String) -> Void) {
        self.module = module
        self.bus = bus
        self.names = names
        self.log = log
        display = ShownActivity(module: module, log: log)
    }

    /// Serves the protocol on `bus` (the session bus), or returns nil, saying so, when another
    /// job view server (Plasma) owns its names.
    /// - Parameter names: an app's name for its desktop id (its `.desktop` file's `Name`).
    public static func start(bus: BusConnection, module: NookModule, names: @escaping @Sendable (String) -> String?,
                             log: @escaping @Sendable (String) -> Void) async throws -> JobViewBridge? {
        let bridge = JobViewBridge(module: module, bus: bus, names: names, log: log)
        try await bus.export(bridge.serverInterfaces, at: serverPath)
        let presses = module.actionEvents()
        Task {
            for await press in presses where press.action == LevelDisplay.cancelAction { await bridge.cancel(activity: press.activity) }
        }
        do {
            try await bus.requestName(serverName)
            try await bus.requestName(kuiserverName)
        } catch BusError.nameTaken(let name) {
            log("\(name) has another owner (Plasma's shell, in a Plasma session): it shows KDE apps' jobs")
            _ = try? await bus.releaseName(serverName)
            return nil
        }
        log("serving KDE apps' jobs (\(serverName))")
        return bridge
    }

    static func arg(_ name: String, _ signature: Signature) -> DBusArgument { DBusArgument(name, signature) }

    nonisolated var serverInterfaces: [DBusInterface] {
        [
            DBusInterface(Self.kuiserverName, methods: [
                // Nook shows the jobs itself: KIO need not open its own progress windows.
                DBusMethod("requiresJobTracker", out: [Self.arg("required", "b")]) { _ in [.bool(false)] },
            ]),
            DBusInterface(Self.serverName, methods: [
                DBusMethod("requestView", in: [Self.arg("appName", "s"), Self.arg("appIconName", "s"), Self.arg("capabilities", "i")],
                           out: [Self.arg("jobView", "o")], deferred: { call in
                    let appName: String = try call.argument(0)
                    let capabilities: Int32 = try call.argument(2)
                    return [.objectPath(try await self.requestView(application: appName, desktopID: nil, capabilities: capabilities, hints: [:],
                                                                   from: call.sender))]
                }),
            ]),
            DBusInterface("org.kde.JobViewServerV2", methods: [
                DBusMethod("requestView", in: [Self.arg("desktopEntry", "s"), Self.arg("capabilities", "i"), Self.arg("hints", "a{sv}")],
                           out: [Self.arg("jobView", "o")], deferred: { call in
                    let desktopEntry: String = try call.argument(0)
                    let capabilities: Int32 = try call.argument(1)
                    let hints = (try? Vardict(call.arguments[2]))?.values ?? [:]
                    return [.objectPath(try await self.requestView(application: nil, desktopID: desktopEntry, capabilities: capabilities, hints: hints,
                                                                   from: call.sender))]
                }),
            ]),
        ]
    }

    /// A job view's object: `JobViewV3` (from `JobViewServerV2`) and `JobViewV2` (from the
    /// first server interface) both, so either client finds its methods.
    nonisolated func viewInterfaces(_ id: UInt32) -> [DBusInterface] {
        let signals = [DBusSignal("cancelRequested"), DBusSignal("suspendRequested"), DBusSignal("resumeRequested")]
        func set(_ name: String, _ arguments: [DBusArgument], out: [DBusArgument] = [], _ change: @escaping @Sendable (inout KDEJob, MethodCall) throws -> Void) -> DBusMethod {
            DBusMethod(name, in: arguments, out: out, deferred: { call in
                try await self.change(id, from: call.sender) { job in try change(&job, call) }
                return out.isEmpty ? [] : [.bool(true)]
            })
        }
        return [
            DBusInterface("org.kde.JobViewV3", methods: [
                set("update", [Self.arg("data", "a{sv}")]) { job, call in job.apply((try? Vardict(call.arguments[0]))?.values ?? [:]) },
                DBusMethod("terminate", in: [Self.arg("errorCode", "u"), Self.arg("errorMessage", "s"), Self.arg("hints", "a{sv}")], deferred: { call in
                    await self.terminate(id, error: try call.argument(0), message: try call.argument(1), from: call.sender)
                    return []
                }),
            ], signals: signals),
            DBusInterface("org.kde.JobViewV2", methods: [
                set("setPercent", [Self.arg("percent", "u")]) { job, call in job.setPercent(Double(try call.argument(0, as: UInt32.self))) },
                set("setInfoMessage", [Self.arg("message", "s")]) { job, call in job.infoMessage = KDEJob.bounded(try call.argument(0)) },
                set("setSuspended", [Self.arg("suspended", "b")]) { job, call in job.suspended = try call.argument(0) },
                set("setDescriptionField", [Self.arg("number", "u"), Self.arg("name", "s"), Self.arg("value", "s")], out: [Self.arg("set", "b")]) { _, _ in },
                set("clearDescriptionField", [Self.arg("number", "u")]) { _, _ in },
                set("setTotalAmount", [Self.arg("amount", "t"), Self.arg("unit", "s")]) { _, _ in },
                set("setProcessedAmount", [Self.arg("amount", "t"), Self.arg("unit", "s")]) { _, _ in },
                set("setSpeed", [Self.arg("bytesPerSecond", "t")]) { _, _ in },
                set("setDestUrl", [Self.arg("destUrl", "v")]) { _, _ in },
                set("setError", [Self.arg("errorCode", "u")]) { _, _ in },
                DBusMethod("terminate", in: [Self.arg("errorMessage", "s")], deferred: { call in
                    let message: String = try call.argument(0)
                    await self.terminate(id, error: message.isEmpty ? 0 : 2, message: message, from: call.sender)
                    return []
                }),
            ], signals: signals),
        ]
    }

    // Digits only after a valid prefix: always a valid path.
    static func viewPath(_ id: UInt32) -> ObjectPath { (try? ObjectPath("/JobViewServer/JobView_\(id)")) ?? serverPath }
    static func activityID(_ id: UInt32) -> String { "job-\(id)" }

    /// KJob's `Killable` capability bit.
    static let killable: Int32 = 1

    func requestView(application: String?, desktopID: String?, capabilities: Int32, hints: [String: DBusValue], from sender: String) async throws -> ObjectPath {
        guard running.count < Self.maxJobs else {
            throw DBusError(.limitsExceeded, "at most \(Self.maxJobs) jobs are shown at a time")
        }
        let id = nextID
        nextID = nextID == UInt32.max ? 1 : nextID + 1
        let desktop = desktopID.flatMap { $0.utf8.count <= 255 && !$0.contains("/") ? $0 : nil }
        var job = KDEJob(application: desktop.flatMap(names) ?? application ?? desktop ?? "An app")
        job.apply(hints)
        job.killable = capabilities & Self.killable != 0
        let export = try await bus.export(viewInterfaces(id), at: Self.viewPath(id))
        let leaving = try? await bus.trackPeer(sender) { Task { await self.left(sender) } }
        running[id] = Running(job: job, owner: sender, export: export, leaving: leaving)
        log("\(job.application) started a job")
        await show(id)
        return Self.viewPath(id)
    }

    /// A change from the job's own app; calls from anyone else are refused.
    func change(_ id: UInt32, from sender: String, _ body: (inout KDEJob) throws -> Void) async throws {
        guard var entry = running[id], entry.owner == sender else { throw DBusError(.accessDenied, "job view \(id) is not yours") }
        let before = entry.job
        try body(&entry.job)
        running[id] = entry
        if entry.job != before { await show(id) }
    }

    private func show(_ id: UInt32) async {
        guard let job = running[id]?.job else { return }
        let activity = LevelDisplay(id: Self.activityID(id), symbol: "folder-download-symbolic", title: job.label, level: job.progress ?? 0,
                                    tint: nil, relevance: 600, opens: true, ring: true, cancellable: job.killable).activity
        do {
            if await module.activities.contains(where: { $0.id == activity.id }) {
                try await module.update(activity)
            } else {
                try await module.start(activity)
            }
        } catch {
            log("cannot show \(job.application)'s job: \(error)")
        }
    }

    /// "Cancel" pressed on a job's view: its app is asked to stop it (`cancelRequested`, on both
    /// view interfaces: each protocol's clients listen on their own); the job ends when the app
    /// says so (`terminate`).
    func cancel(activity: String) async {
        guard let id = running.keys.first(where: { Self.activityID($0) == activity }), running[id]?.job.killable == true else { return }
        log("asking \(running[id]!.job.application) to cancel its job")
        for interface in ["org.kde.JobViewV3", "org.kde.JobViewV2"] {
            try? await bus.emitSignal(path: Self.viewPath(id), interface: interface, member: "cancelRequested")
        }
    }

    func terminate(_ id: UInt32, error: UInt32, message: String, from sender: String) async {
        guard let entry = running[id], entry.owner == sender else { return }
        await end(id)
        let job = entry.job
        switch error {
        case 0:
            log("\(job.application): done")
            let done = LevelDisplay(id: Self.activityID(id), symbol: "emblem-ok-symbolic", title: "\(job.application): done", level: 1,
                                    tint: nil, relevance: 600, opens: true)
            await display.show(done.activity, peekFor: .seconds(3), endAfter: .seconds(3))
        case Self.killedJobError:
            _ = try? await module.end(activityID: Self.activityID(id), dismissal: .immediate)
        default:
            let reason = KDEJob.bounded(message) ?? "failed"
            log("\(job.application): \(reason)")
            let failed = LevelDisplay(id: Self.activityID(id), symbol: "dialog-error-symbolic", title: "\(job.application): \(reason)",
                                      level: job.progress ?? 0, tint: .red, relevance: 600, opens: true)
            await display.show(failed.activity, peekFor: .seconds(4), endAfter: .seconds(4))
        }
    }

    /// Forgets the job and its object.
    private func end(_ id: UInt32) async {
        guard let entry = running.removeValue(forKey: id) else { return }
        if let export = entry.export { await bus.unexport(export) }
        if let leaving = entry.leaving { await bus.removeMatch(leaving) }
    }

    private func left(_ sender: String) async {
        for (id, entry) in running where entry.owner == sender {
            await end(id)
            _ = try? await module.end(activityID: Self.activityID(id), dismissal: .immediate)
        }
    }
}
