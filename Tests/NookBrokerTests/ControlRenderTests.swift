import Foundation
import NookBroker
import NookBus
import NookCore
import NookTestSupport
import Testing

/// Control and Render against the real nookd: every action's plan reaches a subscribed renderer.
@Suite struct ControlRenderTests {
    static let display: [String: PropValue] = [
        "width": .double(1512), "height": .double(982), "notch_width": .double(200), "notch_height": .double(32),
        "scale": .double(2), "refresh_rate": .double(60), "name": .string("test"),
    ]

    static func node(_ kind: String, _ props: [String: PropValue] = [:], _ children: [RawNode] = []) -> RawNode {
        RawNode(kind: kind, props: props, children: children)
    }

    /// The seed's cover: 20 pt in the pill, 156 pt in the home, both marked `cover`.
    static func cover(_ size: Double) -> RawNode {
        node("view", ["name": .string("CoverArt"), "width": .double(size), "height": .double(size), "shared": .dictionary(["id": .string("cover")])])
    }

    static func songSpec(title: String = "Quiet Song") -> [String: PropValue] {
        [
            "accessibility_label": .string("Now playing"),
            "compact_leading": .node(cover(20)),
            "compact_trailing": .node(node("text", ["text": .string(title)])),
            "minimal": .node(node("image", ["symbol": .string("music.note")])),
        ]
    }

    /// A renderer: a connection that subscribed and collects its Plan signals.
    struct Renderer {
        let client: BrokerClient
        let plans: SignalLog
        let first: Vardict

        static func subscribe(_ bus: PrivateBus, display: [String: PropValue] = ControlRenderTests.display) async throws -> Renderer {
            let client = try await BrokerClient.connect(bus)
            let plans = SignalLog()
            _ = try await client.connection.addMatch(MatchRule(path: "/org/nook/Nook1", interface: "org.nook.Nook1.Render", member: "Plan")) { plans.append($0) }
            let reply = try await client.call("Subscribe", [WireCodec.vardict(display)], interface: "org.nook.Nook1.Render")
            return Renderer(client: client, plans: plans, first: try Vardict(reply[1]))
        }

        var received: [Vardict] { plans.all.compactMap { try? Vardict($0.arguments[0]) } }

        /// Waits for a plan with this serial (or, with nil, for any plan matching `where`).
        func plan(serial: UInt64? = nil, where matches: @escaping @Sendable (Vardict) -> Bool = { _ in true }) async -> Vardict? {
            let plans = self.plans
            let found = await eventually {
                plans.all.contains { signal in
                    guard let plan = try? Vardict(signal.arguments[0]) else { return false }
                    return (serial == nil || plan["serial"] == .uint64(serial!)) && matches(plan)
                }
            }
            guard found else { return nil }
            return received.last { (serial == nil || $0["serial"] == .uint64(serial!)) && matches($0) }
        }
    }

