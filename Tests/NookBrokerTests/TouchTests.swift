import Foundation
import NookBus
import NookCore
import NookTestSupport
import Testing

/// Contract 1.1 Touch against the real nookd on a private bus: a renderer's `Activate` and a
/// script's `Invoke` reach the owning module as `ActionInvoked`, and nothing else does.
@Suite(.serialized) struct TouchTests {
    typealias Renderer = ControlRenderTests.Renderer
    static func node(_ kind: String, _ props: [String: PropValue] = [:], _ children: [RawNode] = []) -> RawNode {
        RawNode(kind: kind, props: props, children: children)
    }

    /// The song with a pause control in the pill (compact trailing) and a plain title beside it.
    static func songSpec(action: String = "pause") -> [String: PropValue] {
        var spec = ControlRenderTests.songSpec()
        spec["compact_trailing"] = .node(node("hstack", [:], [
            node("text", ["text": .string("Quiet Song")]),
            node("image", ["symbol": .string("pause.fill"), "action": .string(action), "action_label": .string("Pause")]),
        ]))
        return spec
    }

    /// A module connection that records the `ActionInvoked` signals it receives.
    struct Listener {
        let client: BrokerClient
        let invoked = SignalLog()

        static func connect(_ bus: PrivateBus, module: String?) async throws -> Listener {
            let listener = Listener(client: try await BrokerClient.connect(bus))
            let log = listener.invoked
            // Matches every ActionInvoked the bus routes here, whoever it was meant for.
            _ = try await listener.client.connection.addMatch(MatchRule(interface: "org.nook.Nook1.Modules", member: "ActionInvoked")) { log.append($0) }
            if let module { try await listener.client.register(module) }
            return listener
        }

        /// (activity, action, info) of each signal received.
        var actions: [(activity: String, action: String, info: Vardict)] {
            invoked.all.compactMap { signal in
                guard signal.arguments.count == 3, case .string(let activity) = signal.arguments[0],
                    case .string(let action) = signal.arguments[1], let info = try? Vardict(signal.arguments[2])
                else { return nil }
                return (activity, action, info)
            }
        }
    }

    /// Where a control sits in a plan's scene: what `Activate` names.
    struct Target {
        var serial: UInt64
        var slot: String
        var owner: String
        var path: String

        var wire: DBusValue {
            WireCodec.vardict(["serial": .uint(serial), "slot": .string(slot), "owner": .string(owner), "path": .string(path)])
        }

        /// The node carrying `action` in `plan`'s scene.
        static func find(_ action: String, in plan: Vardict) -> Target? {
            guard case .uint64(let serial)? = plan["serial"], let scene = plan["scene"].flatMap({ try? Vardict($0) }),
                case .array(_, let nodes)? = scene["nodes"]
            else { return nil }
            for entry in nodes {
                guard let node = try? Vardict(entry), node["action"] == .string(action), case .string(let slot)? = node["slot"],
                    case .string(let owner)? = node["owner"], case .string(let path)? = node["path"]
                else { continue }
                return Target(serial: serial, slot: slot, owner: owner, path: path)
            }
            return nil
        }
    }

    static func activate(_ renderer: Renderer, _ target: DBusValue) async throws {
        try await renderer.client.call("Activate", [target], interface: "org.nook.Nook1.Render")
    }

    static func invoke(_ client: BrokerClient, _ module: String, _ activity: String, _ action: String) async throws {
        try await client.call("Invoke", [.string(module), .string(activity), .string(action), WireCodec.vardict([:])], interface: "org.nook.Nook1.Control")
    }

