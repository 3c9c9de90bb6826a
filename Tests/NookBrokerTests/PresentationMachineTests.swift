import Testing
@testable import NookBroker
@testable import NookCore

/// The presentation state machine, with no bus: Control actions and registry changes.
@Suite struct PresentationMachineTests {
    let music = ":1.20", timer = ":1.21"
    let t0 = BrokerTime.zero
    let song = ActivityRef(module: "music", activity: "song")
    let tea = ActivityRef(module: "timer", activity: "tea")

    func node(_ text: String) -> RawNode { RawNode(kind: "text", props: ["text": .string(text)]) }

    /// music/song (relevance 2, with peek and expanded) and timer/tea (relevance 1, minimal only);
    /// music has a home and a widget.
    func scene(withTimer: Bool = true) throws -> Registry {
        var registry = Registry()
        _ = try registry.register(module: "music", info: [:], caller: music, now: t0)
        var spec = Fixtures.spec(relevance: 2)
        spec["peek"] = .node(node("peek"))
        spec["expanded"] = .node(node("expanded"))
        _ = try registry.startActivity("song", spec: spec, caller: music, now: t0)
        _ = try registry.setContent(slot: "home", view: node("home"), caller: music, now: t0)
        _ = try registry.setContent(slot: "widget", view: node("widget"), caller: music, now: t0)
        if withTimer {
            _ = try registry.register(module: "timer", info: [:], caller: timer, now: t0)
            _ = try registry.startActivity("tea", spec: Fixtures.spec(relevance: 1), caller: timer, now: t0)
        }
        return registry
    }

    @Test func somethingToShowTurnsHiddenIntoAPill() throws {
        var machine = PresentationMachine()
        let change = machine.reconcile(with: try scene(), cause: .activityStarted)
        #expect(change?.from == .hidden && change?.to == .pill)
        #expect(machine.state == .pill)
    }

    @Test func hideHoldsUntilShow() throws {
        let registry = try scene()
        var machine = PresentationMachine(state: .pill)
        #expect(try machine.apply(.hide, registry: registry)?.to == .hidden)
        #expect(machine.reconcile(with: registry, cause: .activityUpdated) == nil, "a hidden-by-user nook stays hidden")
        #expect(try machine.apply(.show, registry: registry)?.to == .pill)
    }

    @Test func openDefaultsToThePrimaryActivitysExpandedView() throws {
        var machine = PresentationMachine(state: .pill)
        let change = try machine.apply(.open(onto: .activity(nil), via: .claim), registry: try scene())
        #expect(change?.to == .expanded(.activity(song), via: .claim))
        #expect(change?.cause == .open)
    }

    @Test func openFallsBackToTheModuleHomeWithoutAnExpandedView() throws {
        var registry = try scene()
        _ = try registry.setContent(slot: "home", view: node("timer home"), caller: timer, now: t0)
        var machine = PresentationMachine(state: .pill)
        #expect(try machine.apply(.open(onto: .activity(tea), via: .claim), registry: registry)?.to == .expanded(.home(module: "timer"), via: .claim))
    }

    @Test func openNamesWhatIsMissing() throws {
        let registry = try scene()
        var machine = PresentationMachine(state: .pill)
        #expect(throws: RegistryError(.unknownModule, "no module \"radio\"")) {
            try machine.apply(.open(onto: .home(module: "radio"), via: .claim), registry: registry)
        }
        #expect(throws: RegistryError(.unknownActivity, "module \"music\" has no activity \"podcast\"")) {
            try machine.apply(.peek(ActivityRef(module: "music", activity: "podcast")), registry: registry)
        }
        #expect(throws: RegistryError.self) { try machine.apply(.peek(tea), registry: registry) }
        #expect(machine.state == .pill, "a refused action changes nothing")
    }

    @Test func hoverOpensAndExitClosesOnlyWhatHoverOpened() throws {
        let registry = try scene()
        var machine = PresentationMachine(state: .pill)
        #expect(try machine.apply(.pointerEnter, registry: registry)?.via == .hover)
        #expect(try machine.apply(.pointerExit, registry: registry)?.to == .pill)
        _ = try machine.apply(.open(onto: .board, via: .claim), registry: registry)
        #expect(try machine.apply(.pointerExit, registry: registry) == nil, "exit leaves a claimed panel open")
        #expect(machine.state == .expanded(.board, via: .claim))
    }

    /// Rule 6: what a person opened is theirs. A module's peek (a notification arriving) does
    /// not take an expanded view or a companion from them; from the pill it peeks as ever.
    @Test func aPeekNeverTakesWhatAPersonOpened() throws {
        let registry = try scene()
        for opened in [NookState.expanded(.activity(song), via: .claim), .expanded(.board, via: .hover), .companion(module: "music")] {
            var machine = PresentationMachine(state: opened)
            let change = try machine.apply(.peek(song), registry: registry)
            #expect(change == nil, "a peek changed \(opened)")
            #expect(machine.state == opened)
            #expect(try machine.apply(.endPeek, registry: registry) == nil, "its end peek closed \(opened)")
            #expect(machine.state == opened)
        }
        var resting = PresentationMachine(state: .pill)
        #expect(try resting.apply(.peek(song), registry: registry)?.to == .peek(song))
    }

    @Test func endingThePeekedActivityReturnsToThePill() throws {
        var registry = try scene()
        var machine = PresentationMachine(state: .pill)
        _ = try machine.apply(.peek(song), registry: registry)
        _ = try registry.endActivity("song", options: [:], caller: music, now: t0)
        let change = machine.reconcile(with: registry, cause: .activityEnded)
        #expect(change?.from == .peek(song) && change?.to == .pill)
    }

    @Test func lastActivityEndingHidesThePill() throws {
        var registry = try scene(withTimer: false)
        var machine = PresentationMachine(state: .pill)
        _ = try registry.endActivity("song", options: [:], caller: music, now: t0)
        #expect(machine.reconcile(with: registry, cause: .activityEnded)?.to == .hidden)
    }

    @Test func companionNeedsAHomeAndClosesBackToThePill() throws {
        let registry = try scene()
        var machine = PresentationMachine(state: .pill)
        #expect(throws: RegistryError.self) { try machine.apply(.openCompanion(module: "timer"), registry: registry) }
        #expect(try machine.apply(.openCompanion(module: "music"), registry: registry)?.to == .companion(module: "music"))
        #expect(try machine.apply(.closeCompanion, registry: registry)?.to == .pill)
    }

    @Test func sceneContentPutsThePrimaryBesideTheNotchAndOthersInCapsules() throws {
        let registry = try scene()
        let pill = SceneAssembler.content(for: .pill, registry: registry)
        #expect(pill.compactLeading?.owner == "music/song")
        #expect(pill.minimal.map(\.owner) == ["timer/tea"])
        let board = SceneAssembler.content(for: .expanded(.board, via: .claim), registry: registry)
        guard case .board(let widgets)? = board.expanded else { Issue.record("no board"); return }
        #expect(widgets.map(\.owner) == ["music"])
        let home = SceneAssembler.content(for: .expanded(.home(module: "music"), via: .claim), registry: registry)
        guard case .home(let view)? = home.expanded else { Issue.record("no home"); return }
        #expect(view.owner == "music")
    }
}
