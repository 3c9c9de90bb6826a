import Foundation
import Testing
import NookBus
import NookCore
import NookTestSupport

/// The real `nookd` on a private bus, driven by real clients: BusConnections from the test
/// and python3-dbus processes (Debian's, on libdbus-1: no code shared with us).
@Suite(.serialized) struct BrokerIntegrationTests {
    static func text(_ text: String, shared: String? = nil) -> RawNode {
        var props: [String: PropValue] = ["text": .string(text)]
        if let shared { props["shared"] = .dictionary(["id": .string(shared)]) }
        return RawNode(kind: "text", props: props)
    }

    static func spec(label: String = "Now playing", relevance: Double = 0, sequence: UInt64? = nil) -> [String: PropValue] {
        var spec: [String: PropValue] = [
            "accessibility_label": .string(label),
            "compact_leading": .node(text("L", shared: "cover")), "compact_trailing": .node(text("T")),
            "minimal": .node(text("M")), "relevance": .double(relevance),
        ]
        if let sequence { spec["sequence"] = .uint(sequence) }
        return spec
    }

    /// A module written in Python: registers `module`, starts `activity`, prints its unique
    /// name, then waits to be killed.
    static func pythonModule(bus: PrivateBus, module: String, activity: String) throws -> (HelperProcess, String) {
        let helper = try HelperProcess("/usr/bin/python3", ["-c", """
            import dbus, time
            bus = dbus.bus.BusConnection("\(bus.address)")
            nook = bus.get_object("org.nook.Nook1", "/org/nook/Nook1")
            modules = dbus.Interface(nook, "org.nook.Nook1.Modules")
            def node(kind, props):
                return dbus.Struct((kind, dbus.Dictionary(props, signature="sv"), dbus.Array([], signature="v")), signature="sa{sv}av")
            modules.Register("\(module)", dbus.Dictionary({"display_name": "Py"}, signature="sv"))
            modules.StartActivity("\(activity)", dbus.Dictionary({
                "accessibility_label": "Timer",
                "compact_leading": node("text", {"text": "T"}),
                "compact_trailing": node("text", {"text": "3:00", "timer_end": dbus.Int64(1800000000000000)}),
                "minimal": node("image", {"symbol": "timer"}),
                "relevance": 2.0, "sequence": dbus.UInt64(1)}, signature="sv"))
            print(bus.get_unique_name(), flush=True)
            time.sleep(3600)
            """])
        guard let name = helper.readLine(), name.hasPrefix(":") else { throw TestSupportError("the python module did not start") }
        return (helper, name)
    }

