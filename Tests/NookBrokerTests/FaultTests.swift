import Foundation
import Testing
import NookBus
import NookCore
import NookTestSupport

/// Faults with real processes on a private bus (SPEC, Reliability): modules, renderers,
/// nookd and the bus daemon killed with SIGKILL while work is in flight. Complements
/// `BrokerIntegrationTests` (a module killed while idle, the grace expiry, a clean restart)
/// and `ReconnectTests` (the SDK module republishing across a killed nookd).
@Suite(.serialized) struct FaultTests {
    typealias Spec = BrokerIntegrationTests
    typealias Renderer = ControlRenderTests.Renderer

    /// A python3-dbus module that registers, starts `tea`, prints its name, then updates as
    /// fast as it can until killed.
    static func floodingPythonModule(bus: PrivateBus) throws -> HelperProcess {
        try HelperProcess("/usr/bin/python3", ["-u", "-c", """
            import dbus
            bus = dbus.bus.BusConnection("\(bus.address)")
            modules = dbus.Interface(bus.get_object("org.nook.Nook1", "/org/nook/Nook1"), "org.nook.Nook1.Modules")
            def node(text):
                return dbus.Struct(("text", dbus.Dictionary({"text": text}, signature="sv"), dbus.Array([], signature="v")), signature="sa{sv}av")
            modules.Register("py", dbus.Dictionary({}, signature="sv"))
            modules.StartActivity("tea", dbus.Dictionary({"accessibility_label": "Tea", "compact_leading": node("T"),
                "compact_trailing": node("0"), "minimal": node("M"), "relevance": 1.0}, signature="sv"))
            print(bus.get_unique_name(), flush=True)
            n = 0
            while True:
                n += 1
                modules.UpdateActivity("tea", dbus.Dictionary({"compact_trailing": node(str(n)), "relevance": float(n % 7)}, signature="sv"))
                if n == 50: print("flowing", flush=True)
            """])
    }

    static func stateFile(_ directory: URL) -> [String: Any]? {
        guard let data = try? Data(contentsOf: directory.appendingPathComponent("state.json")) else { return nil }
        return try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    }

    /// `module/activity` of every activity in the state file.
    static func storedActivities(_ directory: URL) -> Set<String> {
        guard let registry = stateFile(directory)?["registry"] as? [String: Any],
              let modules = registry["modules"] as? [[String: Any]] else { return [] }
        var out: Set<String> = []
        for module in modules {
            for activity in module["activities"] as? [[String: Any]] ?? [] {
                out.insert("\(module["id"] ?? "?")/\(activity["id"] ?? "?")")
            }
        }
        return out
    }

