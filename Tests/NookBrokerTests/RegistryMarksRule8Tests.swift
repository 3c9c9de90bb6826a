import Foundation
import NookBus
import NookCore
import NookTestSupport
import Testing

/// SPEC rule 8 judges "no other live activity of the module marks X" over every live activity,
/// on screen or not: the broker hands the planner the registry's marks, not only what the two
/// scenes show.
@Suite struct RegistryMarksRule8Tests {
    typealias C = ControlRenderTests

    static func text(_ value: String, mark: String? = nil) -> RawNode {
        var props: [String: PropValue] = ["text": .string(value)]
        if let mark { props["shared"] = .dictionary(["id": .string(mark)]) }
        return C.node("text", props)
    }

    /// A timer whose countdown is marked `timer` in its compact and expanded views; its
    /// capsule (`minimal`) marks nothing, so while it is secondary no scene shows its mark.
    static func timer(_ label: String, relevance: Double) -> [String: PropValue] {
        [
            "accessibility_label": .string(label), "relevance": .double(relevance),
            "compact_leading": .node(text("T")), "compact_trailing": .node(text("1:00", mark: "timer")),
            "minimal": .node(text("T")), "expanded": .node(text("1:00", mark: "timer")),
        ]
    }

    static func keys(_ plan: Vardict) -> [String] {
        guard case .array(_, let elements)? = plan["elements"] else { return [] }
        return elements.compactMap { element -> String? in
            guard let record = try? Vardict(element), case .string(let key)? = record["key"] else { return nil }
            return key
        }
    }

    /// Opens onto the home and returns the plan that did it (cause `open`, onto `home:timer`,
    /// from the pill: a plan coalesced with a fresh window would show nothing about pairing).
    static func openHome(_ module: BrokerClient, _ renderer: C.Renderer, _ nookd: NookdProcess) async throws -> Vardict {
        let open = try await C.control(module, "Open", [WireCodec.vardict(["onto": .string("home"), "module": .string("timer")])])
        let plan = try #require(await renderer.plan(serial: open), "no plan \(open) for Open: \(nookd.log)")
        #expect(plan["cause"] == .string("open") && plan["to_content"] == .string("home:timer"), "\(plan)")
        #expect(plan["from"] == .string("pill") && plan["fresh_window"] == .bool(false), "\(plan)")
        return plan
    }

    @Test func rule8_aPlainMarkDoesNotPairWhileAnOffScreenActivityAlsoMarksIt() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let module = try await BrokerClient.connect(bus)
            try await module.register("timer")
            try await module.call("SetContent", [.string("home"), RawNode(kind: "vstack", props: [:], children: [Self.text("Timers"), Self.text("1:00", mark: "timer")]).wireValue])
            try await module.start("eggs", Self.timer("Eggs", relevance: 2))
            try await module.start("tea", Self.timer("Tea", relevance: 1))
            let renderer = try await C.Renderer.subscribe(bus)
            #expect(renderer.first["to"] == .string("pill"))

            // `timer` is marked by two live activities, though only eggs is on screen: the pill's
            // countdown answers only to `timer.eggs`, and the home's plain `timer` is the
            // module's own. Nothing pairs.
            let open = try await Self.openHome(module, renderer, nookd)
            #expect(!Self.keys(open).contains("timer/timer"), "the pill's countdown paired with the home's plain mark: \(Self.keys(open))")
            #expect(Self.keys(open).isEmpty, "\(Self.keys(open))")

            // Once tea ends, eggs is the only activity marking `timer`: the plain key is its
            // again, so the next open pairs (marks follow the registry at plan time).
            let close = try await C.control(module, "Close", [WireCodec.vardict([:])])
            _ = try #require(await renderer.plan(serial: close), "no plan \(close) for Close: \(nookd.log)")
            try await module.end("tea", ["dismissal": .string("immediate")])
            let reopened = try await Self.openHome(module, renderer, nookd)
            #expect(Self.keys(reopened) == ["timer/timer"], "\(Self.keys(reopened))")
            await renderer.client.close()
            await module.close()
            await nookd.stop()
        }
    }
}
