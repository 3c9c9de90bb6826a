import Foundation
import NookBus
import NookBroker
import NookCore
import NookTestSupport
import Synchronization
import Testing

/// Issue 38, findings 5, 6 and 11: peers that stop reading, and peers that call expensive
/// methods in a loop, cannot freeze nookd or take its bus thread from the others.
///
/// Why a non-reader could freeze nookd: dbus-daemon keeps every message a connection has not
/// read, and charges its bytes to the *sender* until every recipient has read it. Once a
/// sender's share reaches the bus's `max_incoming_bytes`, the daemon stops reading from it, so
/// nothing it sends leaves, replies included. These tests lower that quota on their private bus
/// (16 or 64 MB instead of the session bus's 1 GB), so what took nookd minutes to reach on a
/// desktop happens within seconds; nookd runs with its default limits. The tests are heavy
/// (floods of 4 KB labels, 40 renderers of a 2,000-row panel, loops of expensive calls), so
/// they run one at a time, to load the machine the rest of the suite runs on less.
@Suite(.serialized) struct HostileBackpressureTests {
    static let controlInterface = "org.nook.Nook1.Control"

    static func node(_ kind: String, _ props: [String: PropValue] = [:], _ children: [RawNode] = []) -> RawNode {
        RawNode(kind: kind, props: props, children: children)
    }

    /// An activity whose expanded view is a list of `rows` text rows (one node each).
    static func listSpec(rows: Int, tag: String) -> [String: PropValue] {
        [
            "accessibility_label": .string("A long list"),
            "compact_leading": .node(node("text", ["text": .string("L")])),
            "compact_trailing": .node(node("text", ["text": .string("T")])),
            "minimal": .node(node("text", ["text": .string("M")])),
            "expanded": .node(node("vstack", [:], (0..<rows).map { node("text", ["text": .string("row \($0) of the list, \(tag)")]) })),
        ]
    }

    static func smallSpec(_ text: String) -> [String: PropValue] {
        [
            "accessibility_label": .string("Small"),
            "compact_leading": .node(node("text", ["text": .string("L")])),
            "compact_trailing": .node(node("text", ["text": .string(text)])),
            "minimal": .node(node("text", ["text": .string("M")])),
        ]
    }

    /// dbus-daemon's statistics of one connection (`org.freedesktop.DBus.Debug.Stats`).
    static func stats(_ client: BusConnection, _ name: String, _ key: String) async -> Int {
        (try? await HostileRenderersTests.connectionStats(client, name)).map { HostileRenderersTests.uint($0, key) } ?? -1
    }

    static func log(_ file: URL) -> String { (try? String(contentsOf: file, encoding: .utf8)) ?? "" }

    /// A call to nookd that waits up to two minutes: a busy machine may be slow to answer, a
    /// frozen nookd never does.
    @discardableResult
    static func patiently(_ client: BrokerClient, _ member: String, _ arguments: [DBusValue] = [],
                          interface: String = "org.nook.Nook1.Modules") async throws -> [DBusValue] {
        try await client.connection.call(destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: interface, member: member,
                                          arguments: arguments, timeout: .seconds(120))
    }

    // MARK: Finding 5

    /// Python: 32 connections, each a module with 32 activities whose labels are 4 KB; on
    /// `flood`, `updates` label updates at 100 a second (not waiting for replies), then `flooded`.
    static func labelFlood(_ bus: PrivateBus, updates: Int) -> String {
        """
        import dbus, sys, time
        def node(kind, props=None, children=()):
            return dbus.Struct((kind, dbus.Dictionary(props or {}, signature="sv"), dbus.Array(list(children), signature="v")), signature="sa{sv}av")
        def spec(label):
            return dbus.Dictionary({"accessibility_label": label, "compact_leading": node("text", {"text": "L"}),
                "compact_trailing": node("text", {"text": "T"}), "minimal": node("text", {"text": "M"})}, signature="sv")
        mods = []
        for m in range(32):
            b = dbus.bus.BusConnection("\(bus.address)")
            mod = dbus.Interface(b.get_object("org.nook.Nook1", "/org/nook/Nook1", introspect=False), "org.nook.Nook1.Modules")
            mod.Register("m%d" % m, dbus.Dictionary({}, signature="sv"))
            for a in range(32):
                mod.StartActivity("a%d" % a, spec("m%d a%d " % (m, a) + "x" * 4000))
            mods.append((b, mod))
        print("started", flush=True)
        sys.stdin.readline()
        t0 = time.time()
        for i in range(\(updates)):
            b, mod = mods[i % 32]
            mod.UpdateActivity("a%d" % ((i // 32) % 32), dbus.Dictionary({"accessibility_label": "m%d update %d " % (i % 32, i) + "y" * 4000}, signature="sv"), ignore_reply=True)
            b.flush()
            wait = t0 + (i + 1) / 100.0 - time.time()
            if wait > 0: time.sleep(wait)
        print("flooded", flush=True)
        sys.stdin.readline()
        """
    }