    @Test func aModuleKilledMidUpdateLeavesAConsistentServingBroker() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory, grace: NookdProcess.graceNoRunOutlasts)
            let other = try await BrokerClient.connect(bus)
            try await other.register("other")
            try await other.start("calm", Spec.spec(relevance: 100))  // primary: its views are in the scene
            let renderer = try await Renderer.subscribe(bus)
            let python = try Self.floodingPythonModule(bus: bus)
            defer { python.kill(SIGKILL); python.waitUntilExit() }
            #expect(python.readLine()?.hasPrefix(":") == true)
            #expect(python.readLine() == "flowing")
            python.kill(SIGKILL)
            python.waitUntilExit()
            // Still serving, the dead module's activity kept (grace), state consistent.
            #expect(Set(try await other.activities()) == ["py/tea", "other/calm"])
            try await other.update("calm", ["compact_trailing": .node(Spec.text("after the kill"))])
            #expect(await renderer.plan { "\($0)".contains("after the kill") } != nil, "\(nookd.log.suffix(2000))")
            // The state file on disk is whole and holds both modules.
            #expect(await eventually { Self.storedActivities(temp.stateDirectory) == ["py/tea", "other/calm"] },
                    "the state file is missing or broken")
            // The module comes back on a new connection and takes its activity over.
            let back = try await BrokerClient.connect(bus)
            #expect(await eventually { (try? await back.register("py")) != nil })
            try await back.update("tea", ["relevance": .double(2)])
            #expect(try await back.activities() == ["other/calm", "py/tea"])
            for client in [other, back, renderer.client] { await client.close() }
            #expect(await nookd.stop() == 0, "\(nookd.log.suffix(2000))")
        }
    }

    /// Within the grace period, a module that comes back is invisible to renderers: no
    /// `activity_ended` and no `module_vanished` plan, the activity stays where it was.
    @Test func aModuleTakenBackWithinTheGracePeriodChangesNothingVisible() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory, grace: NookdProcess.graceNoRunOutlasts)
            let (python, _) = try Spec.pythonModule(bus: bus, module: "py", activity: "tea")
            defer { python.kill(SIGKILL); python.waitUntilExit() }
            let renderer = try await Renderer.subscribe(bus)
            #expect(renderer.first["to"] == .string("pill"))
            python.kill(SIGKILL)
            python.waitUntilExit()
            let back = try await BrokerClient.connect(bus)
            #expect(await eventually { (try? await back.register("py")) != nil }, "\(nookd.log.suffix(2000))")
            try await back.update("tea", ["accessibility_label": .string("Tea, again"), "compact_trailing": .node(Spec.text("2:59"))])
            #expect(await renderer.plan { "\($0)".contains("2:59") } != nil)
            let causes = renderer.received.compactMap { plan -> String? in if case .string(let cause)? = plan["cause"] { cause } else { nil } }
            #expect(!causes.contains("activity_ended") && !causes.contains("module_vanished"), "\(causes)")
            #expect(renderer.received.allSatisfy { $0["to"] == .string("pill") }, "the pill changed presentation")
            #expect(try await back.activities() == ["py/tea"])
            for client in [back, renderer.client] { await client.close() }
            #expect(await nookd.stop() == 0, "\(nookd.log.suffix(2000))")
        }
    }

    /// nookd killed with SIGKILL while four modules update: a restarted nookd restores every
    /// activity; a renderer that re-subscribes when the name gets a new owner gets a fresh
    /// window and then the plans of the modules that registered again.
    @Test func nookdKilledUnderLoadRestoresEverythingAndRenderersResubscribe() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            var nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            // A renderer client that subscribes, and subscribes again whenever org.nook.Nook1
            // gets a new owner.
            let renderer = try await BrokerClient.connect(bus)
            let plans = SignalLog()
            let resubscribed = SignalLog()  // one entry per Subscribe call made on a new owner
            _ = try await renderer.connection.addMatch(MatchRule(path: "/org/nook/Nook1", interface: "org.nook.Nook1.Render", member: "Plan")) { plans.append($0) }
            let connection = renderer.connection
            _ = try await renderer.connection.addMatch(
                MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged")) { signal in
                guard signal.arguments.count == 3, signal.arguments[0] == .string("org.nook.Nook1"),
                      case .string(let owner) = signal.arguments[2], !owner.isEmpty else { return }
                Task {
                    _ = try? await connection.call(destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: "org.nook.Nook1.Render",
                                                   member: "Subscribe", arguments: [WireCodec.vardict(ControlRenderTests.display)])
                    resubscribed.append(signal)
                }
            }
            try await renderer.call("Subscribe", [WireCodec.vardict(ControlRenderTests.display)], interface: "org.nook.Nook1.Render")

            var modules: [BrokerClient] = []
            var expected: Set<String> = []
            for module in 0..<4 {
                let client = try await BrokerClient.connect(bus)
                try await client.register("m\(module)")
                for activity in 0..<8 {
                    try await client.start("a\(activity)", Spec.spec(relevance: Double(module * 8 + activity)))
                    expected.insert("m\(module)/a\(activity)")
                }
                modules.append(client)
            }
            let expectedActivities = expected
            // Load: every module keeps updating while nookd is killed.
            let loaded = modules
            let load = Task {
                var round = 0
                while !Task.isCancelled {
                    round += 1
                    for (index, client) in loaded.enumerated() {
                        try? await client.update("a\(round % 8)", ["compact_trailing": .node(Spec.text("m\(index) r\(round)"))])
                    }
                }
            }
            // Every activity on disk (writes are debounced under a second) and some updates
            // after that in flight, then the kill.
            #expect(await eventually { Self.storedActivities(temp.stateDirectory) == expectedActivities })
            let flowing = plans.all.count
            #expect(await eventually { plans.all.count > flowing + 5 }, "no plans while under load")
            await nookd.stop(SIGKILL)
            load.cancel()
            _ = await load.value

            nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let observer = try await BrokerClient.connect(bus)
            #expect(Set(try await observer.activities()) == expectedActivities, "\(nookd.log.suffix(2000))")
            // The modules register again on new connections (what the SDK does) and publish.
            var again: [BrokerClient] = []
            for module in 0..<4 {
                let client = try await BrokerClient.connect(bus)
                try await client.register("m\(module)")
                again.append(client)
            }
            #expect(await eventually { resubscribed.all.count >= 1 }, "the renderer never re-subscribed")
            #expect(await eventually { plans.all.contains { "\($0.arguments)".contains("fresh_window") } })
            // m3/a7 is the primary activity: its views are in the scene.
            try await again[3].update("a7", ["compact_trailing": .node(Spec.text("republished"))])
            #expect(await eventually { plans.all.contains { "\($0.arguments)".contains("republished") } }, "no plan after the restart")
            #expect(Set(try await observer.activities()) == expectedActivities)
            for client in modules + again + [observer, renderer] { await client.close() }
            #expect(await nookd.stop() == 0, "\(nookd.log.suffix(2000))")
        }
    }

    /// A python3-dbus renderer killed while plans flow: the other renderer keeps getting
    /// every final state, the module keeps publishing.
    @Test func aRendererVanishingMidPlanLeavesOthersUnaffected() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let music = try await BrokerClient.connect(bus)
            try await music.register("music")
            try await music.start("song", ControlRenderTests.songSpec())
            let python = try HelperProcess("/usr/bin/python3", ["-u", "-c", """
                import dbus
                from dbus.mainloop.glib import DBusGMainLoop
                from gi.repository import GLib
                DBusGMainLoop(set_as_default=True)
                bus = dbus.bus.BusConnection("\(bus.address)")
                nook = bus.get_object("org.nook.Nook1", "/org/nook/Nook1")
                def plan(p):
                    print("plan", int(p["serial"]), flush=True)
                bus.add_signal_receiver(plan, signal_name="Plan", dbus_interface="org.nook.Nook1.Render")
                nook.Subscribe({"width": 1920.0, "height": 1080.0, "refresh_rate": 240.0}, dbus_interface="org.nook.Nook1.Render")
                print("subscribed", flush=True)
                GLib.MainLoop().run()
                """])
            defer { python.kill(SIGKILL); python.waitUntilExit() }
            #expect(python.readLine() == "subscribed")
            let swift = try await Renderer.subscribe(bus)
            let updates = Task {
                var index = 0
                while !Task.isCancelled {
                    index += 1
                    try? await music.update("song", ["compact_trailing": .node(ControlRenderTests.node("text", ["text": .string("u\(index)")]))])
                }
            }
            #expect(python.readLine()?.hasPrefix("plan ") == true, "the python renderer got no plan")
            python.kill(SIGKILL)
            python.waitUntilExit()
            // Plans keep flowing to the other renderer while the broker finds the dead one.
            let atKill = swift.plans.all.count
            #expect(await eventually { swift.plans.all.count >= atKill + 10 }, "plans stopped after the renderer died")
            updates.cancel()
            _ = await updates.value
            try await music.update("song", ["compact_trailing": .node(ControlRenderTests.node("text", ["text": .string("the end")]))])
            #expect(await swift.plan { "\($0)".contains("the end") } != nil, "\(nookd.log.suffix(2000))")
            let serials = swift.received.compactMap { plan -> UInt64? in if case .uint64(let s)? = plan["serial"] { s } else { nil } }
            #expect(serials == serials.sorted(), "plans arrived out of order")
            #expect(nookd.isRunning)
            for client in [music, swift.client] { await client.close() }
            #expect(await nookd.stop() == 0, "\(nookd.log.suffix(2000))")
        }
    }

    /// Regression: nookd kept running with a dead connection after its bus daemon died, a
    /// zombie a supervisor could not see. Now it notices, writes its state and exits with
    /// status 1 (systemd's `Restart=on-failure` brings it back); a nookd on the new bus
    /// restores everything.
    @Test func nookdExitsWhenItsBusDiesAndANewBusGetsItsState() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let first = try PrivateBus()
        let nookd = try await NookdProcess(bus: first, stateDirectory: temp.stateDirectory)
        let music = try await BrokerClient.connect(first)
        try await music.register("music")
        try await music.start("song", Spec.spec(relevance: 1))
        try await music.start("ad", Spec.spec(relevance: 2))
        #expect(await eventually { Self.storedActivities(temp.stateDirectory) == ["music/song", "music/ad"] })
        first.stop()
        #expect(await eventually(timeout: .seconds(20)) { !nookd.isRunning }, "nookd kept running without its bus: \(nookd.log.suffix(2000))")
        #expect(await nookd.stop() == 1, "\(nookd.log.suffix(2000))")
        #expect(Self.storedActivities(temp.stateDirectory) == ["music/song", "music/ad"], "the state file is broken")
        await music.close()
        try await PrivateBus.with { bus in
            let again = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let observer = try await BrokerClient.connect(bus)
            #expect(try await observer.activities() == ["music/ad", "music/song"], "\(again.log.suffix(2000))")
            await observer.close()
            #expect(await again.stop() == 0)
        }
    }
}