    @Test func registerStartUpdateEnd() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let music = try await BrokerClient.connect(bus)
            try await music.register("music", info: ["display_name": .string("Music"), "version": .string("1.0")])
            try await music.start("song", Self.spec(relevance: 1))
            #expect(try await music.activities() == ["music/song"])
            let state = try await music.state()
            #expect(state["presentation"] == .string("pill") && state["module"] == .string("music") && state["activity"] == .string("song"))
            try await music.start("other", Self.spec(relevance: 5))
            #expect(try await music.activities() == ["music/other", "music/song"])
            try await music.update("song", ["relevance": .double(9), "minimal": .node(Self.text("M2"))])
            #expect(try await music.activities() == ["music/song", "music/other"])
            try await music.end("other", ["dismissal": .string("immediate")])
            try await music.end("song")
            #expect(try await music.activities().isEmpty)
            #expect(try await music.state()["presentation"] == .string("hidden"))
            // Module-level content, and Unregister.
            try await music.call("SetContent", [.string("compact_leading"), Self.text("♪").wireValue])
            #expect(try await music.state()["module"] == .string("music"))
            try await music.call("ClearContent", [.string("compact_leading")])
            try await music.start("song", Self.spec())
            try await music.call("Unregister")
            #expect(try await music.activities().isEmpty)
            _ = await expectDBusError(.notRegistered, containing: music.name) { try await music.start("song", Self.spec()) }
            await music.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }

    @Test func errorsNameWhatWasWrong() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let music = try await BrokerClient.connect(bus)
            let other = try await BrokerClient.connect(bus)
            try await music.register("music")
            try await music.start("song", Self.spec())
            // A second live connection cannot take the id, nor touch the module.
            _ = await expectDBusError(.moduleTaken, containing: "\"music\"") { try await other.register("music") }
            _ = await expectDBusError(.accessDenied, containing: "\"music\"") {
                try await other.update("song", ["module": .string("music"), "relevance": .double(3)])
            }
            _ = await expectDBusError(.notRegistered, containing: other.name) { try await other.end("song") }
            _ = await expectDBusError(.invalidId, containing: "\"bad id!\"") { try await other.register("bad id!") }
            _ = await expectDBusError(.invalidId, containing: "\"no/slash\"") { try await music.start("no/slash", Self.spec()) }
            _ = await expectDBusError(.activityExists, containing: "\"song\"") { try await music.start("song", Self.spec()) }
            _ = await expectDBusError(.unknownActivity, containing: "\"ghost\"") { try await music.end("ghost") }
            _ = await expectDBusError(.unknownModule, containing: "\"radio\"") { try await music.end("song", ["module": .string("radio")]) }
            _ = await expectDBusError(.invalidArgs, containing: "'minimal'") {
                var spec = Self.spec()
                spec["minimal"] = nil
                try await music.start("clock", spec)
            }
            _ = await expectDBusError(.invalidArgs, containing: "'relevance'") { try await music.update("song", ["relevance": .string("high")]) }
            // A view whose shared mark carries an integer id: the path says exactly where.
            var bad = Self.spec()
            bad["compact_leading"] = .node(RawNode(kind: "hstack", children: [
                RawNode(kind: "image", props: ["shared": .dictionary(["id": .int(7)])]),
            ]))
            _ = await expectDBusError(.invalidView, containing: "compact_leading/0.shared.id") { try await music.start("clock", bad) }
            bad["compact_leading"] = .node(Self.text("x", shared: "co ver"))
            _ = await expectDBusError(.invalidId, containing: "compact_leading.shared.id") { try await music.start("clock", bad) }
            // Limits. (Nesting cannot pass the view depth limit over D-Bus at all: each level
            // is a struct, an array and a variant, and a message nests at most 64 containers.)
            _ = await expectDBusError(.limitsExceeded, containing: "expanded.text") {
                try await music.update("song", ["expanded": .node(Self.text(String(repeating: "x", count: 5000)))])
            }
            let wide = RawNode(kind: "vstack", children: Array(repeating: Self.text("row"), count: 4100))
            _ = await expectDBusError(.limitsExceeded, containing: "4096 nodes") {
                try await music.update("song", ["expanded": .node(wide)])
            }
            _ = await expectDBusError(.invalidView, containing: "home") {
                try await music.call("SetContent", [.string("home"), RawNode(kind: "sparkles").wireValue])
            }
            // A wrong signature never reaches a handler.
            _ = await expectDBusError(.invalidArgs, containing: "sa{sv}") { try await music.call("StartActivity", [.string("x")]) }
            // File descriptors cannot be props, and nookd does not take them at all: the bus
            // refuses a message carrying one (HostileDescriptorsTests sends them everywhere).
            let sender = try await BrokerClient.connect(bus, acceptsDescriptors: true)
            let descriptors = { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(nookd.pid)/fd").count) ?? -1 }
            let fd = open("/dev/null", O_RDONLY)
            defer { close(fd) }
            var counts: [Int] = []
            for _ in 0..<12 {
                do {
                    try await sender.call("Register", [.string("music"), .vardict(["icon": .unixFD(fd)])])
                    Issue.record("a descriptor reached nookd")
                } catch let error as DBusError {
                    #expect(error.name == "org.freedesktop.DBus.Error.NotSupported", "\(error)")
                }
                counts.append(descriptors())
            }
            await sender.close()
            // A leak would add one per call; allow the runtime's own and a state write in flight.
            #expect(counts.last! <= counts.min()! + 2, "\(counts)")
            // A member the contract does not have.
            _ = await expectDBusError(.unknownMethod, containing: "Dance") { try await music.call("Dance", []) }
            // Nothing of the above disturbed the module's state.
            #expect(try await music.activities() == ["music/song"])
            await music.close()
            await other.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }

    @Test func staleUpdatesAreIgnoredAndOnlyTheirModuleHearsOfIt() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let music = try await BrokerClient.connect(bus)
            let timer = try await BrokerClient.connect(bus)
            try await music.register("music")
            try await timer.register("timer")
            try await music.start("song", Self.spec(label: "five", sequence: 5))
            try await music.update("song", ["sequence": .uint(4), "relevance": .double(50)])
            #expect(await eventually { music.diagnosticCodes == ["stale-update"] }, "\(music.diagnosticCodes)")
            // The stale update changed nothing.
            try await timer.start("egg", Self.spec(relevance: 10))
            #expect(try await music.activities() == ["timer/egg", "music/song"])
            // The timer's first diagnostic is its own (an unknown key), sent after the stale one:
            // had the stale-update reached it, it would have arrived first.
            try await timer.update("egg", ["sparkle": .bool(true)])
            #expect(await eventually { !timer.diagnosticCodes.isEmpty })
            #expect(timer.diagnosticCodes == ["unknown-key"])
            #expect(music.diagnosticCodes == ["stale-update"])
            await music.close()
            await timer.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }

    @Test func aKilledModuleKeepsItsActivitiesUntilANewConnectionTakesThemBack() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let (python, pythonName) = try Self.pythonModule(bus: bus, module: "py", activity: "tea")
            let observer = try await BrokerClient.connect(bus)
            #expect(try await observer.activities() == ["py/tea"])
            python.kill(SIGKILL)
            python.waitUntilExit()
            // The broker notices the connection is gone: the id can be registered again...
            let restarted = try await BrokerClient.connect(bus)
            let free = await eventually {
                do { try await restarted.register("py"); return true } catch { return false }
            }
            #expect(free, "the module id never became free after SIGKILL: \(nookd.log)")
            // ...and the activity it had is still there, now the new connection's.
            #expect(try await observer.activities() == ["py/tea"])
            try await restarted.update("tea", ["accessibility_label": .string("Tea, again")])
            #expect(await eventually { restarted.diagnosticCodes.contains("module-restored") })
            #expect(nookd.log.contains("lost its connection \(pythonName)"))
            await restarted.close()
            await observer.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }

    @Test func aModuleThatDoesNotComeBackEndsAfterTheGracePeriod() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory, grace: "1s")
            let (python, _) = try Self.pythonModule(bus: bus, module: "py", activity: "tea")
            let observer = try await BrokerClient.connect(bus)
            #expect(try await observer.activities() == ["py/tea"])
            python.kill(SIGKILL)
            python.waitUntilExit()
            #expect(await eventually { (try? await observer.activities()) == [] }, "\(nookd.log)")
            #expect(nookd.log.contains("did not come back"))
            await observer.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }

    @Test func stateSurvivesARestartOfNookd() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            var nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let music = try await BrokerClient.connect(bus)
            try await music.register("music")
            try await music.start("song", Self.spec(relevance: 1, sequence: 7))
            try await music.start("ad", Self.spec(relevance: 3))
            try await music.call("SetContent", [.string("home"), Self.text("home").wireValue])
            // A clean stop writes the state; a new nookd restores it.
            #expect(await nookd.stop(SIGTERM) == 0, "\(nookd.log)")
            nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let observer = try await BrokerClient.connect(bus)
            #expect(try await observer.activities() == ["music/ad", "music/song"], "\(nookd.log)")
            // The restarted module registers again (new connection) and takes its state back,
            // sequence included.
            let again = try await BrokerClient.connect(bus)
            try await again.register("music")
            try await again.update("song", ["sequence": .uint(6)])
            #expect(await eventually { again.diagnosticCodes.contains("stale-update") })
            try await again.end("ad")
            // Even SIGKILL loses nothing once the debounced write (well under a second) is done.
            let file = temp.stateDirectory.appendingPathComponent("state.json")
            let written = await eventually {
                let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
                return text.contains("\"song\"") && !text.contains("\"ad\"")
            }
            #expect(written)
            await nookd.stop(SIGKILL)
            nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            #expect(try await observer.activities() == ["music/song"], "\(nookd.log)")
            for client in [music, observer, again] { await client.close() }
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }

    @Test func aSecondNookdExitsWithStatusOne() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let second = try await Tools.run(
                try NookdProcess.executable().path, ["--address", bus.address, "--state-dir", temp.url.appendingPathComponent("other").path])
            #expect(second.status == 1)
            #expect(second.stderr.contains("org.nook.Nook1") && second.stderr.contains("already owned"))
            let help = try await Tools.run(try NookdProcess.executable().path, ["--help"])
            #expect(help.status == 0 && help.stdout.contains("--state-dir"))
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }
}
