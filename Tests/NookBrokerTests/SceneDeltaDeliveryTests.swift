import NookBus
import NookCore
import NookTestSupport
import Testing

/// Contract 1.1, `scene_delta`, against the real nookd: a renderer that declares it gets a
/// whole scene when it subscribes and deltas against the last plan sent it after that; a
/// renderer that restarts, or subscribes again, starts over from a whole scene.
@Suite struct SceneDeltaDeliveryTests {
    typealias Renderer = ControlRenderTests.Renderer

    static let deltaDisplay: [String: PropValue] = ControlRenderTests.display.merging([
        "capabilities": .array([.string("relayout"), .string("spring"), .string("crossfade"), .string("scene_delta")]),
    ]) { $1 }

    /// Also `compact_plans` (an addition), as nook-renderer declares.
    static let compactDisplay: [String: PropValue] = ControlRenderTests.display.merging([
        "capabilities": .array([.string("relayout"), .string("spring"), .string("crossfade"), .string("scene_delta"), .string("compact_plans")]),
    ]) { $1 }

    static func serial(_ plan: Vardict) -> UInt64? { if case .uint64(let serial)? = plan["serial"] { serial } else { nil } }

    static func delta(_ plan: Vardict) -> Vardict? { plan["scene_delta"].flatMap { try? Vardict($0) } }

    static func base(_ plan: Vardict) -> UInt64? {
        if case .uint64(let base)? = delta(plan)?["base"] { base } else { nil }
    }

    static func update(_ music: BrokerClient, _ text: String) async throws {
        try await music.update("song", ["compact_trailing": .node(ControlRenderTests.node("text", ["text": .string(text)]))])
    }

    static func plan(showing text: String, _ renderer: Renderer) async -> Vardict? {
        await renderer.plan { "\($0)".contains(text) }
    }

    @Test func aRendererGetsAWholeSceneThenDeltasAndAWholeSceneAgainAfterARestart() async throws {
        try await ControlRenderTests.withMusic { bus, nookd, music in
            try await music.start("song", ControlRenderTests.songSpec())
            let first = try await Renderer.subscribe(bus, display: Self.deltaDisplay)
            // A v1 renderer on the same display: its plans must not be the delta renderer's.
            let plain = try await Renderer.subscribe(bus)
            #expect(first.first["scene"] != nil && first.first["scene_delta"] == nil, "Subscribe's plan carries the whole scene")

            try await Self.update(music, "one")
            let one = try #require(await Self.plan(showing: "one", first), "\(nookd.log.suffix(2000))")
            #expect(one["scene"] == nil)
            #expect(Self.base(one) == Self.serial(first.first), "the first delta edits the subscribe plan's scene")
            let plainOne = try #require(await Self.plan(showing: "one", plain))
            #expect(plainOne["scene"] != nil && plainOne["scene_delta"] == nil, "without the capability plans stay whole")

            try await Self.update(music, "two")
            let two = try #require(await Self.plan(showing: "two", first))
            #expect(Self.base(two) == Self.serial(one), "each delta edits the plan sent before it")
            #expect("\(Self.delta(two)?["upserted"] ?? .string(""))".contains("two"))

            // The renderer restarts: a new connection, a new subscription, a whole scene.
            await first.client.close()
            let restarted = try await Renderer.subscribe(bus, display: Self.deltaDisplay)
            #expect(restarted.first["scene"] != nil && restarted.first["scene_delta"] == nil)
            #expect("\(restarted.first)".contains("two"))
            try await Self.update(music, "three")
            let three = try #require(await Self.plan(showing: "three", restarted))
            #expect(Self.base(three) == Self.serial(restarted.first), "the restarted renderer's deltas edit its own whole scene")

            // A renderer that missed a plan subscribes again on its connection: whole scene again.
            let again = try Vardict(try await restarted.client.call("Subscribe", [WireCodec.vardict(Self.deltaDisplay)],
                                                                   interface: "org.nook.Nook1.Render")[1])
            #expect(again["scene"] != nil && again["scene_delta"] == nil)
            try await Self.update(music, "four")
            let four = try #require(await Self.plan(showing: "four", restarted))
            #expect(Self.base(four) == Self.serial(again))

            for client in [restarted.client, plain.client, music] { await client.close() }
            #expect(await nookd.stop() == 0, "\(nookd.log.suffix(2000))")
        }
    }

    static func read(_ plan: Vardict, held: (serial: UInt64, scene: WireScene)? = nil) throws -> ReceivedPlan {
        var warnings: [String] = []
        return try ReceivedPlan(wire: .dictionary(WireCodec.dictionary(.vardict(plan.values), at: "plan")), held: held, warnings: &warnings)
    }

    /// "Smaller plans": the plans a renderer declaring `scene_delta` and `compact_plans` gets
    /// are compact (no derived spring values, unlike a v1 renderer's), read in order without a
    /// warning, and leave it holding the scene a renderer subscribing afterwards gets whole. A
    /// renderer written to contract 1.1's `scene_delta` alone gets deltas with every v1 key.
    @Test func compactDeltaPlansReadInOrderGiveTheWholeScene() async throws {
        try await ControlRenderTests.withMusic { bus, nookd, music in
            try await music.start("song", ControlRenderTests.songSpec())
            let deltas = try await Renderer.subscribe(bus, display: Self.compactDisplay)
            let plain = try await Renderer.subscribe(bus)
            let deltaOnly = try await Renderer.subscribe(bus, display: Self.deltaDisplay)
            for text in ["one", "two", "three"] {
                try await Self.update(music, text)
                _ = try #require(await Self.plan(showing: text, deltas), "\(nookd.log.suffix(2000))")
                let whole = try #require(await Self.plan(showing: text, plain))
                #expect("\(whole)".contains("settle_duration"), "a v1 renderer's springs keep their derived values")
                let uncompacted = try #require(await Self.plan(showing: text, deltaOnly))
                #expect(uncompacted["scene_delta"] != nil && "\(uncompacted)".contains("settle_duration"),
                        "a scene_delta renderer without compact_plans keeps every key")
            }
            var held = (serial: try #require(Self.serial(deltas.first)), scene: try Self.read(deltas.first).scene)
            for plan in deltas.received {
                #expect(plan["scene_delta"] != nil && !"\(plan)".contains("settle_duration"))
                var warnings: [String] = []
                let read = try ReceivedPlan(wire: .dictionary(WireCodec.dictionary(.vardict(plan.values), at: "plan")), held: held, warnings: &warnings)
                #expect(warnings.isEmpty)
                held = (read.serial, read.scene)
            }
            let later = try await Renderer.subscribe(bus, display: Self.deltaDisplay)
            #expect(held.scene == (try Self.read(later.first).scene))
            #expect("\(later.first)".contains("three"))
            for client in [deltas.client, plain.client, deltaOnly.client, later.client, music] { await client.close() }
            #expect(await nookd.stop() == 0, "\(nookd.log.suffix(2000))")
        }
    }
}