    /// nookd, the module `music` listening for actions, its song live, and a subscribed renderer.
    static func withSong(grace: String? = nil, _ body: (PrivateBus, NookdProcess, Listener, Renderer, TemporaryDirectory) async throws -> Void) async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory, grace: grace)
            let music = try await Listener.connect(bus, module: "music")
            try await music.client.start("song", songSpec())
            let renderer = try await Renderer.subscribe(bus)
            try await body(bus, nookd, music, renderer, temp)
            await renderer.client.close()
            await music.client.close()
            if nookd.isRunning { #expect(await nookd.stop() == 0, "\(nookd.log)") }
        }
    }

    @Test func activateReachesTheOwningModuleOnlyWithWhereAndHowItWasPressed() async throws {
        try await Self.withSong { bus, nookd, music, renderer, _ in
            let other = try await Listener.connect(bus, module: "other")
            let bystander = try await Listener.connect(bus, module: nil)
            let target = try #require(Target.find("pause", in: renderer.first), "no pause control in \(renderer.first)")
            #expect(target.slot == "compact_trailing" && target.owner == "music/song")

            try await Self.activate(renderer, target.wire)
            #expect(await eventually { music.actions.count == 1 }, "\(nookd.log)")
            let invoked = try #require(music.actions.first)
            #expect(invoked.activity == "song" && invoked.action == "pause")
            #expect(invoked.info["source"] == .string("renderer") && invoked.info["slot"] == .string("compact_trailing"))
            #expect(invoked.info["presentation"] == .string("pill"))

            // A second press from a script: the module hears it too, and only the module.
            try await Self.invoke(bystander.client, "music", "song", "pause")
            #expect(await eventually { music.actions.count == 2 })
            #expect(music.actions.last?.info["source"] == .string("control"))
            // Signals to one destination arrive in order: a GetState round trip from each
            // listener after the module heard both proves nothing is still on its way to them.
            _ = try await other.client.state()
            _ = try await bystander.client.state()
            #expect(other.invoked.all.isEmpty, "another module's connection heard \(other.actions)")
            #expect(bystander.invoked.all.isEmpty, "a bystander heard \(bystander.actions)")
            await other.client.close()
            await bystander.client.close()
        }
    }

    @Test func forgedPathsNodesWithoutActionAndUnknownSerialsAreUnknownTarget() async throws {
        try await Self.withSong { _, nookd, music, renderer, _ in
            let target = try #require(Target.find("pause", in: renderer.first))
            func variant(_ change: (inout Target) -> Void) -> DBusValue {
                var copy = target
                change(&copy)
                return copy.wire
            }
            let refused: [(String, DBusValue)] = [
                ("has no node", variant { $0.path = target.path + "/0" }),
                ("has no node", variant { $0.path = "compact_trailing/9223372036854775808" }),
                ("has no node", variant { $0.path = "compact_trailing/-1" }),
                ("has no node", variant { $0.path = "expanded/0" }),
                ("has no slot", variant { $0.slot = "backstage" }),
                ("has no slot", variant { $0.owner = "music/other" }),
                ("carries no action", variant { $0.path = "compact_trailing/0" }),
                ("carries no action", variant { $0.path = "compact_trailing" }),
                ("is not a plan this broker sent this renderer", variant { $0.serial = 12345 }),
                ("is not a plan this broker sent this renderer", variant { $0.serial = target.serial + 1 }),
            ]
            for (message, target) in refused {
                _ = await expectDBusError(.unknownTarget, containing: message) { try await Self.activate(renderer, target) }
            }
            // Keys missing or of the wrong type are InvalidArgs naming the key.
            let bad: [(String, [String: PropValue])] = [
                ("missing key 'serial'", ["slot": .string("compact_trailing"), "owner": .string("music/song"), "path": .string(target.path)]),
                ("key 'serial': expected t", ["serial": .string("1"), "slot": .string("x"), "owner": .string("x"), "path": .string("x")]),
                ("missing key 'path'", ["serial": .uint(target.serial), "slot": .string("compact_trailing"), "owner": .string("music/song")]),
                ("key 'owner': expected s", ["serial": .uint(target.serial), "slot": .string("compact_trailing"), "owner": .int(3), "path": .string("x")]),
            ]
            for (message, record) in bad {
                _ = await expectDBusError(.invalidArgs, containing: message) { try await Self.activate(renderer, WireCodec.vardict(record)) }
            }
            // A connection that is not a renderer may not press.
            _ = await expectDBusError(.accessDenied, containing: "not a subscribed renderer") {
                try await music.client.call("Activate", [target.wire], interface: "org.nook.Nook1.Render")
            }
            #expect(music.invoked.all.isEmpty)
            // Nothing else was disturbed: the song is live and a real press still lands.
            #expect(try await music.client.activities() == ["music/song"])
            try await Self.activate(renderer, target.wire)
            #expect(await eventually { music.actions.map(\.action) == ["pause"] }, "\(nookd.log)")
        }
    }

    @Test func aRendererOnePlanBehindStillPressesWhatItDrew() async throws {
        try await Self.withSong { _, nookd, music, renderer, _ in
            let drawn = try #require(Target.find("pause", in: renderer.first))
            // The control at the same place becomes "play"; the renderer gets a newer plan.
            var changes = Self.songSpec(action: "play")
            changes = ["compact_trailing": changes["compact_trailing"]!]
            try await music.client.update("song", changes)
            let newer = try #require(await renderer.plan { Target.find("play", in: $0) != nil }, "\(nookd.log)")
            let current = try #require(Target.find("play", in: newer))
            #expect(current.path == drawn.path && current.serial > drawn.serial)

            try await Self.activate(renderer, drawn.wire)
            try await Self.activate(renderer, current.wire)
            #expect(await eventually { music.actions.count == 2 }, "\(nookd.log)")
            #expect(music.actions.map(\.action) == ["pause", "play"], "each press hits the scene it names")
        }
    }

    @Test func aSerialFromAPreviousLifeOfNookdIsUnknownTargetAfterKillAndRestart() async throws {
        try await Self.withSong(grace: NookdProcess.graceNoRunOutlasts) { bus, nookd, music, renderer, temp in
            let old = try #require(Target.find("pause", in: renderer.first))
            _ = try await music.client.state()
            await nookd.stop(SIGKILL)
            let again = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory, grace: NookdProcess.graceNoRunOutlasts)
            // The module takes its restored song back; the renderer subscribes to the new life.
            try await music.client.register("music")
            try await music.client.start("song", Self.songSpec())
            let reply = try await renderer.client.call("Subscribe", [WireCodec.vardict(ControlRenderTests.display)], interface: "org.nook.Nook1.Render")
            let fresh = try #require(Target.find("pause", in: try Vardict(reply[1])), "\(again.log)")
            #expect(fresh.serial > old.serial, "serials grow across lives of nookd")

            _ = await expectDBusError(.unknownTarget, containing: "serial \(old.serial)") { try await Self.activate(renderer, old.wire) }
            try await Self.activate(renderer, fresh.wire)
            #expect(await eventually { music.actions.map(\.action) == ["pause"] }, "\(again.log)")
            #expect(try await music.client.activities() == ["music/song"])
            #expect(await again.stop() == 0, "\(again.log)")
        }
    }

    @Test func invokeFindsTheActionInCurrentViewsAndNamesWhatIsMissing() async throws {
        try await Self.withSong { bus, _, music, _, _ in
            let script = try await BrokerClient.connect(bus)
            try await music.client.call("SetContent", [.string("home"), Self.node("vstack", [:], [
                Self.node("text", ["text": .string("Library")]),
                Self.node("text", ["text": .string("Shuffle"), "action": .string("shuffle")]),
            ]).wireValue])
            try await Self.invoke(script, "music", "song", "pause")
            try await Self.invoke(script, "music", "", "shuffle")
            #expect(await eventually { music.actions.count == 2 })
            #expect(music.actions.map(\.activity) == ["song", ""] && music.actions.map(\.action) == ["pause", "shuffle"])
            #expect(music.actions.map { $0.info["slot"] } == [.string("compact_trailing"), .string("home")])

            _ = await expectDBusError(.unknownTarget, containing: "carries action \"stop\"") { try await Self.invoke(script, "music", "song", "stop") }
            _ = await expectDBusError(.unknownTarget, containing: "module \"music\"'s own views") { try await Self.invoke(script, "music", "", "pause") }
            _ = await expectDBusError(.unknownModule, containing: "\"radio\"") { try await Self.invoke(script, "radio", "song", "pause") }
            _ = await expectDBusError(.unknownActivity, containing: "\"podcast\"") { try await Self.invoke(script, "music", "podcast", "pause") }
            _ = await expectDBusError(.invalidArgs, containing: "action \"no spaces\"") { try await Self.invoke(script, "music", "song", "no spaces") }
            _ = await expectDBusError(.invalidId, containing: "module id") { try await Self.invoke(script, "bad/id", "song", "pause") }
            _ = try await script.state()
            #expect(music.actions.count == 2)
            await script.close()
        }
    }

    @Test func aFloodOfActivatesFromOneProcessIsBoundedAndNookdStaysResponsive() async throws {
        try await Self.withSong { bus, nookd, music, renderer, _ in
            let target = try #require(Target.find("pause", in: renderer.first))
            let clock = ContinuousClock()
            let start = clock.now
            // The 300 presses go out at once, each without waiting for the one before: one
            // after the other, a loaded machine made them slower than the refill (20 a second),
            // and none was limited. Sent together, they wait in nookd's socket and it reads them
            // in one go, whatever the machine's speed.
            // Each press: nil when accepted, else the error's name and message.
            let outcomes = await withTaskGroup(of: (name: String, message: String)?.self) { group in
                for _ in 0..<300 {
                    group.addTask {
                        do {
                            try await Self.activate(renderer, target.wire)
                            return nil
                        } catch let error as DBusError {
                            return (error.name, error.message)
                        } catch {
                            return ("?", "\(error)")
                        }
                    }
                }
                var outcomes: [(name: String, message: String)?] = []
                for await outcome in group { outcomes.append(outcome) }
                return outcomes
            }
            let seconds = (clock.now - start) / .seconds(1)
            let refused = outcomes.compactMap { $0 }
            let accepted = outcomes.count - refused.count
            let limited = refused.filter { $0.name == NookErrorName.limitsExceeded.rawValue && $0.message.contains("activationsPerSecond") }.count
            #expect(limited == refused.count, "refused otherwise: \(Set(refused.map { "\($0.name): \($0.message)" }))")
            let heard = accepted
            // A burst of 40, then 20 a second (one more for the token refilled mid-call): the
            // bound holds however long nookd took, and 300 presses exceed it (some are limited)
            // unless nookd took 13 s to read them.
            #expect(accepted >= 40 && Double(accepted) <= 40 + 20 * seconds + 1, "\(accepted) accepted, \(limited) limited in \(seconds) s")
            #expect(await eventually { music.actions.count == heard }, "the module heard \(music.actions.count) of \(heard)")

            // Another process is not charged for it, and nookd answers at once. (Connections of
            // this test's process share its budget: presses are counted per process.)
            let script = try await Hostile.python(bus, """
                control.Invoke("music", "song", "pause", dbus.Dictionary({}, signature="sv"))
                print("pressed")
                """)
            #expect(script.status == 0 && script.stdout == "pressed\n", "\(script.stdout) \(script.stderr)")
            #expect(await eventually { music.actions.count == heard + 1 })
            let observer = try await BrokerClient.connect(bus)
            #expect(try await observer.activities() == ["music/song"])
            await observer.close()
            #expect(nookd.isRunning)
        }
    }

    @Test func anActionForAModuleInItsGracePeriodIsDroppedWithADiagnosticNotQueued() async throws {
        try await Self.withSong(grace: NookdProcess.graceNoRunOutlasts) { bus, nookd, music, renderer, _ in
            let target = try #require(Target.find("pause", in: renderer.first))
            await music.client.close()
            let script = try await BrokerClient.connect(bus)
            #expect(await eventually { nookd.log.contains("lost its connection") }, "\(nookd.log)")
            // The song is still on screen (grace): the press is valid, but nobody hears it.
            try await Self.activate(renderer, target.wire)
            #expect(await eventually { nookd.log.contains("action \"pause\" of music/song (renderer, compact_trailing) dropped") }, "\(nookd.log)")

            // The module comes back: it gets the next press, and nothing from before.
            let back = try await Listener.connect(bus, module: "music")
            try await Self.invoke(script, "music", "song", "pause")
            #expect(await eventually { back.actions.count == 1 })
            _ = try await back.client.state()
            #expect(back.actions.map { $0.info["source"] } == [.string("control")], "only the press after its return")
            await back.client.close()
            await script.close()
        }
    }
}
