import Foundation
import NookBus
import NookCore
import NookTestSupport
import Synchronization
import Testing

/// Examples/python against the real nookd, so they cannot rot: each is run as its user would
/// run it (Debian's python3 with python3-dbus), sending plain Python ints and floats, and a
/// subscribed renderer must receive plans showing its activity.
@Suite(.serialized) struct PythonExamplesTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples/python")

    static let display: [String: PropValue] = ["width": .double(1512), "height": .double(982), "notch_width": .double(200),
                                               "notch_height": .double(32), "refresh_rate": .double(60)]

    func example(_ name: String, _ arguments: [String], bus: PrivateBus, logs: URL, environment: [String: String?] = [:]) throws -> PackageProcess {
        try PackageProcess("/usr/bin/python3", ["-u", Self.examples.appendingPathComponent(name).path, "--address", bus.address] + arguments,
                           logDirectory: logs, environment: environment)
    }

    /// Issue 39: countdown.py finishes the way `nookctl` timers do. At zero its views say
    /// "Done", the nook peeks at it, the sound theme's `complete` plays through
    /// `canberra-gtk-play` (a stand-in on `PATH` that writes its arguments to a file), and the
    /// activity stays `--done-seconds` before it ends by itself; the example then exits 0.
    @Test func theCountdownAtZeroSaysDonePeeksPlaysCompleteAndEndsAfterItsDoneTime() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let bin = temp.url.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let played = temp.url.appendingPathComponent("played.txt")
        let player = bin.appendingPathComponent("canberra-gtk-play")
        try ExecutableScript.write("#!/bin/sh\necho \"$@\" >> '\(played.path)'\n", to: player)
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let renderer = try await PlanRecorder.subscribe(bus, display: Self.display)
            let observer = try await BrokerClient.connect(bus)
            let countdown = try example("countdown.py", ["--seconds", "2", "--title", "Tea", "--done-seconds", "40"], bus: bus, logs: temp.url,
                                        environment: ["PATH": "\(bin.path):/usr/bin:/bin"])
            // At zero: a peek showing "Done".
            #expect(await eventually { renderer.received.contains { $0.to == "peek" && $0.texts.contains("Done") } },
                    "no peek showed Done: \(countdown.log)\n\(renderer.received.map { "\($0.to) \($0.texts)" })")
            #expect(await eventually { countdown.log.contains("done") }, "\(countdown.log)")
            // Still live, labelled done: it did not end at zero.
            let state = try await observer.state()
            #expect(try await observer.activities() == ["pytimer/countdown"], "\(countdown.log)")
            #expect("\(state)".contains("Tea, done"), "\(state)")
            // The sound theme's `complete`.
            #expect(await eventually { ((try? String(contentsOf: played, encoding: .utf8)) ?? "").contains("-i complete") },
                    "the sound player never ran: \(countdown.log)")
            // Then it ends by itself after its done time, and the example exits 0. (40 s of done
            // time: at load 14 the checks above outlasted 6 s, and the activity had gone.)
            #expect(await eventually(timeout: .seconds(150)) { (try? await observer.activities()) == [] }, "\(countdown.log)")
            #expect(await countdown.waitForExit(timeout: .seconds(60)), "\(countdown.log)")
            #expect(countdown.exitStatus == 0, "\(countdown.log)")
            #expect(countdown.log.contains("time is up"), "\(countdown.log)")
            #expect(nookd.log.contains("InvalidView") == false)
            await renderer.close()
            await observer.close()
            await nookd.stop()
        }
    }

    @Test func theCountdownShowsUntilStoppedThenEnds() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let renderer = try await PlanRecorder.subscribe(bus, display: Self.display)
            let scenes = try await SceneNodes.subscribe(bus, display: Self.display)
            let observer = try await BrokerClient.connect(bus)
            let countdown = try example("countdown.py", ["--seconds", "600", "--title", "Tea"], bus: bus, logs: temp.url)
            // The pill shows the countdown the renderer runs from `timer_end`.
            let shown = await eventually { scenes.nodes(owner: "pytimer/countdown").contains { $0["timer_end"] != nil } }
            #expect(shown, "no plan showed the countdown: \(countdown.log)\n\(nookd.log.suffix(2000))")
            #expect(try await observer.activities() == ["pytimer/countdown"])
            // Its peek, with the title, reaches the renderer too.
            try await observer.call("Peek", [.string("pytimer"), .string("countdown")], interface: "org.nook.Nook1.Control")
            #expect(await eventually { renderer.first(showing: "Tea") != nil }, "\(renderer.received.map(\.texts))")
            #expect(nookd.log.contains("InvalidView") == false)

            // SIGTERM: the example ends its activity itself and exits 0.
            #expect(await countdown.stop(SIGTERM) == 0, "\(countdown.log)")
            #expect(countdown.log.contains("stopped"))
            #expect(await eventually { (try? await observer.activities()) == [] })
            #expect(await eventually { renderer.received.contains { $0.cause == "activity_ended" } })
            await renderer.close()
            await scenes.close()
            await observer.close()
            await nookd.stop()
        }
    }

    @Test func nowBuildingReportsEveryStepThenEnds() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let renderer = try await SceneNodes.subscribe(bus, display: Self.display)
            let build = try example("now_building.py", ["--steps", "4", "--interval", "0.3", "--linger", "2"], bus: bus, logs: temp.url)
            #expect(await build.waitForExit(timeout: .seconds(60)))
            #expect(build.exitStatus == 0, "\(build.log)\n\(nookd.log.suffix(2000))")
            #expect(build.log.hasSuffix("built\n"), "\(build.log)")
            // The ring right of the notch: coalescing may merge steps, but the finished build (1.0,
            // a plain float) stays on screen for its linger and the end always arrives.
            let values: @Sendable () -> [DBusValue] = { renderer.nodes(owner: "pybuild/build").filter { $0["kind"] == .string("progress") }.compactMap { $0["value"] } }
            #expect(await eventually { values().contains(.double(1)) }, "\(values())")
            #expect(await eventually { renderer.causes.contains("activity_started") && renderer.causes.last == "activity_ended" }, "\(renderer.causes)")
            #expect(nookd.log.contains("InvalidView") == false)
            await renderer.close()
            await nookd.stop()
        }
    }
}

