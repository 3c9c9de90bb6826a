import Foundation
import NookBus
import NookBroker
import NookCore
import NookTestSupport
import Synchronization
import Testing

/// Renderers that are many, slow, silent or noisy (issue 15): nookd stays fair and bounded.
@Suite struct HostileRenderersTests {
    static func display(rate: Double) -> [String: PropValue] {
        ControlRenderTests.display.merging(["refresh_rate": .double(rate)]) { $1 }
    }

    /// At most one plan per frame of `duration` at `rate`, plus the frames at either edge.
    static func framesAllowed(_ duration: Duration, rate: Double) -> Int {
        Int((duration / .seconds(1) * rate).rounded(.up)) + 2
    }

    /// VmRSS of a process in KiB, from /proc.
    static func rss(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }

    /// dbus-daemon's own statistics of one connection (org.freedesktop.DBus.Debug.Stats).
    static func connectionStats(_ client: BusConnection, _ name: String) async throws -> Vardict {
        let reply = try await client.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                          interface: "org.freedesktop.DBus.Debug.Stats", member: "GetConnectionStats",
                                          arguments: [.string(name)])
        return try Vardict(reply[0])
    }

    static func uint(_ stats: Vardict, _ key: String) -> Int {
        if case .uint32(let value)? = stats[key] { Int(value) } else { -1 }
    }

    static func moduleStarted(_ bus: PrivateBus, _ temp: TemporaryDirectory, updates: Int, pause: Double = 0) async throws -> LineProcess {
        let module = try LineProcess(python: FloodDeliveryTests.moduleScript(bus, updates: updates, pause: pause),
                                     stderrFile: temp.url.appendingPathComponent("module.err"))
        try #require(await module.line(startingWith: "ready") != nil,
                     "the module did not start: \((try? String(contentsOf: temp.url.appendingPathComponent("module.err"), encoding: .utf8)) ?? "")")
        return module
    }

    /// Test 6: 50 renderers and a 1000-update flood. Each renderer gets at most one plan per
    /// frame and the final state; another module's calls are all answered meanwhile.
    /// (Before: every call planned for every renderer at once, 50,000 plans here.) Renderers
    /// with the same display keep sharing each frame's plan through the flood, though a
    /// frame's sends span several turns of nookd's bus thread with calls read in between.
    /// (Before: a change between turns split them into groups, each planned for on its own.)
    @Test func manyRenderersShareOnePlanPerFrameAndOtherModulesAreAnswered() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let module = try await Self.moduleStarted(bus, temp, updates: 1000)
            defer { module.stop() }
            var subscribed: [PlanRecorder] = []
            for _ in 0..<50 { subscribed.append(try await PlanRecorder.subscribe(bus, display: Self.display(rate: 60))) }
            let renderers = subscribed
            let control = try await BrokerClient.connect(bus)
            _ = try await ControlRenderTests.control(control, "Open", [WireCodec.vardict([:])])
            let bystander = try await BrokerClient.connect(bus)
            try await bystander.register("clock")
            try await bystander.start("tick", ControlRenderTests.songSpec(title: "0"))
            let before = renderers.map(\.count)
            let began = ContinuousClock.now
            module.send("many")
            // The other module keeps working through the flood: every call answered.
            for index in 1...20 {
                try await bystander.update("tick", ["compact_trailing": .node(ControlRenderTests.node("text", ["text": .string("\(index)")]))])
            }
            #expect(await module.line(startingWith: "sent many") != nil)
            let final = "many tick 999"
            let arrived = await eventually(timeout: .seconds(60)) { renderers.allSatisfy { $0.first(showing: final) != nil } }
            #expect(arrived, "\(renderers.filter { $0.first(showing: final) == nil }.count) renderers never got the final state")
            let last = renderers.compactMap { $0.first(showing: final)?.arrived }.max() ?? .now
            let allowed = Self.framesAllowed(last - began, rate: 60)
            let counts = zip(renderers, before).map { renderer, before in
                renderer.received.dropFirst(before).filter { $0.arrived <= last }.count
            }
            #expect(counts.allSatisfy { $0 <= allowed }, "plans per renderer \(counts.sorted().suffix(5)) over \(last - began), allowed \(allowed)")
            // Each plan made in the flood reached, on average, at least half of the renderers.
            let serials = zip(renderers, before).map { renderer, before in
                renderer.received.dropFirst(before).filter { $0.arrived <= last }.map(\.serial)
            }
            let distinct = Set(serials.joined()).count
            let sharing = Double(serials.map(\.count).reduce(0, +)) / Double(max(1, distinct))
            print("50 renderers in a flood: \(distinct) distinct plans, \(sharing) renderers per plan")
            #expect(sharing >= 25, "\(distinct) distinct plans over \(serials.map(\.count).reduce(0, +)) received: \(sharing) renderers per plan")
            for renderer in renderers { await renderer.close() }
            for client in [control, bystander] { await client.close() }
            module.stop()
            try await Hostile.expectSurvivesRestart(nookd, bus: bus).stop()
        }
    }

    /// Renderers that subscribed one after another (each got its own `Subscribe` plan) share
    /// plans once those have finished playing: one change then makes one plan, sent to all of
    /// them (`GetState`'s `plans_made` and `plans_sent`). Before, a renderer's origin was the
    /// id of the plan it was sent last, so 20 renderers that subscribed apart cost 20 plans a
    /// change for as long as they stayed subscribed.
    @Test func renderersThatSubscribedApartSharePlansOnceSettled() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let module = try await BrokerClient.connect(bus)
            try await module.register("clock")
            try await module.start("tick", ControlRenderTests.songSpec(title: "0"))
            var subscribed: [PlanRecorder] = []
            for _ in 0..<20 { subscribed.append(try await PlanRecorder.subscribe(bus, display: Self.display(rate: 60))) }
            let renderers = subscribed
            func counters() async throws -> (made: UInt64, sent: UInt64) {
                let state = try await module.state()
                guard case .uint64(let made)? = state["plans_made"], case .uint64(let sent)? = state["plans_sent"] else {
                    Issue.record("GetState has no plan counters: \(state.keys.sorted())")
                    return (0, 0)
                }
                return (made, sent)
            }
            // Until the Subscribe plans have played, the renderers stand in different places and
            // need plans of their own; afterwards each change must cost one plan. No plan lasts
            // longer than `motion.maxDuration` (2 s), so the pause before each try outlasts every
            // plan sent before it, whatever the machine's speed.
            let outlastingEveryPlan = Duration.milliseconds(2500)
            var shared = false
            var last: (made: UInt64, sent: UInt64) = (0, 0)
            let deadline = ContinuousClock.now + .seconds(60)
            var index = 0
            while !shared, ContinuousClock.now < deadline {
                try await Task.sleep(for: outlastingEveryPlan)
                index += 1
                let before = try await counters()
                let text = "shared \(index)"
                try await module.update("tick", ["compact_trailing": .node(ControlRenderTests.node("text", ["text": .string(text)]))])
                let arrived = await eventually(timeout: .seconds(30)) { renderers.allSatisfy { $0.first(showing: text) != nil } }
                try #require(arrived, "\(renderers.filter { $0.first(showing: text) == nil }.count) renderers never got \(text)")
                let after = try await counters()
                last = (after.made - before.made, after.sent - before.sent)
                shared = last == (1, 20)
            }
            #expect(shared, "after \(index) changes, the last made \(last.made) plans for \(last.sent) sends")
            for renderer in renderers { await renderer.close() }
            await module.close()
            _ = await nookd.stop()
        }
    }

    /// A python3-dbus process with `count` renderers that subscribe and then never read, until
    /// told `resume`: then the first one reads and prints `plan <fresh_window> <shows final>`
    /// for each plan, `final` being the text `stall tick <last>`.
    static func stalledRenderers(_ bus: PrivateBus, count: Int, final: String) -> String {
        """
        import dbus, sys
        from dbus.mainloop.glib import DBusGMainLoop
        from gi.repository import GLib
        DBusGMainLoop(set_as_default=True)
        def texts(v, out):
            if isinstance(v, dict):
                for k, x in v.items():
                    if k == "text" and isinstance(x, str): out.append(str(x))
                    else: texts(x, out)
            elif isinstance(v, (list, tuple)):
                for x in v: texts(x, out)
        conns = []
        for i in range(\(count)):
            b = dbus.bus.BusConnection("\(bus.address)")
            b.get_object("org.nook.Nook1", "/org/nook/Nook1", introspect=False).Subscribe(
                dbus.Dictionary({"width": 1512.0, "height": 982.0, "refresh_rate": 60.0}, signature="sv"), dbus_interface="org.nook.Nook1.Render")
            conns.append(b)
        print("subscribed", " ".join(b.get_unique_name() for b in conns), flush=True)
        sys.stdin.readline()
        received = [0]
        def plan(p):
            t = []
            texts(p.get("scene", {}), t)
            received[0] += 1
            print("plan", bool(p.get("fresh_window", False)), "\(final)" in t, received[0], flush=True)
        conns[0].add_signal_receiver(plan, signal_name="Plan", dbus_interface="org.nook.Nook1.Render")
        GLib.MainLoop().run()
        """
    }

    /// Test 6b: 20 renderers that never read, and a 3000-update flood over a few seconds (many
    /// frames, each of which used to send every renderer a plan). nookd and the bus
    /// daemon stay small (each silent renderer holds a few plans at most, not one per frame),
    /// and a silent renderer that reads again gets a fresh window of the final state.
    @Test func renderersThatNeverReadGrowNeitherNookdNorTheBus() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let updates = 3000
            let final = "stall tick \(updates - 1)"
            let module = try await Self.moduleStarted(bus, temp, updates: updates, pause: 0.02)
            defer { module.stop() }
            let stalled = try LineProcess(python: Self.stalledRenderers(bus, count: 20, final: final))
            defer { stalled.stop() }
            _ = try #require(await stalled.line(startingWith: "subscribed"))
            let reader = try await PlanRecorder.subscribe(bus, display: Self.display(rate: 60))
            let control = try await BrokerClient.connect(bus)
            _ = try await ControlRenderTests.control(control, "Open", [WireCodec.vardict([:])])
            let nookdBefore = try #require(Self.rss(nookd.pid)), busBefore = try #require(Self.rss(bus.pid))

            module.send("stall")
            #expect(await module.line(startingWith: "sent stall") != nil)
            #expect(await eventually(timeout: .seconds(60)) { reader.first(showing: final) != nil }, "the reading renderer never got the final state")
            let nookdGrowth = (Self.rss(nookd.pid) ?? 0) - nookdBefore, busGrowth = (Self.rss(bus.pid) ?? 0) - busBefore
            #expect(nookdGrowth < 32 * 1024 || !Hostile.measuresMemoryGrowth, "nookd grew by \(nookdGrowth) KiB")
            #expect(busGrowth < 32 * 1024, "dbus-daemon grew by \(busGrowth) KiB")
            // The stall threshold is a time by definition (RenderLimits.stallTime, 1 s).
            try await Task.sleep(for: .milliseconds(1100))
            stalled.send("resume")
            let fresh = await stalled.line(startingWith: "plan True True", timeout: .seconds(20))
            #expect(fresh != nil, "the renderer that read again got no fresh window of the final state")
            // A silent renderer held at most its window of plans (its socket and the bus daemon
            // keep them), not one plan per frame of the flood: the fresh window comes right
            // after them. (Counted by the renderer: small plans fit the socket's buffer, so the
            // bus daemon's own queue for it stays empty and says nothing.)
            let queued = fresh.flatMap { Int($0.split(separator: " ").last ?? "") }.map { $0 - 1 } ?? -1
            #expect((0...RenderLimits.standard.maxUnacknowledgedPlans).contains(queued),
                    "the silent renderer had \(queued) plans queued before its fresh window")
            stalled.stop()
            await reader.close()
            await control.close()
            module.stop()
            try await Hostile.expectSurvivesRestart(nookd, bus: bus).stop()
        }
    }

    /// Acknowledgements cost the bus daemon two messages each (the ping and its answer), so
    /// the broker pings after every second plan (`DeliveryMachine.plansPerPing`), not after each: seen
    /// by `dbus-monitor` on the private bus, a reading renderer in a flood gets about one ping
    /// per two plans, and still every plan up to the final state.
    @Test func aReadingRendererIsPingedAfterEverySecondPlan() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let module = try await Self.moduleStarted(bus, temp, updates: 1500, pause: 0.02)
            defer { module.stop() }
            let renderer = try await PlanRecorder.subscribe(bus, display: Self.display(rate: 60))
            let name = renderer.connection.uniqueName
            let monitor = try PackageProcess(try Tools.path(of: "dbus-monitor"), [
                "--address", bus.address,
                "type='method_call',interface='org.freedesktop.DBus.Peer',member='Ping',destination='\(name)'",
                "type='signal',interface='org.nook.Nook1.Render',member='Plan',destination='\(name)'",
                "type='method_call',member='GetState'",
            ], logDirectory: temp.url)
            defer { Task { await monitor.stop() } }
            let control = try await BrokerClient.connect(bus)
            // In place once it has seen a call of ours.
            #expect(await eventually(timeout: .seconds(30)) {
                _ = try? await control.call("GetState", [], interface: "org.nook.Nook1.Control")
                return monitor.log.contains("member=GetState")
            }, "dbus-monitor saw nothing: \(monitor.log)")
            _ = try await ControlRenderTests.control(control, "Open", [WireCodec.vardict([:])])
            module.send("ping")
            #expect(await module.line(startingWith: "sent ping") != nil)
            #expect(await eventually(timeout: .seconds(60)) { renderer.first(showing: "ping tick 1499") != nil }, "no final state")
            // The last plan's ping (if any) has been seen once the monitor shows it; wait for the log to settle.
            let seen = Locked("")
            _ = await eventually(timeout: .seconds(10), poll: .milliseconds(300)) {
                let now = monitor.log
                return seen.withLock { previous in
                    defer { previous = now }
                    return now == previous
                }
            }
            let lines = seen.withLock { $0 }.split(separator: "\n")
            let plans = lines.filter { $0.hasPrefix("signal") && $0.contains("member=Plan") }.count
            let pings = lines.filter { $0.hasPrefix("method call") && $0.contains("member=Ping") }.count
            print("one renderer in a flood: \(plans) plans, \(pings) pings")
            // Six plans already tell one ping per plan (6) from one per two (at most 4) within the
            // bounds below; a loaded machine coalesces the flood into fewer frames (9 plans from
            // 600 updates once in CI), so the flood is long.
            #expect(plans >= 6, "too few plans to tell: \(plans)")
            // Every second plan, as docs/broker.md says (not `DeliveryMachine.plansPerPing`, which this checks).
            #expect(pings >= plans / 2 - 1 && pings <= (plans + 1) / 2 + 1,
                    "\(pings) pings for \(plans) plans")
            await renderer.close()
            await control.close()
            module.stop()
            try await Hostile.expectSurvivesRestart(nookd, bus: bus).stop()
        }
    }

    /// Test 7: 4,000 `Pointer` calls sent without waiting give a 60 Hz renderer at most one
    /// plan per frame, and the state after the last one. (Before: one plan per call.)
    @Test func aPointerFloodIsCoalescedPerFrame() async throws {
        try await ControlRenderTests.withMusic { bus, nookd, music in
            var spec = ControlRenderTests.songSpec()
            spec["expanded"] = .node(ControlRenderTests.node("vstack", [:], [ControlRenderTests.cover(120)]))
            try await music.start("song", spec)
            let renderer = try await PlanRecorder.subscribe(bus, display: Self.display(rate: 60))
            let before = renderer.count
            let began = ContinuousClock.now
            try await renderer.connection.perform { connection in
                for index in 0..<4000 {
                    try connection.callNoReply(destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: "org.nook.Nook1.Render",
                                               member: "Pointer", arguments: [.string(index % 2 == 0 ? "enter" : "exit")])
                }
            }
            // Calls from one connection are handled in order: once this is answered, all were.
            let state = try Vardict(try await renderer.connection.call(
                destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: "org.nook.Nook1.Control", member: "GetState")[0])
            #expect(state["presentation"] == .string("pill"), "the last event was an exit")
            guard case .uint64(let serial)? = state["serial"] else { Issue.record("no serial in \(state)"); return }
            let arrived = await eventually { renderer.received.contains { $0.serial >= serial } }
            #expect(arrived, "the state after the last Pointer call never arrived")
            let last = renderer.received.first { $0.serial >= serial }
            #expect(last?.to == "pill")
            let end = last?.arrived ?? .now
            let plans = renderer.received.dropFirst(before).filter { $0.arrived <= end }.count
            let allowed = Self.framesAllowed(end - began, rate: 60)
            #expect(plans >= 1 && plans <= allowed, "\(plans) plans for 4000 Pointer calls over \(end - began), allowed \(allowed)")
            await renderer.close()
            await music.close()
            try await Hostile.expectSurvivesRestart(nookd, bus: bus).stop()
        }
    }

    /// A `DisplayChanged` from a connection that is not a renderer changes the geometry every
    /// renderer shows, never a renderer's refresh rate or capabilities: only a renderer knows
    /// its own. (Before: its `refresh_rate` and `capabilities` applied to every renderer.)
    @Test func displayChangedFromAControlClientLeavesRendererRatesAlone() async throws {
        try await ControlRenderTests.withMusic { bus, nookd, music in
            try await music.start("song", ControlRenderTests.songSpec())
            let renderer = try await PlanRecorder.subscribe(bus, display: Self.display(rate: 10))
            let shell = try await BrokerClient.connect(bus)
            let changed = try await ControlRenderTests.control(shell, "DisplayChanged", [WireCodec.vardict([
                "width": .double(1920), "height": .double(1080), "refresh_rate": .double(1000), "capabilities": .array([]),
            ])])
            #expect(await eventually { renderer.received.contains { $0.serial >= changed && $0.freshWindow } },
                    "the renderer got no fresh window for the new display")
            let before = renderer.count
            let began = ContinuousClock.now
            for index in 1...200 {
                try await music.update("song", ["compact_trailing": .node(ControlRenderTests.node("text", ["text": .string("rate \(index)")]))])
            }
            #expect(await eventually { renderer.first(showing: "rate 200", from: before) != nil }, "the final state never arrived")
            let end = renderer.first(showing: "rate 200", from: before)?.arrived ?? .now
            let plans = renderer.received.dropFirst(before).filter { $0.arrived <= end }
            let allowed = Self.framesAllowed(end - began, rate: 10)
            #expect(plans.count <= allowed, "\(plans.count) plans over \(end - began): more than one per frame at the renderer's own 10 Hz (\(allowed))")
            #expect(!plans.contains { $0.sampled }, "the renderer declared every capability; a control client's capabilities do not apply to it")
            await renderer.close()
            await shell.close()
            try await Hostile.expectSurvivesRestart(nookd, bus: bus).stop()
        }
    }

    /// Match rules: 3,000 Subscribe/Unsubscribe pairs, partly back to back, leave nookd with
    /// the match rules it had before; a subscription adds one, and it goes when the renderer
    /// leaves the bus. (Before: a subscription made while the watch of an earlier one was
    /// still being set up started a second watch, and one of the two stayed for good.)
    @Test func matchRulesGoWithTheirSubscription() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let watcher = try await BusConnection.connect(to: .address(bus.address))
            let broker = try #require(try await watcher.nameOwner(of: "org.nook.Nook1"))
            @Sendable func matchRules() async -> Int {
                (try? await Self.connectionStats(watcher, broker)).map { Self.uint($0, "MatchRules") } ?? -1
            }
            let baseline = await matchRules()
            #expect(baseline >= 0, "dbus-daemon has no Debug.Stats interface")
            let renderer = try LineProcess(python: """
                import dbus, sys, time
                bus = dbus.bus.BusConnection("\(bus.address)")
                nook = bus.get_object("org.nook.Nook1", "/org/nook/Nook1", introspect=False)
                render = dbus.Interface(nook, "org.nook.Nook1.Render")
                control = dbus.Interface(nook, "org.nook.Nook1.Control")
                display = dbus.Dictionary({"width": 800.0, "height": 600.0}, signature="sv")
                for i in range(1000):
                    # Back to back, then a pause while subscribed: the watch of the renderer is
                    # being set up for both subscriptions when the second one settles.
                    render.Subscribe(display, ignore_reply=True)
                    render.Unsubscribe(ignore_reply=True)
                    render.Subscribe(display, ignore_reply=True)
                    render.Unsubscribe(ignore_reply=True)
                    render.Subscribe(display)
                    time.sleep(0.002)
                    render.Unsubscribe()
                control.GetState()
                print("cycled", flush=True)
                for line in sys.stdin:
                    render.Subscribe(display)
                    print("subscribed", flush=True)
                """)
            defer { renderer.stop() }
            #expect(await renderer.line(startingWith: "cycled", timeout: .seconds(120)) != nil)
            let cycledBack = await eventually(timeout: .seconds(10)) { await matchRules() == baseline }
            let afterCycles = await matchRules()
            #expect(cycledBack, "after 3000 cycles nookd holds \(afterCycles) match rules, \(baseline) before")
            renderer.send("subscribe")
            #expect(await renderer.line(startingWith: "subscribed") != nil)
            #expect(await eventually(timeout: .seconds(10)) { await matchRules() == baseline + 1 }, "a subscription watches its renderer")
            renderer.stop()
            let leftBack = await eventually(timeout: .seconds(10)) { await matchRules() == baseline }
            let afterLeaving = await matchRules()
            #expect(leftBack, "the renderer left; nookd still holds \(afterLeaving) match rules, \(baseline) before")
            await watcher.close()
            try await Hostile.expectSurvivesRestart(nookd, bus: bus).stop()
        }
    }

    /// `Subscribe` beyond `maxRenderers` (256) is refused with `LimitsExceeded` naming the
    /// limit; subscribing again from a subscribed connection is not a new renderer.
    @Test func subscribingBeyondTheRendererLimitIsRefused() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let result = try await Hostile.python(bus, """
                display = dbus.Dictionary({"width": 800.0, "height": 600.0}, signature="sv")
                conns = []
                for i in range(256):
                    b = dbus.bus.BusConnection("\(bus.address)")
                    b.get_object("org.nook.Nook1", "/org/nook/Nook1", introspect=False).Subscribe(display, dbus_interface="org.nook.Nook1.Render")
                    conns.append(b)
                conns[0].get_object("org.nook.Nook1", "/org/nook/Nook1", introspect=False).Subscribe(display, dbus_interface="org.nook.Nook1.Render")
                print("resubscribed", flush=True)
                try:
                    render.Subscribe(display)
                    print("accepted")
                except dbus.exceptions.DBusException as e:
                    print("refused", e.get_dbus_name(), e.get_dbus_message())
                """)
            #expect(result.stdout.contains("resubscribed"), "\(result.stderr)")
            #expect(result.stdout.contains("refused org.freedesktop.DBus.Error.LimitsExceeded") && result.stdout.contains("maxRenderers"),
                    "\(result.stdout) \(result.stderr)")
            try await Hostile.expectSurvivesRestart(nookd, bus: bus).stop()
        }
    }
}
