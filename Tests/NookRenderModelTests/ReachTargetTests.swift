import NookCore
@testable import NookRenderModel
import Testing

/// Every activity in reach (issue 39), in the model: what each frame lists as reach targets,
/// the close control it draws, and the keyboard among the targets (`ReachFocus`). On screen:
/// `ReachOnScreenTests`, `KeyboardReachOnScreenTests`.
@Suite struct ReachTargetTests {
    typealias F = PlanFixture

    /// The song as the pill, timer/tea in a capsule (with an expanded view).
    static func content(expandTea: Bool = false, undismissible: [String] = []) -> SceneContent {
        var content = F.song()
        content.minimal = [F.owned("timer/tea", F.text("T"))]
        if expandTea { content.expanded = .activity(F.owned("timer/tea", F.text("Tea, 4 minutes", size: 17))) }
        content.undismissible = undismissible
        return content
    }

    static func restingFrame(_ presentation: Presentation, _ content: SceneContent) throws -> DisplayList {
        let plan = F.subscribe(F.scene(presentation, content))
        var presenter = PlanPresenter()
        try presenter.receive(F.wire(plan), at: 0)
        return presenter.frame(at: 100, unixTime: 0)
    }

    @Test func thePillAndEachCapsuleAreTargetsNamingTheirOwner() throws {
        let list = try Self.restingFrame(.pill, Self.content())
        let pill = try #require(list.targets.first { $0.kind == .pill })
        #expect(pill.owner == "music/song" && pill.rect == list.chrome?.rect)
        let capsule = try #require(list.targets.first { $0.kind == .capsule })
        #expect(capsule.owner == "timer/tea" && capsule.slot == "minimal" && capsule.dismissible)
        #expect(list.target(at: Point(x: capsule.rect.midX, y: capsule.rect.midY))?.owner == "timer/tea")
        #expect(list.pointerRects.contains(capsule.rect), "the window does not take the pointer over the capsule")
        #expect(!list.targets.contains { $0.kind == .close }, "a close control on the pill")
    }

    /// A board tile's whole cell is its hit area: the tile target is the plan's `board_cells`
    /// rect, not the widget's, so a point in the cell's empty corner reaches the tile.
    @Test func aBoardTileIsItsWholeCell() throws {
        var content = F.song()
        content.expanded = .board([F.owned("music", F.text("Music")), F.owned("timer", F.text("Timers"))])
        let plan = F.subscribe(F.scene(.expanded, content))
        #expect(plan.toContent == "board" && plan.boardCells.count == 2, "\(plan.toContent) \(plan.boardCells)")
        var presenter = PlanPresenter()
        try presenter.receive(F.wire(plan), at: 0)
        let list = presenter.frame(at: 100, unixTime: 0)
        for cell in plan.boardCells {
            let tile = try #require(list.targets.first { $0.kind == .tile && $0.owner == cell.owner }, "no tile for \(cell.owner): \(list.targets)")
            #expect(tile.rect == cell.rect, "the tile \(tile.rect) is not its cell \(cell.rect)")
            let widget = try #require(plan.scene.layout.node(at: SlotName.widget.rootPath(owner: cell.owner))?.node.rect)
            let corner = Point(x: cell.rect.minX + 2, y: cell.rect.minY + 2)
            #expect(!(corner.x >= widget.minX && corner.x <= widget.maxX && corner.y >= widget.minY && corner.y <= widget.maxY),
                    "the corner \(corner) is on the widget \(widget): no empty corner to try")
            #expect(list.target(at: corner)?.owner == cell.owner, "the empty corner of \(cell.owner)'s cell reaches \(String(describing: list.target(at: corner)))")
        }
    }

    @Test func anExpandedActivityGetsACloseControlBesideTheChromeUnlessUndismissible() throws {
        let list = try Self.restingFrame(.expanded, Self.content(expandTea: true))
        let chrome = try #require(list.chrome?.rect)
        let close = try #require(list.targets.first { $0.kind == .close }, "no close control: \(list.targets)")
        #expect(close.owner == "timer/tea" && close.activity?.module == "timer" && close.activity?.activity == "tea")
        #expect(close.rect.minX >= chrome.maxX, "the close control \(close.rect) overlaps the chrome \(chrome)")
        #expect(list.items.contains { $0.path == "close:timer/tea" }, "the close control is not drawn")
        let kept = try Self.restingFrame(.expanded, Self.content(expandTea: true, undismissible: ["timer/tea"]))
        #expect(!kept.targets.contains { $0.kind == .close } && !kept.items.contains { $0.path.hasPrefix("close:") })
        #expect(kept.targets.first { $0.kind == .panel }?.dismissible == false)
    }

    @Test func theKeyboardCyclesLeftToRightOpensDismissesAndReleases() throws {
        let targets = try Self.restingFrame(.pill, Self.content()).targets
        var focus = ReachFocus()
        guard case .focused(let first) = focus.start(targets: targets) else { Issue.record("no start"); return }
        #expect(first.kind == .pill)
        guard case .focused(let next) = focus.handle(.next, targets: targets) else { Issue.record("no next"); return }
        #expect(next.kind == .capsule && next.owner == "timer/tea")
        #expect(focus.handle(.activate, targets: targets) == .open(next))
        #expect(focus.handle(.dismiss, targets: targets) == .dismiss(next))
        guard case .focused(let wrapped) = focus.handle(.next, targets: targets) else { Issue.record("no wrap"); return }
        #expect(wrapped.kind == .pill, "Tab past the last target does not wrap to the first")
        #expect(focus.handle(.close, targets: targets) == .release)
        #expect(focus.focused == nil)
    }

    @Test func theKeyboardLeavesAnUndismissibleActivity() throws {
        let targets = try Self.restingFrame(.pill, Self.content(undismissible: ["timer/tea"])).targets
        var focus = ReachFocus()
        _ = focus.start(targets: targets)
        _ = focus.handle(.next, targets: targets)
        #expect(focus.handle(.dismiss, targets: targets) == .none)
    }
}
