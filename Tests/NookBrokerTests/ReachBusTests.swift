import Foundation
import NookBus
import NookCore
import NookTestSupport
import Testing

/// Every activity in reach (issue 39) against the real nookd on a private bus: a renderer's
/// `OpenSlot` opens onto what a slot it was sent shows, by hover or by claim, refuses what it
/// was not sent, and `Control.Focus` reaches each renderer as `FocusRequested`.
@Suite(.serialized) struct ReachBusTests {
    typealias Renderer = ControlRenderTests.Renderer
    typealias Listener = TouchTests.Listener

    static func openSlot(_ renderer: Renderer, _ target: [String: PropValue]) async throws -> UInt64 {
        let reply = try await renderer.client.call("OpenSlot", [WireCodec.vardict(target)], interface: "org.nook.Nook1.Render")
        guard case .uint64(let serial)? = reply.first else { throw TestSupportError("OpenSlot replied \(reply)") }
        return serial
    }

    static func showing(_ client: BrokerClient) async throws -> String {
        let state = try await client.state()
        guard case .string(let presentation)? = state["presentation"], case .string(let module)? = state["module"],
              case .string(let activity)? = state["activity"] else { return "?" }
        return activity.isEmpty ? "\(presentation) \(module)" : "\(presentation) \(module)/\(activity)"
    }

    /// The song (primary) and timer/tea in a capsule, with an expanded view; the serial of a
    /// plan the renderer was sent whose scene has tea's capsule.
    static func withCapsule(_ body: (PrivateBus, BrokerClient, Renderer, UInt64) async throws -> Void) async throws {
        try await TouchTests.withSong { bus, nookd, music, renderer, _ in
            let timer = try await BrokerClient.connect(bus)
            try await timer.register("timer")
            var spec = ControlRenderTests.songSpec(title: "Tea")
            spec["relevance"] = .double(-1)
            spec["expanded"] = .node(TouchTests.node("text", ["text": .string("Tea, 4 minutes")]))
            try await timer.start("tea", spec)
            let plan = await renderer.plan { plan in
                guard let scene = plan["scene"].flatMap({ try? Vardict($0) }), case .array(_, let capsules)? = scene["capsules"] else { return false }
                return capsules.contains { (try? Vardict($0))?["owner"] == .string("timer/tea") }
            }
            guard case .uint64(let serial)? = try #require(plan, "no plan with tea's capsule reached the renderer:\n\(nookd.log)")["serial"] else {
                throw TestSupportError("a plan without a serial")
            }
            try await body(bus, music.client, renderer, serial)
            await timer.close()
        }
    }

    @Test func openSlotViaHoverOpensThatCapsulesActivityAndExitClosesIt() async throws {
        try await Self.withCapsule { _, client, renderer, serial in
            let target: [String: PropValue] = ["serial": .uint(serial), "slot": .string("minimal"), "owner": .string("timer/tea"), "via": .string("hover")]
            let opened = try await Self.openSlot(renderer, target)
            #expect(opened > serial)
            #expect(try await Self.showing(client) == "expanded timer/tea", "hover opened something else than the capsule's activity")
            // A second hover while open changes nothing.
            #expect(try await Self.openSlot(renderer, target) == opened)
            try await renderer.client.call("Pointer", [.string("exit")], interface: "org.nook.Nook1.Render")
            #expect(try await Self.showing(client).hasPrefix("pill "), "leaving did not close what hovering opened")

            var claim = target
            claim["via"] = .string("claim")
            _ = try await Self.openSlot(renderer, claim)
            try await renderer.client.call("Pointer", [.string("exit")], interface: "org.nook.Nook1.Render")
            #expect(try await Self.showing(client) == "expanded timer/tea", "leaving closed what a click opened")
            // A pill slot's owner is the primary activity; a module-level owner opens its module.
            var pill = claim
            pill["slot"] = .string("compact_trailing")
            pill["owner"] = .string("music/song")
            _ = try await renderer.client.call("Close", [WireCodec.vardict([:])], interface: "org.nook.Nook1.Control")
            // The song has no expanded view and music no home: nothing to open, refused naming it.
            _ = await expectDBusError(.invalidArgs, containing: "has no expanded view") { _ = try await Self.openSlot(renderer, pill) }
            #expect(try await Self.showing(client).hasPrefix("pill "))
        }
    }

    @Test func openSlotRefusesWhatWasNotDrawnAndNamesBadKeys() async throws {
        try await Self.withCapsule { _, client, renderer, serial in
            let good: [String: PropValue] = ["serial": .uint(serial), "slot": .string("minimal"), "owner": .string("timer/tea")]
            func with(_ key: String, _ value: PropValue?) -> [String: PropValue] {
                var copy = good
                copy[key] = value
                return copy
            }
            for (message, target) in [
                ("has no slot", with("owner", .string("timer/coffee"))),
                ("has no slot", with("slot", .string("backstage"))),
                ("is not a plan this broker sent this renderer", with("serial", .uint(12345))),
            ] {
                _ = await expectDBusError(.unknownTarget, containing: message) { _ = try await Self.openSlot(renderer, target) }
            }
            for (message, target) in [
                ("missing key 'serial'", with("serial", nil)),
                ("missing key 'slot'", with("slot", nil)),
                ("key 'owner': expected s", with("owner", .int(3))),
                ("key 'via' must be 'claim' or 'hover'", with("via", .string("glance"))),
                ("key 'via': expected s", with("via", .bool(true))),
            ] {
                _ = await expectDBusError(.invalidArgs, containing: message) { _ = try await Self.openSlot(renderer, target) }
            }
            _ = await expectDBusError(.accessDenied, containing: "not a subscribed renderer") {
                _ = try await client.call("OpenSlot", [WireCodec.vardict(good)], interface: "org.nook.Nook1.Render")
            }
            let after = try await Self.showing(client)
            #expect(after.hasPrefix("pill "), "a refused OpenSlot changed the presentation")
        }
    }

    @Test func focusShowsAHiddenNookAndTellsEachRenderer() async throws {
        try await TouchTests.withSong { _, nookd, music, renderer, _ in
            let asked = SignalLog()
            _ = try await renderer.client.connection.addMatch(MatchRule(path: "/org/nook/Nook1", interface: "org.nook.Nook1.Render", member: "FocusRequested")) {
                asked.append($0)
            }
            _ = try await music.client.call("Hide", interface: "org.nook.Nook1.Control")
            #expect(try await Self.showing(music.client).hasPrefix("hidden "))
            let reply = try await music.client.call("Focus", [WireCodec.vardict([:])], interface: "org.nook.Nook1.Control")
            guard case .uint64? = reply.first else { throw TestSupportError("Focus replied \(reply)") }
            #expect(try await Self.showing(music.client).hasPrefix("pill "), "Focus did not show the hidden nook")
            #expect(await eventually { asked.all.count == 1 }, "the renderer never got FocusRequested:\n\(nookd.log)")
        }
    }
}
