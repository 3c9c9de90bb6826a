import NookCore
@testable import NookRenderModel
import NookTestSupport
import Testing

private typealias F = PlanFixture

/// Contract 1.1, `scene_delta`: a renderer that applies each plan's delta to the scene it holds
/// always holds exactly the scene a whole-scene plan would have carried.
@Suite struct SceneDeltaPropertyTests {
    /// Random song-like content: texts change, nodes come and go, owners and slots reorder.
    struct Generator {
        var random: SeededGenerator

        mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &random) < p }

        mutating func leaf() -> ViewNode {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: F.cover(Double(Int.random(in: 16...120, using: &random)), id: chance(0.5) ? "cover" : nil)
            case 1: F.image(["waveform", "play.fill", "pause.fill"].randomElement(using: &random)!)
            default: F.text("line \(Int.random(in: 0..<6, using: &random))", size: Double(Int.random(in: 11...17, using: &random)))
            }
        }

        mutating func view(depth: Int = 2) -> ViewNode {
            guard depth > 0, chance(0.7) else { return leaf() }
            let children = (0..<Int.random(in: 1...4, using: &random)).map { _ in view(depth: depth - 1) }
            return chance(0.5) ? F.vstack(children) : F.hstack(children)
        }

        mutating func scene() -> PlannerScene {
            let owners = ["music/song", "music/radio", "timer/tea"].shuffled(using: &random)
            var content = SceneContent(
                compactLeading: F.owned(owners[0], view(depth: 1)), compactTrailing: F.owned(owners[0], view(depth: 1)),
                minimal: owners.dropFirst().filter { _ in chance(0.8) }.map { F.owned($0, F.image("circle.fill")) })
            let presentation: Presentation = [.pill, .peek, .expanded].randomElement(using: &random)!
            if presentation == .peek { content.peek = F.owned(owners[0], view()) }
            if presentation == .expanded { content.expanded = .activity(F.owned(owners[0], view())) }
            return F.scene(presentation, content)
        }
    }

    static func decode(_ plan: TransitionPlan, base: (serial: UInt64, scene: PlannerScene)?, held: (serial: UInt64, scene: RenderScene)?) throws -> RenderPlan {
        var warnings: [String] = []
        return try RenderPlan(wire: PropValue.dictionary(plan.wireDictionary(base: base, compact: true)), held: held, warnings: &warnings)
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func applyingDeltasInOrderGivesTheWholeScene(seed: UInt64) throws {
        let runSeed = SeededGenerator.runSeed(pinned: seed)
        var generator = Generator(random: SeededGenerator(seed: runSeed))
        var sent = F.subscribe(generator.scene())
        var held = try Self.decode(sent, base: nil, held: nil)
        var deltas = 0
        for serial in 2..<60 as Range<UInt64> {
            // Mostly small edits of the scene sent last; now and then a whole new one.
            let next = generator.chance(0.3) ? generator.scene() : Self.edited(sent.scene, &generator)
            let plan = F.plan(sent.scene, next, cause: .activityUpdated, serial: serial)
            let whole = try Self.decode(plan, base: nil, held: nil)
            let wire = plan.wireDictionary(base: (sent.serial, sent.scene), compact: true)
            if wire["scene_delta"] != nil { deltas += 1 }
            let applied = try Self.decode(plan, base: (sent.serial, sent.scene), held: (held.serial, held.scene))
            #expect(applied.scene == whole.scene, "\(SeededGenerator.replay(runSeed)), serial \(serial)")
            #expect(applied == whole)
            sent = plan
            held = applied
        }
        #expect(deltas > 40)
    }

    /// `scene` with one view's text changed or a leaf added or dropped.
    static func edited(_ scene: PlannerScene, _ generator: inout Generator) -> PlannerScene {
        var content = scene.content
        // Unchanged nodes that change places: a delta must still give the new order.
        if generator.chance(0.3) { content.minimal.reverse() }
        func edit(_ view: ViewNode) -> ViewNode {
            var view = view
            if view.kind.isStack, !view.children.isEmpty {
                let index = Int.random(in: 0..<view.children.count, using: &generator.random)
                switch Int.random(in: 0..<3, using: &generator.random) {
                case 0: view.children.insert(generator.leaf(), at: index)
                case 1 where view.children.count > 1: view.children.remove(at: index)
                default: view.children[index] = edit(view.children[index])
                }
            } else if view.kind == .text {
                view.props.text = "now \(Int.random(in: 0..<100, using: &generator.random))"
            } else {
                view = generator.leaf()
            }
            return view
        }
        if case .activity(var owned)? = content.expanded {
            owned.view = edit(owned.view)
            content.expanded = .activity(owned)
        } else if var peek = content.peek {
            peek.view = edit(peek.view)
            content.peek = peek
        } else if var trailing = content.compactTrailing {
            trailing.view = edit(trailing.view)
            content.compactTrailing = trailing
        }
        return F.scene(scene.presentation, content)
    }

    @Test func aContentUpdateSendsOnlyWhatChanged() throws {
        let expanded = F.scene(.expanded, F.song(expanded: F.songExpanded))
        let updated = F.scene(.expanded, F.song(expanded: F.vstack([F.cover(120), F.text("Song title", size: 17), F.text("Artest")])))
        let sent = F.subscribe(expanded)
        let plan = F.plan(expanded, updated, cause: .activityUpdated, serial: 2)
        let wire = plan.wireDictionary(base: (sent.serial, sent.scene), compact: true)
        guard case .dictionary(let delta)? = wire["scene_delta"], case .array(let upserted)? = delta["upserted"] else {
            Issue.record("no scene_delta in \(wire.keys.sorted())")
            return
        }
        #expect(wire["scene"] == nil)
        #expect(delta["base"] == PropValue.uint(sent.serial))
        #expect(upserted.count == 1)
        #expect(delta["removed"] == PropValue.array([]))
    }

    @Test func aFreshWindowCarriesTheWholeScene() {
        let pill = F.scene(.pill, F.song())
        let sent = F.subscribe(pill)
        let fresh = F.plan(pill, pill, cause: .displayChanged, serial: 2)
        #expect(fresh.freshWindow)
        let wire = fresh.wireDictionary(base: (sent.serial, sent.scene))
        #expect(wire["scene"] != nil)
        #expect(wire["scene_delta"] == nil)
    }

    @Test func aDeltaAgainstAnotherSceneAsksForTheWholeOne() throws {
        let opened = F.openSong()
        let sent = F.subscribe(opened.pill)
        let plan = F.plan(opened.pill, opened.expanded, cause: .open, serial: 5)
        var presenter = PlanPresenter()
        // This renderer missed the subscribe plan the delta edits.
        try presenter.receive(F.wire(F.subscribe(opened.pill, serial: 3)), at: 0)
        let wire = PropValue.dictionary(plan.wireDictionary(base: (sent.serial, sent.scene), compact: true))
        #expect(throws: RenderPlanError.self) { try presenter.receive(wire, at: 1) }
        do {
            try presenter.receive(wire, at: 1)
        } catch {
            #expect(error.needsWholeScene)
        }
        #expect(presenter.serial == 3)
    }
}