    /// Python: a connection that asks for `StateChanged` (and every `PropertiesChanged`), says
    /// its name, and never reads again.
    static func stateListenerThatNeverReads(_ bus: PrivateBus) -> String {
        """
        import dbus, sys
        b = dbus.bus.BusConnection("\(bus.address)")
        b.add_match_string("type='signal',interface='org.nook.Nook1.Control',member='StateChanged'")
        b.add_match_string("type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged'")
        print("listening", b.get_unique_name(), flush=True)
        sys.stdin.readline()
        """
    }

    /// Finding 5: 32 modules x 32 activities with 4 KB labels, 100 updates a second, and one
    /// connection with a `StateChanged` match that never reads. Before: every broadcast carried
    /// every label (4 MB), the listener's share reached the bus's quota for nookd within a
    /// second, and nookd answered nothing, not even `GetState`. After: a broadcast carries
    /// labels of at most 256 bytes and at most 64 KiB (`truncated` says what was left out), at
    /// most 64 KiB a second, so after six seconds of flood (the quota twenty times over, before)
    /// the listener holds well under the quota and nookd answers `GetState` and a module's calls.
    @Test func aStateListenerThatNeverReadsDoesNotFreezeNookd() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let quota = 16_000_000
        try await PrivateBus.with(limits: ["max_incoming_bytes": quota, "max_outgoing_bytes": quota]) { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let flood = try LineProcess(python: Self.labelFlood(bus, updates: 600), stderrFile: temp.url.appendingPathComponent("flood.err"))
            defer { flood.stop() }
            try #require(await flood.line(startingWith: "started", timeout: .seconds(300)) != nil,
                         "the modules did not start: \(Self.log(temp.url.appendingPathComponent("flood.err")))")
            let silent = try LineProcess(python: Self.stateListenerThatNeverReads(bus))
            defer { silent.stop() }
            let listening = try #require(await silent.line(startingWith: "listening"))
            let silentName = String(listening.split(separator: " ").last ?? "")
            // A status bar that does read, and a module of its own.
            let bar = try await BusConnection.connect(to: .address(bus.address))
            let latest = Locked<Vardict?>(nil)
            _ = try await bar.addMatch(MatchRule(interface: Self.controlInterface, member: "StateChanged")) { signal in
                if let state = try? Vardict(signal.arguments[0]) { latest.withLock { $0 = state } }
            }
            let bystander = try await BrokerClient.connect(bus)
            try await bystander.patientlyRegister("bystander")
            try await bystander.patientlyStart("tick", Self.smallSpec("0"))

            flood.send("go")
            #expect(await flood.line(startingWith: "flooded", timeout: .seconds(120)) != nil)
            let watcher = try await BusConnection.connect(to: .address(bus.address))
            // What the listener has not read: at the bus, beyond what its socket took.
            let held = await Self.stats(watcher, silentName, "OutgoingBytes")
            // nookd answers: GetState (a 4 MB reply here), and a module's call. Patiently: the
            // machine may be busy, but a frozen nookd never answers.
            let state = try Vardict(try await Self.patiently(bystander, "GetState", interface: Self.controlInterface)[0])
            #expect(state["presentation"] != nil)
            try await Self.patiently(bystander, "UpdateActivity", [.string("tick"), WireCodec.vardict([
                "compact_trailing": .node(Self.node("text", ["text": .string("after the flood")])),
            ])])
            let broker = try #require(try await watcher.nameOwner(of: "org.nook.Nook1"))
            let nookdHeld = await Self.stats(watcher, broker, "IncomingBytes")
            print("after the flood: the silent listener holds \(held) bytes, the bus holds \(nookdHeld) of nookd's (quota \(quota))")
            #expect(nookdHeld < quota / 2, "the bus holds \(nookdHeld) bytes of nookd's messages")
            // The reading status bar got broadcasts within their bounds.
            let record = try #require(latest.withLock { $0 }, "the reading status bar got no StateChanged")
            #expect(record["truncated"] == .bool(true), "1,000 activities with 4 KB labels fit in one broadcast?")
            let labels = StateForStatusBarsTests.records(record["items"]).compactMap { item -> Int? in
                if case .string(let label)? = item["accessibility_label"] { label.utf8.count } else { nil }
            }
            #expect(!labels.isEmpty && labels.allSatisfy { $0 <= BroadcastLimits.standard.maxLabelBytes }, "labels of \(labels.max() ?? -1) bytes")