    /// A private bus, the real nookd, and a connection registered as the module `music`.
    static func withMusic(_ body: (PrivateBus, NookdProcess, BrokerClient) async throws -> Void) async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let music = try await BrokerClient.connect(bus)
            try await music.register("music")
            try await body(bus, nookd, music)
        }
    }

    static func keys(_ plan: Vardict) -> [String] {
        guard case .array(_, let elements)? = plan["elements"] else { return [] }
        return elements.compactMap { try? Vardict($0) }.compactMap { if case .string(let key)? = $0["key"] { key } else { nil } }
    }

    static func control(_ client: BrokerClient, _ member: String, _ arguments: [DBusValue] = []) async throws -> UInt64 {
        let reply = try await client.call(member, arguments, interface: "org.nook.Nook1.Control")
        guard case .uint64(let serial)? = reply.first else { throw TestSupportError("\(member) returned \(reply)") }
        return serial
    }

    @Test func subscribeGetsAFreshWindowAndOpenMovesTheCoverDirectly() async throws {
        try await Self.withMusic { bus, nookd, music in
            try await music.call("SetContent", [.string("home"), Self.node("hstack", [:], [Self.cover(156), Self.node("text", ["text": .string("Quiet Song")])]).wireValue])
            try await music.start("song", Self.songSpec())
            let renderer = try await Renderer.subscribe(bus)
            #expect(renderer.first["cause"] == .string("subscribe") && renderer.first["fresh_window"] == .bool(true))
            #expect(renderer.first["to"] == .string("pill"))

            let serial = try await Self.control(music, "Open", [WireCodec.vardict(["onto": .string("home")])])
            let plan = try #require(await renderer.plan(serial: serial), "no plan \(serial): \(nookd.log)")
            #expect(plan["cause"] == .string("open") && plan["from"] == .string("pill") && plan["to"] == .string("expanded"))
            #expect(plan["to_content"] == .string("home:music"))
            #expect(Self.keys(plan) == ["music/cover"], "the cover moves (rule 4)")
            #expect(plan["conversion"] == .string("direct"), "a shared counterpart makes a claim convert directly (rule 13)")
            #expect(try await music.state()["presentation"] == .string("expanded"))

            let close = try await Self.control(music, "Close", [WireCodec.vardict([:])])
            #expect(await renderer.plan(serial: close)?["to"] == .string("pill"))
            await renderer.client.close()
            await music.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }

    @Test func plansAreUnicastToSubscribersOnly() async throws {
        try await Self.withMusic { bus, nookd, music in
            try await music.start("song", Self.songSpec())
            let renderer = try await Renderer.subscribe(bus)
            let bystander = try await BrokerClient.connect(bus)
            let overheard = SignalLog()
            _ = try await bystander.connection.addMatch(MatchRule(interface: "org.nook.Nook1.Render", member: "Plan")) { overheard.append($0) }
            // Peek needs a peek view: the song has none yet, so the call fails and nothing is planned.
            _ = await expectDBusError(.invalidArgs, containing: "no peek view") {
                _ = try await Self.control(music, "Peek", [.string("music"), .string("song")])
            }
            try await music.update("song", ["peek": .node(Self.node("text", ["text": .string("peek")]))])
            let peek = try await Self.control(music, "Peek", [.string("music"), .string("song")])
            #expect(await renderer.plan(serial: peek)?["to"] == .string("peek"))
            #expect(overheard.all.isEmpty, "a connection that did not subscribe overhears no plan")
            await bystander.close()
            await renderer.client.close()
            await music.close()
            _ = await nookd.stop()
        }
    }

    @Test func pointerHoverOpensAndExitCloses() async throws {
        try await Self.withMusic { bus, nookd, music in
            var spec = Self.songSpec()
            spec["expanded"] = .node(Self.node("vstack", [:], [Self.cover(120)]))
            try await music.start("song", spec)
            let renderer = try await Renderer.subscribe(bus)
            try await renderer.client.call("Pointer", [.string("enter")], interface: "org.nook.Nook1.Render")
            let open = try #require(await renderer.plan { $0["cause"] == .string("open") })
            #expect(open["to_content"] == .string("activity:music/song") && open["conversion"] == .string("direct"))
            try await renderer.client.call("Pointer", [.string("exit")], interface: "org.nook.Nook1.Render")
            #expect(await renderer.plan { $0["cause"] == .string("close") }?["to"] == .string("pill"))
            _ = await expectDBusError(.invalidArgs, containing: "wiggle") {
                try await renderer.client.call("Pointer", [.string("wiggle")], interface: "org.nook.Nook1.Render")
            }
            await renderer.client.close()
            await music.close()
            _ = await nookd.stop()
        }
    }

    @Test func floodsAreCoalescedAndTheFinalStateArrives() async throws {
        try await Self.withMusic { bus, nookd, music in
            try await music.start("song", Self.songSpec())
            let renderer = try await Renderer.subscribe(bus, display: Self.display.merging(["refresh_rate": .double(10)]) { $1 })
            let updates = 200
            let clock = ContinuousClock()
            let began = clock.now
            for index in 1...updates {
                try await music.update("song", ["compact_trailing": .node(Self.node("text", ["text": .string("update \(index)")]))])
            }
            // The last update's text must be in the scene of the last plan received.
            let final = try #require(await renderer.plan { plan in
                guard case .dictionary(_, _, let entries)? = plan["scene"].map({ $0 }),
                      let nodes = entries.first(where: { $0.key == .string("nodes") })?.value else { return false }
                return "\(nodes)".contains("update \(updates)")
            }, "the final state never arrived")
            #expect(final["cause"] == .string("activity_updated"))
            let updatePlans = renderer.received.filter { $0["cause"] == .string("activity_updated") }.count
            // At most one plan per frame at 10 Hz, however long the flood took on a loaded
            // machine (a fixed count fails when the updates themselves are slow).
            let elapsed = clock.now - began
            let frames = Int((Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) * 10) + 2
            #expect(updatePlans <= frames, "\(updatePlans) plans for \(updates) updates in \(elapsed): more than one per frame")
            await renderer.client.close()
            await music.close()
            _ = await nookd.stop()
        }
    }

    /// Changes that wait for one plan share it: its `cause` is the latest; `causes` (an
    /// addition) still tells the renderer that an activity started in it.
    ///
    /// The changes are made to wait by the renderer's window rather than by a frame: frames
    /// are ticks of the broker's clock, so a frame boundary can fall between any two calls
    /// however fast they are sent. Here the renderer reads nothing (its bus thread is held)
    /// until its window of unacknowledged plans is full, so the three calls pile up into one
    /// latest state whatever the machine's speed; once it reads again, the next plan covers
    /// all of them.
    @Test func aPlanCoveringSeveralChangesListsEveryCause() async throws {
        try await Self.withMusic { bus, nookd, music in
            try await music.start("song", Self.songSpec())
            let renderer = try await Renderer.subscribe(bus)
            @Sendable func text(_ text: String) -> [String: PropValue] {
                ["compact_trailing": .node(Self.node("text", ["text": .string(text)]))]
            }
            @Sendable func plansSent() async throws -> UInt64 {
                guard case .uint64(let sent)? = try await music.state()["plans_sent"] else { throw TestSupportError("GetState has no plans_sent") }
                return sent
            }
            let hold = try await BusThreadHold(renderer.client.connection)
            defer { hold.release() }
            // Fill the window: one change at a time, each sent (plans_sent says so) before the
            // next, and none acknowledged while the renderer answers no Ping.
            let window = RenderLimits.standard.maxUnacknowledgedPlans
            let before = try await plansSent()
            var filled = ContinuousClock.now
            for index in 1...window {
                filled = .now
                try await music.update("song", text("fill \(index)"))
                let sent = try await eventually(timeout: .seconds(60)) { try await plansSent() >= before + UInt64(index) }
                try #require(sent, "plan \(index) of the window was never sent: \(nookd.log)")
            }
            // The window is full: these wait, and pile up into one latest state. Each call is
            // answered once nookd has applied it.
            try await music.update("song", text("a"))
            try await music.start("podcast", Self.songSpec())
            try await music.update("song", text("b"))
            hold.release()
            @Sendable func causes(_ plan: Vardict) -> [DBusValue] {
                guard case .array(_, let items)? = plan["causes"] else { return [] }
                return items
            }
            let shared = try #require(await renderer.plan { causes($0).contains(.string("activity_started")) },
                                      "no plan covered the start: \(renderer.received.map { $0["causes"] })")
            let caughtUp = ContinuousClock.now
            #expect(!renderer.received.contains { $0["cause"] == .string("activity_started") },
                    "the start had a plan of its own: \(renderer.received.map { $0["causes"] })")
            #expect("\(shared["scene"] ?? .string(""))".contains("\"b\""), "the shared plan shows the latest state")
            // A window full for `stallTime` (1 s) while a change waits makes the next plan a
            // fresh window (FrameScheduler): possible only when the window stayed full that
            // long, which the time between filling it and receiving the plan bounds.
            if shared["fresh_window"] == .bool(true) {
                #expect(caughtUp - filled >= .seconds(RenderLimits.standard.stallTime),
                        "a fresh window although the window was full for only \(caughtUp - filled)")
                #expect(shared["cause"] == .string("subscribe"))
                #expect(causes(shared) == [.string("activity_started"), .string("activity_updated"), .string("subscribe")])
            } else {
                #expect(shared["cause"] == .string("activity_updated"), "the latest change is the cause")
                #expect(causes(shared) == [.string("activity_started"), .string("activity_updated")], "every cause, in order")
            }
            await renderer.client.close()
            await music.close()
            _ = await nookd.stop()
        }
    }

    @Test func reduceMotionPropertyAndPreviewChangeNothingElse() async throws {
        try await Self.withMusic { bus, nookd, music in
            try await music.call("SetContent", [.string("home"), Self.node("hstack", [:], [Self.cover(156)]).wireValue])
            try await music.start("song", Self.songSpec())
            let preview = try Vardict(try await music.call("PreviewPlan", [.string("open"), WireCodec.vardict(["onto": .string("home")])],
                                                          interface: "org.nook.Nook1.Control")[0])
            #expect(Self.keys(preview) == ["music/cover"])
            #expect(try await music.state()["presentation"] == .string("pill"), "a preview changes nothing")
            _ = try await music.call("Set", [.string("org.nook.Nook1.Control"), .string("ReduceMotion"), .variant(.bool(true))],
                                     interface: "org.freedesktop.DBus.Properties")
            let reduced = try Vardict(try await music.call("PreviewPlan", [.string("open"), WireCodec.vardict(["onto": .string("home")])],
                                                          interface: "org.nook.Nook1.Control")[0])
            #expect(reduced["reduce_motion"] == .bool(true) && Self.keys(reduced).isEmpty, "Reduce Motion: nothing moves (rule 18)")
            #expect(try await music.state()["reduce_motion"] == .bool(true))
            _ = await expectDBusError(.invalidTheme, containing: "transition.peek") {
                try await music.call("SetTokens", [WireCodec.vardict(["transition.peek": .string("{transition.nowhere}")])],
                                     interface: "org.nook.Nook1.Control")
            }
            try await music.call("SetTokens", [WireCodec.vardict(["motion.hideDip": .string("90ms")])], interface: "org.nook.Nook1.Control")
            let tokens = try Vardict(try await music.call("GetTokens", interface: "org.nook.Nook1.Control")[0])
            #expect(tokens["motion.hideDip"] != nil)
            await music.close()
            _ = await nookd.stop()
        }
    }

    /// `DisplayChanged` from a renderer re-plans that renderer; from a control client, every one.
    @Test func displayChangedGivesFreshWindowsInTheNewGeometry() async throws {
        try await Self.withMusic { bus, nookd, music in
            try await music.start("song", Self.songSpec())
            let renderer = try await Renderer.subscribe(bus)
            let wide: [String: PropValue] = ["width": .double(3000), "height": .double(1000)]
            let own = try await Self.control(renderer.client, "DisplayChanged", [WireCodec.vardict(wide)])
            let plan = try #require(await renderer.plan(serial: own))
            #expect(plan["cause"] == .string("display_changed") && plan["fresh_window"] == .bool(true))
            let chrome = try Vardict(try #require(plan["chrome"]))
            guard case .structure(let rect)? = chrome["to_rect"], case .double(let x) = rect[0], case .double(let w) = rect[2] else {
                Issue.record("no chrome rect"); return
            }
            #expect(x + w / 2 == 1500, "the pill is centred on the new 3000 pt display")
            let fromShell = try await Self.control(music, "DisplayChanged", [WireCodec.vardict(["width": .double(1920), "height": .double(1080)])])
            #expect(await renderer.plan(serial: fromShell)?["cause"] == .string("display_changed"))
            for client in [music, renderer.client] { await client.close() }
            _ = await nookd.stop()
        }
    }

    /// `Control.EndActivity` (added to v1): the user ends another connection's activity; the
    /// module is told, and a renderer sees the activity end.
    @Test func controlEndActivityDismissesAndTellsTheModule() async throws {
        try await Self.withMusic { bus, nookd, music in
            try await music.start("song", Self.songSpec())
            let renderer = try await Renderer.subscribe(bus)
            let user = try await BrokerClient.connect(bus)
            _ = await expectDBusError(.unknownActivity, containing: "podcast") {
                try await user.call("EndActivity", [.string("music"), .string("podcast"), WireCodec.vardict([:])], interface: "org.nook.Nook1.Control")
            }
            try await user.call("EndActivity", [.string("music"), .string("song"), WireCodec.vardict(["dismissal": .string("immediate")])],
                                interface: "org.nook.Nook1.Control")
            #expect(try await user.activities().isEmpty)
            #expect(await eventually { music.diagnosticCodes.contains("activity-dismissed") }, "the module was not told")
            #expect(await renderer.plan { $0["cause"] == .string("activity_ended") }?["to"] == .string("hidden"))
            for client in [user, music, renderer.client] { await client.close() }
            _ = await nookd.stop()
        }
    }

    /// A renderer sharing no code with us: Debian's python3-dbus (libdbus-1) subscribes and
    /// prints the serial and cause of every plan it gets.
    @Test func pythonRendererReceivesPlans() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let renderer = try HelperProcess("/usr/bin/python3", ["-u", "-c", """
                import dbus, sys
                from dbus.mainloop.glib import DBusGMainLoop
                from gi.repository import GLib
                DBusGMainLoop(set_as_default=True)
                bus = dbus.bus.BusConnection("\(bus.address)")
                nook = bus.get_object("org.nook.Nook1", "/org/nook/Nook1")
                def plan(p):
                    print("plan", int(p["serial"]), str(p["cause"]), str(p["to"]), flush=True)
                bus.add_signal_receiver(plan, signal_name="Plan", dbus_interface="org.nook.Nook1.Render")
                handle, first = nook.Subscribe({"width": 1920.0, "height": 1080.0, "capabilities": dbus.Array([], signature="s")},
                                               dbus_interface="org.nook.Nook1.Render")
                print("subscribed", str(handle), str(first["cause"]), int(first["serial"]), flush=True)
                GLib.MainLoop().run()
                """])
            let subscribed = renderer.readLine() ?? ""
            #expect(subscribed.hasPrefix("subscribed /org/nook/Nook1/subscribers/"))
            // Serials start at the broker's start time in µs (docs/broker.md): the next plan is one later.
            let first = try #require(subscribed.split(separator: " ").last.flatMap { UInt64($0) }, "\(subscribed)")
            let music = try await BrokerClient.connect(bus)
            try await music.register("music")
            try await music.start("song", Self.songSpec())
            #expect(renderer.readLine() == "plan \(first + 1) activity_started pill")
            renderer.kill(SIGKILL)
            // A vanished renderer is dropped; the broker keeps serving.
            try await music.update("song", ["relevance": .double(3)])
            #expect(try await music.activities() == ["music/song"])
            await music.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }
}
