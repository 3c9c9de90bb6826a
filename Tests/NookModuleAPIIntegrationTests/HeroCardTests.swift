import Foundation
import NookBus
import NookCore
import NookTestSupport
import Testing

/// Seed 001's hero card end to end: the `HeroCard` example module (a real process) publishes
/// the card through the SDK, the real nookd plans its changes, and a test connection
/// subscribed as a renderer receives the plans (SPEC rules 15, 17, 23). The card's Toggle is
/// a real button: the test presses it as a renderer does (`Render.Activate` on the node it
/// was sent) and as a script does (`Control.Invoke`).
@Suite(.serialized) struct HeroCardTests {
    /// Paths of the card in the activity's expanded slot: the custom `HeroCard` view is the
    /// root, its `group/hero` stack below it, then the cover's zstack and the Toggle text.
    static let group = "expanded/0"
    static let zstack = "expanded/0/0"
    static let cover = "expanded/0/0/0"
    static let toggle = "expanded/0/1"
    static let smooth400 = "animate-smooth -> rules.animations.smooth, duration-400"

    /// Runs nookd, a renderer subscription and the HeroCard module opened onto its card.
    func withOpenCard(_ body: (ProductProcess, RecordedPlans, Observer) async throws -> Void) async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)
            let plans = try await observer.recordPlans()
            let card = try ProductProcess("HeroCard", ["--address", bus.address], logDirectory: scratch.url)
            #expect(await eventually { card.log.contains("HeroCard: ready") }, "\(card.log)")
            #expect(await eventually { await observer.activities() == ["hero/card"] }, "\(card.log)")
            try await observer.open(module: "hero", activity: "card")
            #expect(await eventually {
                plans.all.contains { $0["cause"] == .string("open") && $0["to_content"] == .string("activity:hero/card") }
            }, "\(plans.all.map { $0["cause"] })")
            try await body(card, plans, observer)
            #expect(await card.stop(SIGTERM) == 0, "\(card.log)")
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }

    @Test func heroCardToggleMovesTheCoverOnAnimateSmooth400AndLaysOutItsSiblings() async throws {
        try await withOpenCard { card, plans, observer in
            let before = plans.all.count
            try await Self.pressToggleAsRenderer(observer, plans)
            #expect(await eventually { card.log.contains("expanded true") }, "\(card.log)")
            #expect(await eventually { plans.first(after: before, where: Self.movesCover) != nil }, "\(plans.all.dropFirst(before))")
            guard let grow = plans.first(after: before, where: Self.movesCover) else { return }
            #expect(grow["cause"] == .string("activity_updated"))

            // The cover moves within the card's group, from 80 x 80 to 320 x 200, on the
            // scope's curve: animate-smooth (a spring) timed by duration-400.
            let element = try #require(Self.entries(grow["elements"]).first)
            #expect(element["namespace"] == .string("group"))
            #expect(element["key"] == .string("hero/card/expanded/group#0/cover"))
            #expect(element["from_path"] == .string(Self.cover) && element["to_path"] == .string(Self.cover))
            #expect(Self.size(element["from_rect"]) == [80, 80])
            #expect(Self.size(element["to_rect"]) == [320, 200])
            #expect(element["clip"] == .string("none") && element["cross_fade"] == .bool(false))
            let curve = try #require(Self.dictionary(element["curve"]))
            #expect(curve["type"] == .string("spring"))
            #expect(curve["response"] == .double(0.4))
            #expect(curve["source"] == .string(Self.smooth400))

            // Its siblings are laid out on the same curve: the zstack grows and the Toggle text
            // moves down below it; the cover itself moves as an element, not a layout entry.
            let layout = Self.entries(grow["layout"])
            let toggle = try #require(layout.first { $0["path"] == .string(Self.toggle) })
            #expect(toggle["change"] == .string("move"))
            let from = try #require(Self.rect(toggle["from_rect"]))
            let to = try #require(Self.rect(toggle["to_rect"]))
            #expect(to[1] - from[1] == 120)  // 200 - 80: the cover's growth pushes it down
            #expect(layout.contains { $0["path"] == .string(Self.zstack) && $0["change"] == .string("move") })
            #expect(!layout.contains { $0["path"] == .string(Self.cover) })
            #expect(layout.allSatisfy { Self.dictionary($0["curve"])?["source"] == .string(Self.smooth400) })

            // Toggling back moves it the other way, on the same curve.
            let grown = plans.all.count
            try await Self.pressToggleAsScript(observer)
            #expect(await eventually { plans.first(after: grown, where: Self.movesCover) != nil }, "\(card.log)")
            let shrink = try #require(plans.first(after: grown, where: Self.movesCover))
            let back = try #require(Self.entries(shrink["elements"]).first)
            #expect(Self.size(back["to_rect"]) == [80, 80])
            #expect(Self.dictionary(back["curve"])?["source"] == .string(Self.smooth400))
            // It starts where the cover is: grown, or, when the grow is still running (rule 21),
            // somewhere along it (smooth is critically damped, so never past either end).
            let start = try #require(Self.size(back["from_rect"]))
            if shrink["interrupts"] == grow["serial"] {
                #expect((80...320).contains(start[0]) && (80...200).contains(start[1]), "\(start)")
            } else {
                #expect(start == [320, 200])
            }
        }
    }

    @Test func groupStateFromTheModuleReachesTheRendererAsAContentUpdate() async throws {
        try await withOpenCard { card, plans, _ in
            let before = plans.all.count
            card.signal(SIGUSR2)
            #expect(await eventually { card.log.contains("focused true") }, "\(card.log)")
            #expect(await eventually { plans.first(after: before, where: Self.focused) != nil }, "\(plans.all.dropFirst(before))")
            guard let plan = plans.first(after: before, where: Self.focused) else { return }
            #expect(plan["cause"] == .string("activity_updated"))
            // Nothing moves (the scope's value did not change)...
            #expect(Self.entries(plan["elements"]).isEmpty)
            // ...but the Toggle text, whose group-focus variant reads the card's focus, restyles
            // on the card's curve.
            let layout = Self.entries(plan["layout"])
            #expect(layout.map { $0["path"] } == [.string(Self.toggle)])
            #expect(layout.first?["change"] == .string("style"))
            #expect(Self.dictionary(layout.first?["curve"])?["source"] == .string(Self.smooth400))

            // The scene carries the state on the group node and the Toggle's variants resolved
            // to that node, the chained `dark:group-hover/hero:` one included.
            let toggle = try #require(Self.node(plan, Self.toggle))
            let variants = Self.entries(toggle["variants"])
            #expect(variants.contains {
                $0["state"] == .string("group-focus") && $0["group_path"] == .string(Self.group) && $0["classes"] == .string("opacity-100")
            }, "\(variants)")
            #expect(variants.contains {
                $0["state"] == .string("dark:group-hover") && $0["group_path"] == .string(Self.group) && $0["classes"] == .string("opacity-70")
            }, "\(variants)")

            // Focus off again: another content update with the state cleared.
            let focusedCount = plans.all.count
            card.signal(SIGUSR2)
            #expect(await eventually {
                plans.first(after: focusedCount) { Self.groupState($0) == .dictionary(["focus": .bool(false)]) } != nil
            }, "\(card.log)")
        }
    }

    // MARK: Pressing the Toggle

    /// Clicks the Toggle as a renderer: `Render.Activate` naming the node in the newest plan
    /// the observer (subscribed as a renderer) was sent.
    static func pressToggleAsRenderer(_ observer: Observer, _ plans: RecordedPlans) async throws {
        let plan = try #require(plans.all.last { node($0, toggle)?["action"] == .string("toggle") }, "no plan shows the Toggle")
        let target: [String: PropValue] = [
            "serial": try #require(plan["serial"]), "slot": .string("expanded"), "owner": .string("hero/card"), "path": .string(toggle),
        ]
        _ = try await observer.connection.call(
            destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: "org.nook.Nook1.Render", member: "Activate",
            arguments: [WireCodec.vardict(target)], timeout: .seconds(20))
    }

    /// Presses the Toggle as a script does (`nookctl press hero/card toggle`).
    static func pressToggleAsScript(_ observer: Observer) async throws {
        _ = try await observer.connection.call(
            destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: "org.nook.Nook1.Control", member: "Invoke",
            arguments: [.string("hero"), .string("card"), .string("toggle"), WireCodec.vardict([:])], timeout: .seconds(20))
    }

    // MARK: Reading plans

    static func movesCover(_ plan: [String: PropValue]) -> Bool {
        entries(plan["elements"]).contains { $0["id"] == .string("cover") }
    }

    static func focused(_ plan: [String: PropValue]) -> Bool {
        plan["cause"] == .string("activity_updated") && groupState(plan) == .dictionary(["focus": .bool(true)])
    }

    static func groupState(_ plan: [String: PropValue]) -> PropValue? { node(plan, group)?["group_state"] }

    static func node(_ plan: [String: PropValue], _ path: String) -> [String: PropValue]? {
        entries(dictionary(plan["scene"])?["nodes"]).first { $0["path"] == .string(path) }
    }

    static func dictionary(_ value: PropValue?) -> [String: PropValue]? {
        if case .dictionary(let entries)? = value { return entries }
        return nil
    }

    static func entries(_ value: PropValue?) -> [[String: PropValue]] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap { dictionary($0) }
    }

    static func rect(_ value: PropValue?) -> [Double]? {
        guard case .structure(let fields)? = value else { return nil }
        let numbers = fields.compactMap { field -> Double? in
            if case .double(let number) = field { return number }
            return nil
        }
        return numbers.count == 4 ? numbers : nil
    }

    static func size(_ value: PropValue?) -> [Double]? { rect(value).map { Array($0[2...]) } }
}