            flood.stop()
            silent.stop()
            for connection in [bar, watcher] { await connection.close() }
            await bystander.close()
            try await Hostile.expectSurvivesRestart(nookd, bus: bus).stop()
        }
    }

    /// Finding 5, without end: where the bus daemon says how much of nookd's output it holds
    /// (`Debug.Stats`), a listener that never reads costs nookd `maxHeldBytes` and then
    /// nothing: broadcasts pause, nookd keeps answering, and once the listener leaves they
    /// resume with the current state. Limits loosened so the flood reaches the pause within
    /// seconds (4 MB of broadcasts a second, 1 MB records, 2 MB held), on a 16 MB quota that
    /// this flood, unpaused, would pass within four seconds.
    @Test func broadcastsPauseWhileTheBusHoldsTooMuchOfNookdsOutput() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let quota = 16_000_000
        try await PrivateBus.with(limits: ["max_incoming_bytes": quota, "max_outgoing_bytes": quota]) { bus in
            let nookd = try await NookdProcess(
                bus: bus, stateDirectory: temp.stateDirectory,
                limits: "broadcast.maxHeldBytes=2000000,broadcast.bytesPerSecond=4000000,broadcast.burstBytes=4000000,broadcast.maxRecordBytes=1000000,broadcast.maxLabelBytes=4096")
            let flood = try LineProcess(python: Self.labelFlood(bus, updates: 1000), stderrFile: temp.url.appendingPathComponent("flood.err"))
            defer { flood.stop() }
            try #require(await flood.line(startingWith: "started", timeout: .seconds(300)) != nil,
                         "the modules did not start: \(Self.log(temp.url.appendingPathComponent("flood.err")))")
            let silent = try LineProcess(python: Self.stateListenerThatNeverReads(bus))
            defer { silent.stop() }
            _ = try #require(await silent.line(startingWith: "listening"))
            let bar = try await BusConnection.connect(to: .address(bus.address))
            let latest = Locked<Vardict?>(nil)
            _ = try await bar.addMatch(MatchRule(interface: Self.controlInterface, member: "StateChanged")) { signal in
                if let state = try? Vardict(signal.arguments[0]) { latest.withLock { $0 = state } }
            }
            let module = try await BrokerClient.connect(bus)
            try await module.patientlyRegister("bystander")

            flood.send("go")
            #expect(await flood.line(startingWith: "flooded", timeout: .seconds(120)) != nil)
            // nookd answers, and paused its broadcasts on the way.
            _ = try await module.patientState()
            try await module.patientlyStart("tick", Self.smallSpec("after the flood"))
            #expect(nookd.log.contains("StateChanged and PropertiesChanged pause"), "no pause: \(nookd.log.suffix(2000))")
            let watcher = try await BusConnection.connect(to: .address(bus.address))
            let broker = try #require(try await watcher.nameOwner(of: "org.nook.Nook1"))
            let held = await Self.stats(watcher, broker, "IncomingBytes")
            print("paused broadcasts: the bus holds \(held) bytes of nookd's messages (quota \(quota))")
            #expect(held < quota / 2)
            // The listener leaves: broadcasts resume, with the state as it is now.
            silent.stop()
            #expect(await eventually(timeout: .seconds(60)) {
                StateForStatusBarsTests.records(latest.withLock { $0 }?["modules"]).contains { $0["module"] == .string("bystander") && $0["activities"] == .array(element: "s", [.string("tick")]) }
            }, "the broadcasts never resumed with the current state: \(nookd.log.suffix(1000))")
            #expect(nookd.log.contains("broadcasts resume"))
            flood.stop()
            for connection in [bar, watcher] { await connection.close() }
            await module.close()
            try await Hostile.expectSurvivesRestart(nookd, bus: bus).stop()
        }
    }

    // MARK: Finding 6

    /// Python: `count` renderers that subscribe (reading the reply, retrying while nookd says
    /// `LimitsExceeded`), say `subscribed`, and never read anything again: neither a plan nor a
    /// ping.
    static func renderersThatNeverRead(_ bus: PrivateBus, count: Int) -> String {
        """
        import dbus, sys, time
        display = dbus.Dictionary({"width": 1512.0, "height": 982.0, "refresh_rate": 60.0}, signature="sv")
        conns = []
        for i in range(\(count)):
            b = dbus.bus.BusConnection("\(bus.address)")
            render = dbus.Interface(b.get_object("org.nook.Nook1", "/org/nook/Nook1", introspect=False), "org.nook.Nook1.Render")
            while True:
                try:
                    render.Subscribe(display, timeout=120)
                    break
                except dbus.exceptions.DBusException as e:
                    if e.get_dbus_name() != "org.freedesktop.DBus.Error.LimitsExceeded": raise
                    time.sleep(0.2)
            conns.append(b)
        print("subscribed", flush=True)
        sys.stdin.readline()
        """
    }

    /// Finding 6: 40 renderers that never read, and an open panel of 2,000 rows (plans of about
    /// half a megabyte). Before: each got its `Subscribe` reply and four plans, 100 MB that the
    /// bus held for them and charged to nookd, past the 64 MB quota: nookd stopped answering.
    /// After: plans a renderer has not read are bounded per renderer (1 MiB) and in total
    /// (32 MiB); nookd answers, and once the silent renderers leave, a reading renderer gets
    /// the final state.
    @Test func renderersThatNeverReadCannotFreezeNookd() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let quota = 64_000_000
        try await PrivateBus.with(limits: ["max_incoming_bytes": quota, "max_outgoing_bytes": quota]) { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let module = try await BrokerClient.connect(bus)
            try await module.patientlyRegister("lists")
            try await module.patientlyStart("list", Self.listSpec(rows: 2000, tag: "start"))
            try await module.patientlyOpen()
            // Ten processes of four renderers (one process may take only so much of nookd's time
            // subscribing, finding 11).
            var silent: [LineProcess] = []
            defer { for process in silent { process.stop() } }
            for index in 0..<10 {
                silent.append(try LineProcess(python: Self.renderersThatNeverRead(bus, count: 4), stderrFile: temp.url.appendingPathComponent("silent\(index).err")))
            }
            for (index, process) in silent.enumerated() {
                try #require(await process.line(startingWith: "subscribed", timeout: .seconds(300)) != nil,
                             "\(Self.log(temp.url.appendingPathComponent("silent\(index).err")))")
            }
            // Changes, each of which every renderer would get a plan of, until nookd says that
            // renderers have as much unread as it allows in all (a probe's Subscribe is refused
            // naming the total). Before, the plans the silent renderers were sent kept adding up
            // instead, until the bus stopped reading from nookd and a call here timed out.
            let probe = try await BusConnection.connect(to: .address(bus.address))
            var saturated = false
            var index = 0
            while !saturated {
                index += 1
                try await module.patientlyUpdate("list", ["expanded": Self.listSpec(rows: 2000, tag: "update \(index)")["expanded"]!])
                try await Task.sleep(for: .milliseconds(100))
                guard index % 5 == 0 else { continue }
                do {
                    _ = try await probe.call(destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: "org.nook.Nook1.Render",
                                             member: "Subscribe", arguments: [WireCodec.vardict(HostileRenderersTests.display(rate: 60))], timeout: .seconds(20))
                } catch let error as DBusError where error.name == "org.freedesktop.DBus.Error.LimitsExceeded" {
                    saturated = error.message.contains("maxUnreadPlanBytesTotal")
                }
            }
            await probe.close()
            print("40 silent renderers: renderers had the most unread plans nookd allows after \(index) changes")
            // nookd answers: GetState, and the module's call.
            _ = try await module.patientState()
            try await module.patientlyUpdate("list", ["expanded": Self.listSpec(rows: 2000, tag: "final")["expanded"]!])
            let watcher = try await BusConnection.connect(to: .address(bus.address))
            let broker = try #require(try await watcher.nameOwner(of: "org.nook.Nook1"))
            let held = await Self.stats(watcher, broker, "IncomingBytes")
            print("40 silent renderers: the bus holds \(held) bytes of nookd's messages (quota \(quota))")
            #expect(held < quota, "the bus holds \(held) bytes of nookd's messages")

            // Once they leave, what they held is freed: a renderer may subscribe, and gets plans.
            for process in silent { process.stop() }
            let reader = Locked<PlanRecorder?>(nil)
            #expect(await eventually(timeout: .seconds(60)) {
                if let recorder = try? await PlanRecorder.subscribe(bus, display: HostileRenderersTests.display(rate: 60)) {
                    reader.withLock { $0 = recorder }
                }
                return reader.withLock { $0 } != nil
            }, "no renderer could subscribe after the silent ones left")
            try await module.patientlyUpdate("list", ["expanded": Self.listSpec(rows: 2000, tag: "after they left")["expanded"]!])
            #expect(await eventually(timeout: .seconds(60)) {
                reader.withLock { $0 }?.received.contains { plan in plan.texts.contains { $0.hasSuffix("after they left") } } ?? false
            }, "the reading renderer never got the state after the silent ones left")
            await reader.withLock { $0 }?.close()
            await watcher.close()
            await module.close()
            try await Hostile.expectSurvivesRestart(nookd, bus: bus).stop()
        }
    }

    /// Python: a renderer that subscribes, reads its reply, then reads nothing until told
    /// `resume`: it then reads what waited (answering nookd's pings) for a second, subscribes
    /// again, and says `resubscribed` or `refused <error> <message>`.
    static func rendererThatStopsReading(_ bus: PrivateBus) -> String {
        """
        import dbus, sys
        from dbus.mainloop.glib import DBusGMainLoop
        from gi.repository import GLib
        DBusGMainLoop(set_as_default=True)
        b = dbus.bus.BusConnection("\(bus.address)")
        render = dbus.Interface(b.get_object("org.nook.Nook1", "/org/nook/Nook1", introspect=False), "org.nook.Nook1.Render")
        display = dbus.Dictionary({"width": 1512.0, "height": 982.0, "refresh_rate": 60.0}, signature="sv")
        render.Subscribe(display)
        print("subscribed", b.get_unique_name(), flush=True)
        sys.stdin.readline()
        loop = GLib.MainLoop()
        GLib.timeout_add(1000, loop.quit)
        loop.run()
        try:
            render.Subscribe(display)
            print("resubscribed", flush=True)
        except dbus.exceptions.DBusException as e:
            print("refused", e.get_dbus_name(), e.get_dbus_message(), flush=True)
        sys.stdin.readline()
        """
    }

    /// Finding 6, the other half: a renderer with its budget of bytes in plans it has not
    /// acknowledged (`maxUnreadPlanBytes`, 2,000 bytes here, 1 MiB by default) that acknowledges
    /// nothing for `silentRendererTimeout` (2 s here, 30 s by default) is dropped, which frees
    /// its place among `maxRenderers`; once it reads, it may subscribe again.
    @Test func aRendererThatReadsNothingIsDroppedAndMaySubscribeAgain() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            // Plans of a few kilobytes: a budget of 2,000 bytes stands for the megabyte of a big panel.
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory,
                                               limits: "render.silentRendererTimeout=2,render.maxUnreadPlanBytes=2000")
            let module = try await BrokerClient.connect(bus)
            try await module.patientlyRegister("ticker")
            try await module.patientlyStart("tick", Self.smallSpec("0"))
            let renderer = try LineProcess(python: Self.rendererThatStopsReading(bus), stderrFile: temp.url.appendingPathComponent("renderer.err"))
            defer { renderer.stop() }
            let subscribed = try #require(await renderer.line(startingWith: "subscribed"),
                                          "\(Self.log(temp.url.appendingPathComponent("renderer.err")))")
            let name = String(subscribed.split(separator: " ").last ?? "")
            // Changes until nookd has dropped it: its window fills after four plans, and then
            // nothing it was sent is acknowledged.
            let index = Atomic<Int>(0)
            let dropped = await eventually(timeout: .seconds(60)) {
                let tick = index.add(1, ordering: .relaxed).newValue
                try? await module.update("tick", ["compact_trailing": .node(Self.node("text", ["text": .string("tick \(tick)")]))])
                return nookd.log.contains("renderer \(name) has read nothing")
            }
            #expect(dropped, "the silent renderer was never dropped: \(nookd.log.suffix(2000))")
            renderer.send("resume")
            let answer = await renderer.line(startingWith: "", timeout: .seconds(60))
            #expect(answer == "resubscribed", "\(answer ?? "no answer")")
            _ = try await module.patientState()
            renderer.stop()
            await module.close()
            try await Hostile.expectSurvivesRestart(nookd, bus: bus).stop()
        }
    }

    // MARK: Finding 11

    /// Python: three connections of one process, each in its own thread, looping on
    /// `PreviewPlan("open")` (two of them) and `Subscribe` (the third) until one is refused or
    /// `seconds` pass; each says `refused <call> <error> <message>` or `done <call> <count>`.
    static func expensiveLoops(_ bus: PrivateBus, seconds: Int) -> String {
        """
        import dbus, sys, threading, time
        display = dbus.Dictionary({"width": 1512.0, "height": 982.0, "refresh_rate": 60.0}, signature="sv")
        lock = threading.Lock()
        def loop(call):
            b = dbus.bus.BusConnection("\(bus.address)")
            nook = b.get_object("org.nook.Nook1", "/org/nook/Nook1", introspect=False)
            end = time.time() + \(seconds)
            count = 0
            while time.time() < end:
                try:
                    if call == "Subscribe":
                        nook.Subscribe(display, dbus_interface="org.nook.Nook1.Render", timeout=120)
                    else:
                        nook.PreviewPlan("open", dbus.Dictionary({}, signature="sv"), dbus_interface="org.nook.Nook1.Control", timeout=120)
                    count += 1
                except dbus.exceptions.DBusException as e:
                    with lock:
                        sys.stdout.write("refused %s %s %s\\n" % (call, e.get_dbus_name(), e.get_dbus_message()))
                        sys.stdout.flush()
                    return
            with lock:
                sys.stdout.write("done %s %d\\n" % (call, count))
                sys.stdout.flush()
        threads = [threading.Thread(target=loop, args=(call,)) for call in ["PreviewPlan", "PreviewPlan", "Subscribe"]]
        for t in threads: t.start()
        for t in threads: t.join()
        print("finished", flush=True)
        """
    }

    /// Python: one connection registering a module with 3,000 named rules again and again
    /// (each `Register` validates them all) until refused or `seconds` pass.
    static func registerLoop(_ bus: PrivateBus, seconds: Int) -> String {
        """
        import dbus, time
        b = dbus.bus.BusConnection("\(bus.address)")
        modules = dbus.Interface(b.get_object("org.nook.Nook1", "/org/nook/Nook1", introspect=False), "org.nook.Nook1.Modules")
        rules = dbus.Dictionary({"rules.named.r%d" % i: "p-%d" % (i % 8) for i in range(3000)}, signature="sv")
        info = dbus.Dictionary({"rules": rules}, signature="sv")
        end = time.time() + \(seconds)
        count = 0
        while time.time() < end:
            try:
                modules.Register("ruled", info, timeout=120)
                count += 1
            except dbus.exceptions.DBusException as e:
                print("refused Register", e.get_dbus_name(), e.get_dbus_message(), flush=True)
                break
        else:
            print("done Register", count, flush=True)
        print("finished", flush=True)
        """
    }

    /// Finding 11: three connections of one process loop on `PreviewPlan` and `Subscribe` of a
    /// 2,000-row panel (the issue's was 3,000; this is the debug build), and another process
    /// loops on `Register` with 3,000 named rules. Before:
    /// nothing refused them, and they took the bus thread (another module's update went from
    /// 0.5 ms to 285 ms). After: each process may take a quarter of the bus thread's time (and
    /// 1 s at once) for these calls; beyond it they are refused with `LimitsExceeded` naming
    /// the call and `workShare`, and another module's calls all complete meanwhile.
    @Test func expensiveCallsAreLimitedPerProcess() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            // A share far below the default: the share is of wall time, and on a machine so
            // busy that nookd's bus thread gets less CPU than a quarter of a second each second
            // (a CI run beside two builds: 35 previews in 300 s), no loop could exceed 25%. Any
            // loop exceeds 0.5%, however little CPU the machine leaves nookd.
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory, limits: "calls.workShare=0.005,calls.workBurst=0.05")
            let module = try await BrokerClient.connect(bus)
            try await module.patientlyRegister("lists")
            try await module.patientlyStart("list", Self.listSpec(rows: 2000, tag: "start"))
            try await module.patientlyOpen()
            let bystander = try await BrokerClient.connect(bus)
            try await bystander.patientlyRegister("bystander")
            try await bystander.patientlyStart("tick", Self.smallSpec("0"))

            // Until refused: how soon depends on how much CPU the machine leaves nookd's bus
            // thread (the share is of its CPU time), so the bound is only there to end a run of
            // the old code.
            let seconds = 300
            let loops = try LineProcess(python: Self.expensiveLoops(bus, seconds: seconds), stderrFile: temp.url.appendingPathComponent("loops.err"))
            defer { loops.stop() }
            let register = try LineProcess(python: Self.registerLoop(bus, seconds: seconds), stderrFile: temp.url.appendingPathComponent("register.err"))
            defer { register.stop() }
            // Another module's calls all complete while the loops run.
            for index in 1...30 {
                try await bystander.patientlyUpdate("tick", ["compact_trailing": .node(Self.node("text", ["text": .string("tick \(index)")]))])
            }
            var lines: [String] = []
            while let line = await loops.line(startingWith: "", timeout: .seconds(Double(seconds) + 120)), line != "finished" { lines.append(line) }
            let registered = await register.line(startingWith: "refused", timeout: .seconds(Double(seconds) + 120))
            print("expensive loops: \(lines); \(registered ?? "Register never refused")")
            let refusals = lines.filter { $0.hasPrefix("refused") }
            #expect(!refusals.isEmpty, "no loop was refused: \(lines) \(Self.log(temp.url.appendingPathComponent("loops.err")))")
            // `PreviewPlan` is refused for the time it takes; `Subscribe` for that too, or for the
            // plans it has not acknowledged (python-dbus answers pings only from a main loop,
            // and this one has none), whichever comes first.
            let previewRefusals = refusals.filter { $0.hasPrefix("refused PreviewPlan") }
            #expect(!previewRefusals.isEmpty, "PreviewPlan was never refused: \(lines)")
            for refusal in refusals {
                #expect(refusal.contains("org.freedesktop.DBus.Error.LimitsExceeded"), "\(refusal)")
                if refusal.hasPrefix("refused PreviewPlan") {
                    #expect(refusal.contains("PreviewPlan: process ") && refusal.contains("workShare"), "the refusal does not name the call, the process and the limit: \(refusal)")
                } else {
                    #expect(refusal.contains("Subscribe: ") && (refusal.contains("workShare") || refusal.contains("maxUnreadPlanBytes")), "\(refusal)")
                }
            }
            #expect(registered?.contains("org.freedesktop.DBus.Error.LimitsExceeded") == true && registered?.contains("Register: process ") == true,
                    "\(registered ?? "Register never refused") \(Self.log(temp.url.appendingPathComponent("register.err")))")
            try await bystander.patientlyUpdate("tick", ["compact_trailing": .node(Self.node("text", ["text": .string("after the loops")]))])
            loops.stop()
            register.stop()
            await bystander.close()
            await module.close()
            try await Hostile.expectSurvivesRestart(nookd, bus: bus).stop()
        }
    }
}

/// The calls these tests make, each waiting up to two minutes (`HostileBackpressureTests.patiently`):
/// the suite runs beside heavy work, and what matters is that nookd answers at all.
extension BrokerClient {
    fileprivate func patientlyRegister(_ module: String) async throws {
        try await HostileBackpressureTests.patiently(self, "Register", [.string(module), WireCodec.vardict([:])])
    }

    fileprivate func patientlyStart(_ activity: String, _ spec: [String: PropValue]) async throws {
        try await HostileBackpressureTests.patiently(self, "StartActivity", [.string(activity), WireCodec.vardict(spec)])
    }

    fileprivate func patientlyUpdate(_ activity: String, _ changes: [String: PropValue]) async throws {
        try await HostileBackpressureTests.patiently(self, "UpdateActivity", [.string(activity), WireCodec.vardict(changes)])
    }

    fileprivate func patientState() async throws -> Vardict {
        try Vardict(try await HostileBackpressureTests.patiently(self, "GetState", interface: HostileBackpressureTests.controlInterface)[0])
    }

    fileprivate func patientlyOpen() async throws {
        try await HostileBackpressureTests.patiently(self, "Open", [WireCodec.vardict([:])], interface: HostileBackpressureTests.controlInterface)
    }
}
