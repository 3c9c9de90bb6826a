import Foundation
import NookBroker
import NookBus
import NookCore
import NookTestSupport
import Testing

/// Issue 44, part 3, SPEC rule 14 over D-Bus: `SetSharedElementAnimation` sets the curve of
/// the shared elements of a conversion (`convert`: open and close) or of a peek (`peek`).
/// Each override shows in the next plan of its kind (the element's curve says `source:
/// override`), `theme` puts the token back, and an override outlives a restart of nookd.
@Suite struct CurveOverrideOverBusTests {
    typealias R = ControlRenderTests

    /// The curves of the plan's moving elements.
    static func curves(_ plan: Vardict) -> [Vardict] {
        guard case .array(_, let elements)? = plan["elements"] else { return [] }
        return elements.compactMap { try? Vardict($0) }.compactMap { element in
            guard let curve = element["curve"] else { return nil }
            return try? Vardict(curve)
        }
    }

    static func source(_ plan: Vardict?) -> String? {
        guard let plan, let curve = curves(plan).first, case .string(let source)? = curve["source"] else { return nil }
        return source
    }

    static func type(_ plan: Vardict?) -> String? {
        guard let plan, let curve = curves(plan).first, case .string(let type)? = curve["type"] else { return nil }
        return type
    }

    static func set(_ client: BrokerClient, _ which: String, _ curve: [String: PropValue]) async throws {
        _ = try await client.call("SetSharedElementAnimation", [.string(which), WireCodec.vardict(curve)], interface: "org.nook.Nook1.Control")
    }

    /// Open onto the home (the cover moves), then close; both plans.
    static func openAndClose(_ music: BrokerClient, _ renderer: R.Renderer) async throws -> (open: Vardict?, close: Vardict?) {
        let open = try await R.control(music, "Open", [WireCodec.vardict(["onto": .string("home")])])
        let opened = await renderer.plan(serial: open)
        let close = try await R.control(music, "Close", [WireCodec.vardict([:])])
        return (opened, await renderer.plan(serial: close))
    }

    /// A peek at the song (the cover moves into the peek), then its end.
    static func peek(_ music: BrokerClient, _ renderer: R.Renderer) async throws -> Vardict? {
        let peek = try await R.control(music, "Peek", [.string("music"), .string("song")])
        let plan = await renderer.plan(serial: peek)
        let end = try await R.control(music, "EndPeek")
        _ = await renderer.plan(serial: end)
        return plan
    }

    static func setUp(_ music: BrokerClient) async throws {
        try await music.register("music")
        try await music.call("SetContent", [.string("home"), R.node("hstack", [:], [R.cover(156), R.node("text", ["text": .string("Quiet Song")])]).wireValue])
        var spec = R.songSpec()
        spec["expanded"] = .node(R.node("hstack", [:], [R.cover(120), R.node("text", ["text": .string("Quiet Song")])]))
        spec["peek"] = .node(R.node("hstack", [:], [R.cover(40), R.node("text", ["text": .string("Now playing")])]))
        try await music.start("song", spec)
    }

    @Test func rule14_overridesOverDBusShowInTheNextPlansAndThemeResetsThemAndTheyOutliveARestart() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            var nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let music = try await BrokerClient.connect(bus)
            try await Self.setUp(music)
            let renderer = try await R.Renderer.subscribe(bus)

            // The theme's curves first.
            let before = try await Self.openAndClose(music, renderer)
            #expect(Self.source(before.open).map { $0 != "override" } == true, "open: \(String(describing: Self.source(before.open)))\n\(nookd.log)")
            let peekBefore = try await Self.peek(music, renderer)
            #expect(Self.source(peekBefore).map { $0 != "override" } == true, "peek: \(String(describing: Self.source(peekBefore)))")

            // Each override, in the next plan of its kind and in no other kind.
            try await Self.set(music, "convert", ["type": .string("linear"), "duration": .double(0.42)])
            let converted = try await Self.openAndClose(music, renderer)
            #expect(Self.source(converted.open) == "override" && Self.type(converted.open) == "linear", "open: \(Self.curves(converted.open ?? Vardict()))")
            #expect(Self.source(converted.close) == "override", "close: \(Self.curves(converted.close ?? Vardict()))")
            #expect(Self.source(try await Self.peek(music, renderer)) != "override", "the convert override reached a peek")
            try await Self.set(music, "peek", ["type": .string("spring"), "response": .double(0.3), "damping_fraction": .double(0.9)])
            let peeked = try await Self.peek(music, renderer)
            #expect(Self.source(peeked) == "override" && Self.type(peeked) == "spring", "peek: \(Self.curves(peeked ?? Vardict()))")

            // Both kept across a restart (the state file), then `theme` puts the tokens back.
            #expect(await nookd.stop() == 0, "\(nookd.log)")
            nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let again = try await R.Renderer.subscribe(bus)
            try await Self.setUp(music)
            let restored = try await Self.openAndClose(music, again)
            #expect(Self.source(restored.open) == "override" && Self.type(restored.open) == "linear", "after a restart: \(Self.curves(restored.open ?? Vardict()))\n\(nookd.log)")
            #expect(Self.source(try await Self.peek(music, again)) == "override", "the peek override did not outlive the restart")

            try await Self.set(music, "convert", ["type": .string("theme")])
            try await Self.set(music, "peek", ["type": .string("theme")])
            let reset = try await Self.openAndClose(music, again)
            #expect(Self.source(reset.open) == Self.source(before.open), "theme: \(Self.curves(reset.open ?? Vardict()))")
            #expect(Self.source(try await Self.peek(music, again)) == Self.source(peekBefore))
            await again.client.close()
            await renderer.client.close()
            await music.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }
}
