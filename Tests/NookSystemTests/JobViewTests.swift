import Foundation
import NookBus
import NookCore
import NookSystem
import NookTestSupport
import Synchronization
import Testing

/// Issue 43, part 1, for KDE apps: they report jobs to a job view server (`org.kde.JobViewServer`),
/// not with `LauncherEntry`. The job's values read and bounded (pure), and the real nook-system
/// serving the protocol to a client that speaks it as KIO does (the test, on its own
/// connection) and to one written in python3-dbus with the first protocol's calls.
@Suite struct KDEJobTests {
    @Test func updatesAreReadAndBounded() {
        var job = KDEJob(application: "  Files  ")
        #expect(job.application == "Files" && job.label == "Files")
        job.apply(["title": .string("Copying"), "percent": .uint32(40), "infoMessage": .int32(3)])
        #expect(job.label == "Files: Copying" && job.progress == 0.4 && job.infoMessage == nil)
        job.apply(["percent": .uint32(4_000_000_000)])
        #expect(job.progress == 1)
        job.apply(["percent": .double(.nan)])
        #expect(job.progress == 1, "a NaN is no number: ignored")
        job.apply(["processedBytes": .uint64(1), "totalBytes": .uint64(4)])
        #expect(job.progress == 0.25)
        job.apply(["processedBytes": .uint64(1_000_001), "totalBytes": .uint64(4_000_000)])
        #expect(job.progress == 0.25, "whole percents: a byte more is no change")
        job.apply(["processedBytes": .uint64(1), "totalBytes": .uint64(0)])
        #expect(job.progress == 0.25, "no total: no percent")
        job.apply(["title": .string(String(repeating: "x", count: 5000))])
        #expect(job.title?.count == 200)
        #expect(KDEJob(application: " ").application == "An app")
    }
}

@Suite(.serialized) struct JobViewTests {
    static let server = "org.kde.JobViewServer"

    /// nookd, and nook-system with only its progress bridges, once it serves the job views.
    static func serving(_ bus: PrivateBus, _ temp: TemporaryDirectory) async throws -> (NookdProcess, PackageProcess) {
        let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
        let system = try PackageProcess("nook-system", ["--address", bus.address, "--no-power", "--no-brightness", "--no-volume", "--no-privacy"],
                                        logDirectory: temp.url)
        #expect(await eventually { system.log.contains("serving KDE apps' jobs (org.kde.JobViewServer)") }, "\(system.log)")
        return (nookd, system)
    }

    static func requestView(_ client: BusConnection, desktop: String, hints: [String: DBusValue]) async throws -> ObjectPath {
        let reply = try await client.call(destination: server, path: "/JobViewServer", interface: "org.kde.JobViewServerV2", member: "requestView",
                                          arguments: [.string(desktop), .int32(3), .vardict(hints)])
        guard case .objectPath(let path)? = reply.first else { throw TestSupportError("requestView: \(reply)") }
        return path
    }

    static func update(_ client: BusConnection, _ path: ObjectPath, _ data: [String: DBusValue]) async throws {
        _ = try await client.call(destination: server, path: path, interface: "org.kde.JobViewV3", member: "update", arguments: [.vardict(data)])
    }

    static func terminate(_ client: BusConnection, _ path: ObjectPath, code: UInt32, message: String) async throws {
        _ = try await client.call(destination: server, path: path, interface: "org.kde.JobViewV3", member: "terminate",
                                  arguments: [.uint32(code), .string(message), .vardict([String: DBusValue]())])
    }

    @Test func aKDEAppsJobIsARingUntilItEndsDoneFailedCancelledOrItsAppGone() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let (nookd, system) = try await Self.serving(bus, temp)
            let kio = try await BusConnection.connect(to: .address(bus.address))
            let stranger = try await BusConnection.connect(to: .address(bus.address))

            // What KIO asks first: no progress windows of its own needed; the second protocol served.
            let required = try await kio.call(destination: "org.kde.kuiserver", path: "/JobViewServer", interface: "org.kde.kuiserver", member: "requiresJobTracker")
            #expect(required == [.bool(false)])
            let introspection = try await kio.call(destination: "org.kde.kuiserver", path: "/JobViewServer",
                                                   interface: "org.freedesktop.DBus.Introspectable", member: "Introspect")
            #expect("\(introspection)".contains("org.kde.JobViewServerV2"))

