@testable import NookBroker
import NookCore
import Testing

/// Every activity in reach and dismissed by hand (issue 39), in the broker, with no bus: the
/// presentation machine's hover onto a slot, the board's tiles, and the `dismissible` spec key
/// carried into the scene and the plan. On screen: `ReachOnScreenTests`.
@Suite struct ReachTests {
    let music = ":1.20", timer = ":1.21", notes = ":1.22"
    let t0 = BrokerTime.zero
    let song = ActivityRef(module: "music", activity: "song")
    let tea = ActivityRef(module: "timer", activity: "tea")

    func node(_ text: String) -> RawNode { RawNode(kind: "text", props: ["text": .string(text)]) }

    /// music/song (relevance 2, expanded; the module has a home and a widget), timer/tea
    /// (relevance 1, expanded, no home or widget) and a module `notes` with a home only.
    func registry() throws -> Registry {
        var registry = Registry()
        _ = try registry.register(module: "music", info: [:], caller: music, now: t0)
        var spec = Fixtures.spec(relevance: 2)
        spec["expanded"] = .node(node("song expanded"))
        _ = try registry.startActivity("song", spec: spec, caller: music, now: t0)
        _ = try registry.setContent(slot: "home", view: node("home"), caller: music, now: t0)
        _ = try registry.setContent(slot: "widget", view: node("widget"), caller: music, now: t0)
        _ = try registry.register(module: "timer", info: ["display_name": .string("Timers")], caller: timer, now: t0)
        var teaSpec = Fixtures.spec(label: "Tea, 4 minutes", relevance: 1)
        teaSpec["expanded"] = .node(node("tea expanded"))
        _ = try registry.startActivity("tea", spec: teaSpec, caller: timer, now: t0)
        _ = try registry.register(module: "notes", info: [:], caller: notes, now: t0)
        _ = try registry.setContent(slot: "home", view: node("notes home"), caller: notes, now: t0)
        return registry
    }

    @Test func hoveringACapsuleOpensByHoverOntoThatActivity() throws {
        let registry = try registry()
        var machine = PresentationMachine(state: .pill)
        let change = try machine.apply(.pointerEnterOnto(.activity(tea)), registry: registry)
        #expect(change?.to == .expanded(.activity(tea), via: .hover), "hover opened \(String(describing: change?.to)), not the capsule's activity")
        #expect(try machine.apply(.pointerExit, registry: registry)?.to == .pill, "leaving closes what hovering opened")
    }

    @Test func hoveringASlotActsOnlyFromThePillOrAPeek() throws {
        let registry = try registry()
        var machine = PresentationMachine(state: .expanded(.activity(song), via: .claim))
        #expect(try machine.apply(.pointerEnterOnto(.activity(tea)), registry: registry) == nil, "hover replaced a claimed panel")
        machine = PresentationMachine(state: .hidden)
        #expect(try machine.apply(.pointerEnterOnto(.activity(tea)), registry: registry) == nil)
    }

    @Test func aModuleSlotOpensItsHomeElseItsFirstActivityThatOpens() throws {
        let registry = try registry()
        var machine = PresentationMachine(state: .pill)
        #expect(try machine.apply(.open(onto: .module("notes"), via: .claim), registry: registry)?.to == .expanded(.home(module: "notes"), via: .claim))
        #expect(try machine.apply(.open(onto: .module("timer"), via: .claim), registry: registry)?.to == .expanded(.activity(tea), via: .claim))
        #expect(throws: RegistryError(.unknownModule, "no module \"radio\"")) {
            try machine.apply(.open(onto: .module("radio"), via: .claim), registry: registry)
        }
    }

    @Test func theBoardHasATileForEveryModuleWithAHomeAWidgetOrAnActivityThatOpens() throws {
        let registry = try registry()
        let content = SceneAssembler.content(for: .expanded(.board, via: .claim), registry: registry)
        guard case .board(let tiles)? = content.expanded else {
            Issue.record("the board shows \(String(describing: content.expanded))")
            return
        }
        #expect(tiles.map(\.owner) == ["music", "notes", "timer"])
        #expect(tiles.first?.view == ViewNode(kind: .text, props: { var p = NodeProps(); p.text = "widget"; return p }()),
                "a module's widget is its tile")
        let timerTexts = tiles.last?.view.children.compactMap(\.props.text)
        #expect(timerTexts == ["Timers", "Tea, 4 minutes"], "the plain tile names the module and its activity: \(String(describing: timerTexts))")
    }

    @Test func theBoardOpensWithOnlyAHome() throws {
        var registry = Registry()
        _ = try registry.register(module: "notes", info: [:], caller: notes, now: t0)
        _ = try registry.setContent(slot: "home", view: node("notes home"), caller: notes, now: t0)
        var machine = PresentationMachine(state: .pill)
        #expect(try machine.apply(.open(onto: .board, via: .claim), registry: registry)?.to == .expanded(.board, via: .claim))
    }

    @Test func anActivityIsDismissibleUnlessItsModuleSaysOtherwise() throws {
        var registry = try registry()
        #expect(SceneAssembler.content(for: .pill, registry: registry).undismissible.isEmpty)
        var spec = Fixtures.spec(relevance: 0)
        spec["dismissible"] = .bool(false)
        _ = try registry.startActivity("alarm", spec: spec, caller: timer, now: t0)
        #expect(SceneAssembler.content(for: .pill, registry: registry).undismissible == ["timer/alarm"])
        _ = try registry.updateActivity("alarm", changes: ["dismissible": .bool(true)], caller: timer, now: t0)
        #expect(SceneAssembler.content(for: .pill, registry: registry).undismissible.isEmpty)
        #expect(throws: RegistryError.self) {
            try registry.updateActivity("alarm", changes: ["dismissible": .string("no")], caller: timer, now: t0)
        }
    }

    @Test func thePlanListsUndismissibleActivities() throws {
        var content = SceneContent()
        content.undismissible = ["timer/alarm"]
        let settings = PlannerSettings(display: DisplayInfo(width: 1512, height: 982, notchWidth: 200, notchHeight: 32, scale: 2))
        let before = PlannerScene(presentation: .hidden, content: SceneContent(), settings: settings)
        let after = PlannerScene(presentation: .pill, content: content, settings: settings)
        let plan = TransitionPlanner.plan(from: before, to: after, action: PlanAction(cause: .show, serial: 2), settings: settings)
        #expect(plan.undismissible == ["timer/alarm"])
        let wire = plan.wireDictionary(sampleRate: nil)
        #expect(wire["undismissible"] == .array([.string("timer/alarm")]))
        var warnings: [String] = []
        let read = try ReceivedPlan(wire: .dictionary(wire), warnings: &warnings)
        #expect(read.undismissible == ["timer/alarm"])
    }

    @Test func undismissibleIsKeptAcrossARestart() throws {
        var registry = try registry()
        var spec = Fixtures.spec(relevance: 0)
        spec["dismissible"] = .bool(false)
        _ = try registry.startActivity("alarm", spec: spec, caller: timer, now: t0)
        let stored = registry.snapshot.modules.first { $0.id == "timer" }?.activities.first { $0.id == "alarm" }
        #expect(stored?.dismissible == false)
        #expect(stored?.spec["dismissible"] == .bool(false))
    }
}
