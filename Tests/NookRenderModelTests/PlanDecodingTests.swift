import NookCore
@testable import NookRenderModel
import Testing

private typealias F = PlanFixture

/// Reading plans: what is refused (naming the key) and what draws plainly with a warning.
@Suite struct PlanDecodingTests {
    static func openWire(_ edit: (inout [String: PropValue]) -> Void) -> PropValue {
        var dictionary = F.openSong().plan.wireDictionary()
        edit(&dictionary)
        return PropValue.dictionary(dictionary)
    }

    static func editRecord(_ value: inout PropValue?, _ edit: (inout [String: PropValue]) -> Void) {
        guard case .dictionary(var record)? = value else { return }
        edit(&record)
        value = .dictionary(record)
    }

    static func editItem(_ value: inout PropValue?, _ index: Int, _ edit: (inout [String: PropValue]) -> Void) {
        guard case .array(var items)? = value, case .dictionary(var record) = items[index] else { return }
        edit(&record)
        items[index] = .dictionary(record)
        value = .array(items)
    }

    static let badPlans: [(key: String, plan: PropValue)] = [
        ("serial", openWire { $0["serial"] = nil }),
        ("to", openWire { $0["to"] = .uint(3) }),
        ("chrome.to_rect", openWire { editRecord(&$0["chrome"]) { $0["to_rect"] = .string("big") } }),
        ("chrome.from_rect", openWire { editRecord(&$0["chrome"]) { $0["from_rect"] = .structure([.double(1), .double(2), .double(-3), .double(4)]) } }),
        ("chrome.curve.response", openWire { editRecord(&$0["chrome"]) { editRecord(&$0["curve"]) { $0["response"] = nil } } }),
        ("elements.0.curve.damping_fraction", openWire {
            editItem(&$0["elements"], 0) { editRecord(&$0["curve"]) { $0["damping_fraction"] = .double(0) } }
        }),
        ("elements.0.to_path", openWire { editItem(&$0["elements"], 0) { $0["to_path"] = nil } }),
        ("slots.1.curve.points", openWire { editItem(&$0["slots"], 1) { editRecord(&$0["curve"]) { $0["points"] = .structure([.double(0.2)]) } } }),
        ("chrome.cross_fade", openWire { editRecord(&$0["chrome"]) { $0["cross_fade"] = .string("yes") } }),
        ("scene.nodes.1.rect", openWire { editRecord(&$0["scene"]) { editItem(&$0["nodes"], 1) { $0["rect"] = nil } } }),
        ("(argument)", .string("not a plan")),
    ]

    @Test(arguments: badPlans.indices)
    func aPlanWithABadKeyIsRefusedNamingTheKey(_ index: Int) throws {
        let (key, bad) = Self.badPlans[index]
        let pill = F.scene(.pill, F.song())
        var presenter = PlanPresenter()
        try presenter.receive(F.wire(F.subscribe(pill)), at: 0)
        let before = presenter.frame(at: 5, unixTime: 0)
        #expect(throws: RenderPlanError.self) { try presenter.receive(bad, at: 5) }
        do {
            try presenter.receive(bad, at: 5)
        } catch {
            #expect(error.key == key, "\(error)")
            #expect(!error.message.isEmpty)
        }
        // The refused plan changes nothing.
        #expect(presenter.serial == 1)
        #expect(presenter.frame(at: 5, unixTime: 0) == before)
    }

    @Test func unknownNodeKindsDrawPlainlyWithAWarning() throws {
        let wire = Self.openWire { plan in
            Self.editRecord(&plan["scene"]) { scene in
                guard case .array(let nodes)? = scene["nodes"] else { return }
                let index = nodes.firstIndex { if case .dictionary(let node) = $0 { node["path"] == .string("expanded") } else { false } }!
                Self.editItem(&scene["nodes"], index) {
                    $0["kind"] = .string("sparkle")
                    $0["glow"] = .double(2)
                    $0["classes"] = .string("shimmer-lg bg-white/10 p-2")
                }
            }
        }
        var presenter = PlanPresenter()
        try presenter.receive(F.wire(F.subscribe(F.scene(.pill, F.song()))), at: 0)
        try presenter.receive(wire, at: 10)
        #expect(presenter.warnings.contains { $0.contains("expanded") && $0.contains("unknown node kind \"sparkle\"") })
        #expect(presenter.warnings.contains { $0.contains("unknown prop \"glow\"") })
        #expect(presenter.warnings.contains { $0.contains("unknown class \"shimmer-lg\"") })
        #expect(!presenter.warnings.contains { $0.contains("bg-white/10") || $0.contains("\"p-2\"") })
        // Its children still draw, and it draws what it can of itself (its background).
        let frame = presenter.frame(at: 10 + 1, unixTime: 0)
        #expect(frame.item(at: "expanded/1")?.content.text == "Song title")
        #expect(frame.item(at: "expanded/0") != nil)
        #expect(frame.item(at: "expanded#background") != nil)
        #expect(frame.item(at: "expanded") == nil)
    }

    @Test func anUnknownCurveTypeJumpsWithAWarning() throws {
        let wire = Self.openWire { plan in
            Self.editRecord(&plan["chrome"]) { chrome in Self.editRecord(&chrome["curve"]) { $0["type"] = .string("wobble") } }
        }
        var presenter = PlanPresenter()
        try presenter.receive(wire, at: 10)
        #expect(presenter.warnings.contains { $0.contains("chrome.curve.type") })
        #expect(presenter.frame(at: 10, unixTime: 0).chrome?.rect == F.openSong().plan.chrome.toRect)
    }

    @Test func unknownChangesAndStylesDrawPlainlyWithAWarning() throws {
        let wire = Self.openWire { plan in
            Self.editItem(&plan["slots"], 0) { $0["change"] = .string("explode") }
            Self.editItem(&plan["elements"], 0) { $0["style"] = .string("morph"); $0["clip"] = .string("circle") }
        }
        var presenter = PlanPresenter()
        try presenter.receive(wire, at: 10)
        #expect(presenter.warnings.contains("slots.0.change: unknown change \"explode\", drawn as stay"))
        #expect(presenter.warnings.contains("elements.0.style: unknown style \"morph\", drawn as resize"))
        #expect(presenter.warnings.contains("elements.0.clip: unknown clip \"circle\", drawn unclipped"))
        let moving = try #require(presenter.frame(at: 10.1, unixTime: 0).items.first { $0.sharedKey != nil })
        #expect(moving.layoutSize == nil && moving.clip == nil)
    }

    @Test func theSerialAndPresentationFollowTheLastPlan() throws {
        var presenter = PlanPresenter()
        #expect(presenter.serial == 0 && presenter.presentation == .hidden)
        #expect(presenter.frame(at: 0, unixTime: 0) == DisplayList())
        let (pill, _, plan) = F.openSong()
        try presenter.receive(F.wire(F.subscribe(pill)), at: 0)
        #expect(presenter.serial == 1 && presenter.presentation == .pill)
        try presenter.receive(F.wire(plan), at: 1)
        #expect(presenter.serial == 2 && presenter.presentation == .expanded)
        #expect(presenter.warnings.isEmpty)
    }
}