/// A renderer that keeps every scene node it is sent (as the node's `a{sv}` keys), by owner.
final class SceneNodes: Sendable {
    let connection: BusConnection
    private let received = Locked<(nodes: [[String: DBusValue]], causes: [String])>(([], []))

    private init(connection: BusConnection) { self.connection = connection }

    static func subscribe(_ bus: PrivateBus, display: [String: PropValue]) async throws -> SceneNodes {
        let connection = try await BusConnection.connect(to: .address(bus.address))
        let scenes = SceneNodes(connection: connection)
        _ = try await connection.addMatch(MatchRule(path: "/org/nook/Nook1", interface: "org.nook.Nook1.Render", member: "Plan")) {
            [scenes] signal in scenes.record(signal.arguments.first)
        }
        let reply = try await connection.call(destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: "org.nook.Nook1.Render",
                                              member: "Subscribe", arguments: [WireCodec.vardict(display)], timeout: .seconds(20))
        scenes.record(reply.last)
        return scenes
    }

    private func record(_ plan: DBusValue?) {
        guard let plan, let fields = try? Vardict(plan) else { return }
        var nodes: [[String: DBusValue]] = []
        if let scene = fields["scene"], let sceneFields = try? Vardict(scene), case .array(_, let items)? = sceneFields["nodes"]?.unwrappingVariants {
            for item in items {
                guard case .dictionary(_, _, let entries) = item.unwrappingVariants else { continue }
                var node: [String: DBusValue] = [:]
                for entry in entries { if case .string(let key) = entry.key { node[key] = entry.value.unwrappingVariants } }
                nodes.append(node)
            }
        }
        let cause = { if case .string(let c)? = fields["cause"]?.unwrappingVariants { c } else { "" } }()
        received.withLock { $0.nodes += nodes; $0.causes.append(cause) }
    }

    /// Every node of `owner` (`module/activity`) in any scene received so far.
    func nodes(owner: String) -> [[String: DBusValue]] {
        received.withLock { $0.nodes.filter { $0["owner"] == .string(owner) } }
    }

    var causes: [String] { received.withLock { $0.causes } }

    func close() async { await connection.close() }
}
