import Foundation
import NookBus
import NookCore
import NookTestSupport
import Testing

/// Issue 15: single calls that used to crash nookd (or make it hang, or save something that
/// crashed every later start), each against the real nookd on a private bus. Every case asserts
/// the specific refusal (error name, the key in the message), that nookd still serves, and
/// that it survives a kill -9 and a restart on the state it saved.
@Suite(.serialized) struct HostileValuesTests {
    static let control = "org.nook.Nook1.Control"
    static let render = "org.nook.Nook1.Render"

    /// The song with a shared cover in the pill and in its expanded view, so an Open moves it.
    static func songSpec() -> [String: PropValue] {
        var spec = ControlRenderTests.songSpec()
        spec["expanded"] = .node(ControlRenderTests.node("vstack", [:], [ControlRenderTests.cover(120)]))
        return spec
    }

    /// A nookd with the music module's song live, and a client holding that module.
    static func withSong(_ body: (PrivateBus, NookdProcess, BrokerClient) async throws -> Void) async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let client = try await BrokerClient.connect(bus)
            try await client.register("music")
            try await client.start("song", songSpec())
            try await body(bus, nookd, client)
            await client.close()
            let restarted = try await Hostile.expectSurvivesRestart(nookd, bus: bus)
            await restarted.stop()
        }
    }

    static func controlCall(_ client: BrokerClient, _ member: String, _ arguments: [DBusValue]) async throws {
        try await client.call(member, arguments, interface: control)
    }

    /// Case 1: `stale_date` = INT64_MIN overflowed the stale scheduling, and the saved value
    /// crashed every start. Sent with python-dbus, as found.
    @Test func staleDateOutsideTheDateWindowIsRefused() async throws {
        try await Self.withSong { bus, _, client in
            let result = try await Hostile.python(bus, """
                modules.Register("news", {})
                for value in (-2**63, 2**63 - 1, -1):
                    try:
                        modules.StartActivity("breaking", spec(stale_date=dbus.Int64(value)))
                        print("accepted", value)
                    except dbus.DBusException as e:
                        print(e.get_dbus_name(), e.get_dbus_message())
                """)
            let lines = result.stdout.split(separator: "\n")
            #expect(lines.count == 3, "\(result.stdout) \(result.stderr)")
            for line in lines {
                #expect(line.hasPrefix("org.freedesktop.DBus.Error.InvalidArgs") && line.contains("key 'stale_date'") && line.contains("1970..2200"), "\(line)")
            }
            _ = await expectDBusError(.invalidArgs, containing: "key 'stale_date'") {
                try await client.update("song", ["stale_date": .int(.min)])
            }
            #expect(try await client.activities() == ["music/song"])
        }
    }

    /// Case 2: a text with `height` 1e300 trapped in text layout.
    @Test func hugeTextHeightIsRefusedByPath() async throws {
        try await Self.withSong { _, _, client in
            let tall = ControlRenderTests.node("text", ["text": .string("tall"), "height": .double(1e300)])
            _ = await expectDBusError(.invalidView, containing: "compact_trailing.height") {
                try await client.update("song", ["compact_trailing": .node(tall)])
            }
            _ = await expectDBusError(.invalidView, containing: "1e+300 is outside 0...1000000 pt") {
                try await client.update("song", ["compact_trailing": .node(tall)])
            }
        }
    }

    /// Case 3: a curve override or a token with an astronomically long duration crashed the
    /// next plan (the cap's diagnostic formatted it through Int64), and both were saved.
    @Test func astronomicalCurveDurationsAndTokensAreRefused() async throws {
        try await Self.withSong { _, _, client in
            let linear: [String: PropValue] = ["type": .string("linear"), "duration": .double(1e308)]
            _ = await expectDBusError(.invalidArgs, containing: "key 'duration': 1e+308 is outside 0...60 s") {
                try await Self.controlCall(client, "SetSharedElementAnimation", [.string("convert"), WireCodec.vardict(linear)])
            }
            let delayed: [String: PropValue] = ["type": .string("linear"), "duration": .double(0.3), "delay": .double(1e308)]
            _ = await expectDBusError(.invalidArgs, containing: "key 'delay'") {
                try await Self.controlCall(client, "SetSharedElementAnimation", [.string("convert"), WireCodec.vardict(delayed)])
            }
            _ = await expectDBusError(.invalidTheme, containing: "transition.fade: duration: 1e+17 is outside 0...60 s") {
                try await Self.controlCall(client, "SetTokens", [WireCodec.vardict(["transition.fade": .string("99999999999999999999ms")])])
            }
            // A shared element still moves on Open, with the theme's curve.
            let reply = try await client.call("Open", [WireCodec.vardict([:])], interface: Self.control)
            #expect(reply.count == 1)
            #expect(try await client.state()["presentation"] == .string("expanded"))
        }
    }

    /// Case 4: `refresh_rate` had no bounds (1e-300 overflowed the frame timer; without
    /// `spring`, 1e300 overflowed sampling, 1e6 gave 58 MB plans, 1e7 made nookd leave the bus).
    @Test func refreshRatesOutsideOneToAThousandHertzAreRefused() async throws {
        try await Self.withSong { bus, _, _ in
            let renderer = try await BrokerClient.connect(bus)
            defer { Task { await renderer.close() } }
            for rate in [1e-300, 1e300, 1e6, 1e7, 0.5, .nan] {
                var display = ControlRenderTests.display
                display["refresh_rate"] = .double(rate)
                display["capabilities"] = .array([.string("relayout"), .string("crossfade")])
                let error = await expectDBusError(.invalidArgs, containing: "display: key 'refresh_rate'") {
                    try await renderer.call("Subscribe", [WireCodec.vardict(display)], interface: Self.render)
                }
                #expect(error?.message.contains(rate.isNaN ? "NaN is not a finite number" : "1...1000 Hz") == true, "\(rate): \(String(describing: error))")
            }
            // The top of the range works, without springs too: sampled curves stay bounded.
            var display = ControlRenderTests.display
            display["refresh_rate"] = .double(1000)
            display["capabilities"] = .array([.string("relayout")])
            let reply = try await renderer.call("Subscribe", [WireCodec.vardict(display)], interface: Self.render)
            #expect(reply.count == 2)
            try await renderer.call("Unsubscribe", [], interface: Self.render)
        }
    }

    /// Case 5: a spring with damping_fraction 1e-300, sampled for a renderer without
    /// `spring`, blocked nookd for 30 s and grew it to 4.9 GB.
    @Test func springsWithAlmostNoDampingAreRefused() async throws {
        try await Self.withSong { _, _, client in
            let spring: [String: PropValue] = ["type": .string("spring"), "response": .double(0.4), "damping_fraction": .double(1e-300)]
            _ = await expectDBusError(.invalidArgs, containing: "key 'damping_fraction': 1e-300 is outside 0.01...10") {
                try await Self.controlCall(client, "SetSharedElementAnimation", [.string("convert"), WireCodec.vardict(spring)])
            }
            let token: [String: PropValue] = ["response": .double(0.4), "damping_fraction": .double(1e-300)]
            _ = await expectDBusError(.invalidTheme, containing: "transition.convert: dampingFraction: 1e-300 is outside") {
                try await Self.controlCall(client, "SetTokens", [WireCodec.vardict(["transition.convert": .dictionary(token)])])
            }
            let fast: [String: PropValue] = ["type": .string("spring"), "response": .double(0), "damping_fraction": .double(0.8)]
            _ = await expectDBusError(.invalidArgs, containing: "key 'response'") {
                try await Self.controlCall(client, "SetSharedElementAnimation", [.string("peek"), WireCodec.vardict(fast)])
            }
        }
    }

    /// Case 8: SetTokens had no size or complexity limit: a 3,000-long alias chain blocked
    /// nookd for over 15 s; 21,500 tokens (saved) slowed every later start to 9 s; a long
    /// chain of named rules blocked it for minutes.
    @Test func aliasChainsAndTokenFloodsAreRefusedByLimit() async throws {
        try await Self.withSong { _, _, client in
            var chain: [String: PropValue] = ["chain.t0": .string("240ms")]
            for index in 1..<3000 { chain["chain.t\(index)"] = .string("{chain.t\(index - 1)}") }
            let deep = await expectDBusError(.invalidTheme, containing: "maxAliasDepth") {
                try await Self.controlCall(client, "SetTokens", [WireCodec.vardict(chain)])
            }
            #expect((deep?.message.utf8.count ?? .max) <= DBusError.maxMessageCharacters + 40)
            var flood: [String: PropValue] = [:]
            for index in 0..<21_500 { flood["flood.t\(index)"] = .string("\(index % 1000)ms") }
            _ = await expectDBusError(.invalidTheme, containing: "maxTokens") {
                try await Self.controlCall(client, "SetTokens", [WireCodec.vardict(flood)])
            }
            // Named rules nest the same way (a chain of 4,000 took minutes to check).
            var rules: [String: PropValue] = [:]
            for index in 0..<4000 { rules["rules.named.r\(index)"] = .string("r\(index + 1) p-1") }
            _ = await expectDBusError(.invalidTheme, containing: "rules.named.r0: named rules nest deeper than 16 (maxRuleDepth)") {
                try await Self.controlCall(client, "SetTokens", [WireCodec.vardict(rules)])
            }
            // Nothing was applied: the theme is the built-in one.
            let tokens = try Vardict(try await client.call("GetTokens", [], interface: Self.control)[0])
            #expect(tokens["chain.t1"] == nil && tokens["flood.t0"] == nil)
        }
    }

    /// Case 10: padding, spacing or a spacer's min_length of 1e308 gave NaN and infinite
    /// rects in plans.
    @Test func paddingSpacingAndMinLengthOfAstronomicalSizeAreRefused() async throws {
        try await Self.withSong { _, _, client in
            func node(_ kind: String, _ props: [String: PropValue], _ children: [RawNode] = []) -> RawNode {
                ControlRenderTests.node(kind, props, children)
            }
            let views: [(RawNode, String)] = [
                (node("hstack", ["padding": .structure([.double(1e308), .double(0), .double(0), .double(0)])], [node("text", ["text": .string("a")])]),
                 "compact_trailing.padding"),
                (node("hstack", ["spacing": .double(1e308)], [node("text", ["text": .string("a")]), node("text", ["text": .string("b")])]),
                 "compact_trailing.spacing"),
                (node("hstack", [:], [node("spacer", ["min_length": .double(1e308)])]), "compact_trailing/0.min_length"),
            ]
            for (view, path) in views {
                _ = await expectDBusError(.invalidView, containing: "\(path): a size must be finite, not negative and at most 1000000 pt: 1e+308 is outside") {
                    try await client.update("song", ["compact_trailing": .node(view)])
                }
            }
        }
    }

    /// Case 12: errors echoed their whole input (a 1 MB slot name gave a 1 MB error), and the
    /// NaN error read "expected a finite number ('d'), found 'd'".
    @Test func errorsQuoteLittleInputAndNameWhatWasWrong() async throws {
        try await Self.withSong { _, _, client in
            let slot = String(repeating: "s", count: 1 << 20)
            let view = ControlRenderTests.node("text", ["text": .string("x")])
            let error = await expectDBusError(.invalidArgs, containing: "is not a module slot") {
                try await client.call("SetContent", [.string(slot), view.wireValue])
            }
            // 200 characters of the name, its length, and the sentence around them.
            #expect((error?.message.utf8.count ?? .max) <= 320, "\(error?.message.utf8.count ?? -1) bytes")
            let nan: [String: PropValue] = ["type": .string("linear"), "duration": .double(0.3), "delay": .double(.nan)]
            _ = await expectDBusError(.invalidArgs, containing: "key 'delay': NaN is not a finite number") {
                try await Self.controlCall(client, "SetSharedElementAnimation", [.string("convert"), WireCodec.vardict(nan)])
            }
            let relevance = await expectDBusError(.invalidArgs, containing: "key 'relevance': NaN is not a finite number") {
                try await client.update("song", ["relevance": .double(.nan)])
            }
            #expect(relevance?.message.contains("found 'd'") == false)
        }
    }
}
