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
            _ = try await module.call("Show", interface: "org.nook.Nook1.Control")
            let open = try await C.control(module, "Open", [WireCodec.vardict(["onto": .string("home"), "module": .string("timer")])])
            let plan = try #require(await renderer.plan(where: { plan in
                guard case .uint64(let serial)? = plan["serial"] else { return false }
                return serial >= open
            }), "no plan for Open")
            // `timer` is marked by two live activities: the home's plain `timer` is the module's
            // own, and the pill's countdown answers only to `timer.eggs`. Nothing pairs.
            guard case .array(_, let elements)? = plan["elements"] else { Issue.record("no elements in \(plan)"); return }
            let keys = elements.compactMap { element -> String? in
                guard let record = try? Vardict(element), case .string(let key)? = record["key"] else { return nil }
                return key
            }
            #expect(!keys.contains { $0.hasPrefix("timer/timer") }, "the pill's countdown paired with the home's plain mark: \(keys)")
            await renderer.client.close()
            await module.close()
            await nookd.stop()
        }
    }
}