            // A copy: a ring from the request, following the updates.
            let copy = try await Self.requestView(kio, desktop: "org.example.Files", hints: ["title": .string("Copying"), "percent": .uint32(10)])
            #expect(await eventually { occurrences(of: "scene: activity_started progress/job-1", in: nookd.log) == 1 }, "\(system.log)\n\(nookd.log)")
            try await Self.update(kio, copy, ["percent": .uint32(40)])
            #expect(await eventually { nookd.storedActivities(of: "progress")["job-1"]?.contains("org.example.Files: Copying, 40%") == true },
                    "\(nookd.storedActivities(of: "progress"))")
            // Only its app changes it.
            await #expect(throws: DBusError.self) { try await Self.update(stranger, copy, ["percent": .uint32(90)]) }
            // Done: a peek says so, and it goes.
            try await Self.terminate(kio, copy, code: 0, message: "")
            #expect(await eventually { system.log.contains("org.example.Files: done") }, "\(system.log)")
            #expect(await eventually { occurrences(of: "scene: activity_ended progress/job-1", in: nookd.log) == 1 }, "\(nookd.log)")

            // Failed: named in the peek. Cancelled (KJob's KilledJobError): gone at once.
            let full = try await Self.requestView(kio, desktop: "org.example.Files", hints: [:])
            try await Self.terminate(kio, full, code: 100, message: "The disk is full")
            #expect(await eventually { system.log.contains("org.example.Files: The disk is full") }, "\(system.log)")
            let cancelled = try await Self.requestView(kio, desktop: "org.example.Files", hints: [:])
            #expect(await eventually { occurrences(of: "scene: activity_started progress/job-3", in: nookd.log) == 1 }, "\(nookd.log)")
            // "Cancel" in the nook (the job is killable: capabilities 3) asks its app, which ends it.
            let asked = Mutex(0)
            _ = try await kio.addMatch(MatchRule(sender: Self.server, path: cancelled, interface: "org.kde.JobViewV3", member: "cancelRequested")) { _ in
                asked.withLock { $0 += 1 }
            }
            try await NookControlProxy(stranger).invoke(module: "progress", activity: "job-3", action: "cancel", options: [:])
            #expect(await eventually { asked.withLock { $0 } == 1 }, "no cancelRequested: \(system.log)")
            try await Self.terminate(kio, cancelled, code: 1, message: "")
            #expect(await eventually { occurrences(of: "scene: activity_ended progress/job-3", in: nookd.log) == 1 }, "\(nookd.log)")

            // The first protocol, from python3-dbus: its app leaving the bus ends the job.
            let render = try pythonService(bus.address, owning: "org.nook.Test.Render", """
                server = bus.get_object("org.kde.JobViewServer", "/JobViewServer")
                path = dbus.Interface(server, "org.kde.JobViewServer").requestView("Kdenlive", "kdenlive", 0)
                view = dbus.Interface(bus.get_object("org.kde.JobViewServer", path), "org.kde.JobViewV2")
                view.setInfoMessage("Rendering")
                view.setPercent(dbus.UInt32(70))
                """)
            defer { render.kill() }
            #expect(await eventually { nookd.storedActivities(of: "progress")["job-4"]?.contains("Kdenlive: Rendering, 70%") == true },
                    "\(system.log)\n\(nookd.storedActivities(of: "progress"))")
            render.kill()
            #expect(await eventually { occurrences(of: "scene: activity_ended progress/job-4", in: nookd.log) == 1 }, "\(nookd.log)")

            // Two jobs done within the same three seconds: each done peek goes by itself.
            for _ in 0..<2 {
                try await Self.terminate(kio, try await Self.requestView(kio, desktop: "org.example.Files", hints: [:]), code: 0, message: "")
            }
            #expect(await eventually { occurrences(of: "scene: activity_ended progress/job-5", in: nookd.log) == 1
                                       && occurrences(of: "scene: activity_ended progress/job-6", in: nookd.log) == 1 }, "\(nookd.log)")

            #expect(await system.stop() == 0, "\(system.log)")
            await kio.close()
            await stranger.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }

    /// A real KDE client: kioclient5 (KIO 5) copying from a FIFO nobody writes, so the job stays
    /// under way: KIO introspects the server, asks for a view through `JobViewServerV2` (half a
    /// second into the job) and updates it; killed, its job goes with it.
    @Test func kioclientsCopyIsShownUntilItsAppGoes() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let (nookd, system) = try await Self.serving(bus, temp)
            let fifo = temp.url.appendingPathComponent("source")
            #expect(mkfifo(fifo.path, 0o600) == 0)
            let destination = temp.url.appendingPathComponent("copy")
            let kioclient = try PackageProcess(
                "/usr/bin/kioclient5", ["--interactive", "copy", fifo.absoluteString, destination.absoluteString], logDirectory: temp.url,
                environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "QT_QPA_PLATFORM": "offscreen", "XDG_RUNTIME_DIR": temp.url.path])
            defer { kioclient.signal(SIGKILL) }
            #expect(await eventually { occurrences(of: "scene: activity_started progress/job-1", in: nookd.log) == 1 }, "\(system.log)\n\(kioclient.log)")
            #expect(system.log.contains("org.kde.kioclient started a job"), "\(system.log)")
            _ = await kioclient.stop(SIGKILL)
            #expect(await eventually { occurrences(of: "scene: activity_ended progress/job-1", in: nookd.log) == 1 }, "\(nookd.log)")
            #expect(await system.stop() == 0, "\(system.log)")
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }

    @Test func plasmaServingTheJobsLeavesThemToIt() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let plasma = try await BusConnection.connect(to: .address(bus.address))
            try await plasma.requestName(Self.server)
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let system = try PackageProcess("nook-system", ["--address", bus.address, "--no-power", "--no-brightness", "--no-volume", "--no-privacy"],
                                            logDirectory: temp.url)
            #expect(await eventually { system.log.contains("org.kde.JobViewServer has another owner") }, "\(system.log)")
            #expect(try await plasma.nameOwner(of: "org.kde.kuiserver") == nil, "nook-system took none of the names")
            #expect(await system.stop() == 0, "\(system.log)")
            await plasma.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }
}
