import Foundation
import NookBus
import NookCore
import NookTestSupport
import Testing

/// Issue 23: after a flood of updates a renderer was sometimes left showing a stale state,
/// and got plans only when the call queue drained instead of one per frame.
@Suite struct FloodDeliveryTests {
    static let floods = 20
    static let updatesPerFlood = 500
    static let refreshRate = 60.0

    /// A python3-dbus module that registers `module`, starts `song` with an expanded view, says
    /// `ready`, then for each line `<run>` on stdin sends `updates` `UpdateActivity` calls
    /// without waiting for replies (each setting `expanded` to the cover and `<run> tick <n>`),
    /// says `queued <run>` once they are all written to the bus, and `sent <run>` once nookd
    /// has handled them (the reply to a `GetState` sent after them). With `pause`, it rests that
    /// many seconds after every 20 calls, to stretch a flood over many frames.
    static func moduleScript(_ bus: PrivateBus, module: String = "flood", updates: Int = updatesPerFlood, pause: Double = 0) -> String {
        """
        import dbus, sys, time
        bus = dbus.bus.BusConnection("\(bus.address)")
        nook = bus.get_object("org.nook.Nook1", "/org/nook/Nook1", introspect=False)
        modules = dbus.Interface(nook, "org.nook.Nook1.Modules")
        control = dbus.Interface(nook, "org.nook.Nook1.Control")
        def node(kind, props=None, children=()):
            return dbus.Struct((kind, dbus.Dictionary(props or {}, signature="sv"), dbus.Array(list(children), signature="v")), signature="sa{sv}av")
        def expanded(label):
            cover = node("view", {"name": "CoverArt", "width": 156.0, "height": 156.0, "shared": dbus.Dictionary({"id": "cover"}, signature="sv")})
            return node("hstack", {}, [cover, node("text", {"text": label})])
        modules.Register("\(module)", dbus.Dictionary({}, signature="sv"))
        modules.StartActivity("song", dbus.Dictionary({
            "accessibility_label": "Flood", "compact_leading": node("text", {"text": "L"}),
            "compact_trailing": node("text", {"text": "T"}), "minimal": node("text", {"text": "M"}),
            "expanded": expanded("start")}, signature="sv"))
        print("ready", flush=True)
        for line in sys.stdin:
            run = line.strip()
            for n in range(\(updates)):
                modules.UpdateActivity("song", dbus.Dictionary({"expanded": expanded("%s tick %d" % (run, n))}, signature="sv"), ignore_reply=True)
                if \(pause) > 0 and n % 20 == 19:
                    bus.flush()
                    time.sleep(\(pause))
            bus.flush()
            print("queued", run, flush=True)
            control.GetState()
            print("sent", run, flush=True)
        """
    }

    /// The scenario of issue 23, 20 times in one run: a 60 Hz renderer watching the open
    /// nook, a module flooding it. To make the flood the worst case every time, nookd is
    /// stopped (SIGSTOP) while the module sends, so all 500 calls wait when it resumes. Each
    /// time: the final state arrives within a second of nookd handling the last call, in at
    /// most one plan per frame of the flood (+2 for the frames at either edge), and some plan
    /// shows an intermediate state: plans go out while calls are still waiting, not only once
    /// the call queue has drained.
    @Test func everyFloodEndsWithTheFinalStateInAtMostOnePlanPerFrame() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let module = try LineProcess(python: Self.moduleScript(bus), stderrFile: temp.url.appendingPathComponent("module.err"))
            defer { module.stop() }
            try #require(await module.line(startingWith: "ready") != nil,
                         "the module did not start: \((try? String(contentsOf: temp.url.appendingPathComponent("module.err"), encoding: .utf8)) ?? "")")
            let renderer = try await PlanRecorder.subscribe(bus, display: ControlRenderTests.display.merging(["refresh_rate": .double(Self.refreshRate)]) { $1 })
            let control = try await BrokerClient.connect(bus)
            let open = try await ControlRenderTests.control(control, "Open", [WireCodec.vardict([:])])
            try #require(await eventually { renderer.received.contains { $0.serial >= open && $0.texts.contains("start") } },
                         "the open nook never showed the expanded view")

            var failures: [String] = []
            let clock = ContinuousClock()
            for run in 1...Self.floods {
                let label = "run\(run)"
                let before = renderer.count
                kill(nookd.pid, SIGSTOP)
                module.send(label)
                let queued = await module.line(startingWith: "queued \(label)") != nil
                let resumed = clock.now
                kill(nookd.pid, SIGCONT)
                // nookd has handled the last call once the module's next call is answered.
                guard queued, await module.line(startingWith: "sent \(label)") != nil else {
                    Issue.record("the module stopped during \(label)")
                    break
                }
                let lastCall = clock.now
                let final = "\(label) tick \(Self.updatesPerFlood - 1)"
                // Generous: the assertion below is one second; this only tells late from never.
                guard await eventually(timeout: .seconds(5), { renderer.first(showing: final, from: before) != nil }),
                      let arrival = renderer.first(showing: final, from: before) else {
                    let last = renderer.received.last.map { $0.texts.filter { $0.hasPrefix(label) } } ?? []
                    failures.append("\(label): the final state never arrived; the last plan shows \(last)")
                    continue
                }
                let flood = renderer.received.dropFirst(before).filter { $0.arrived <= arrival.arrived }
                let ticks = flood.compactMap { plan in plan.texts.first { $0.hasPrefix(label + " tick ") }.flatMap { Int($0.dropFirst(label.count + 6)) } }
                let duration = (arrival.arrived - resumed) / .seconds(1)
                let allowed = Int((duration * Self.refreshRate).rounded(.up)) + 2
                print("flood \(label): \(flood.count) plans in \(duration) s (allowed \(allowed)); ticks \(ticks)")
                if arrival.arrived - lastCall > .seconds(1) {
                    failures.append("\(label): the final state arrived \(arrival.arrived - lastCall) after nookd handled the last call")
                }
                if flood.count < 1 || flood.count > allowed {
                    failures.append("\(label): \(flood.count) plans over \(duration) s (allowed 1...\(allowed))")
                }
                if !ticks.contains(where: { $0 > 0 && $0 < Self.updatesPerFlood - 1 }) {
                    failures.append("\(label): no plan while the calls were being read (ticks \(ticks)): plans waited for the call queue to drain")
                }
            }
            #expect(failures.isEmpty, "\(failures.count) failures in \(Self.floods) floods:\n\(failures.joined(separator: "\n"))")
            await renderer.close()
            await control.close()
            module.stop()
            try await Hostile.expectSurvivesRestart(nookd, bus: bus).stop()
        }
    }
}
