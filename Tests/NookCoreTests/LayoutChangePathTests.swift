import Testing
@testable import NookCore

private typealias F = PlannerFixture

/// A planned layout change names its node and writes its path only when read: the path it
/// reads must be the node's, in whichever view holds it, and stay a plain value.
@Suite struct LayoutChangePathTests {
    /// A card whose scope value flips: the first row changes kind (remove + insert), the
    /// second grows (move), the third changes colour (style), the old view's last row goes.
    static func card(_ flipped: Bool) -> ViewNode {
        var rows: [ViewNode] = [
            flipped ? F.image() : F.text("first"),
            F.node(.shape) { $0.classes = flipped ? "size-12" : "size-6" },
            F.node(.shape) { $0.classes = "size-4"; $0.color = flipped ? "#FF0000" : "#00FF00" },
        ]
        if !flipped { rows.append(F.vstack([F.text("gone"), F.text("too")])) }
        return F.vstack(rows) { $0.classes = "animate-smooth"; $0.animationValue = String(flipped) }
    }

    static func plan() -> (plan: TransitionPlan, before: PlannerScene, after: PlannerScene) {
        func content(_ view: ViewNode) -> SceneContent { SceneContent(expanded: .activity(F.owned("demo/card", view))) }
        let before = F.scene(.expanded, content(card(false)))
        let after = F.scene(.expanded, content(card(true)))
        return (F.plan(before, after, cause: .activityUpdated), before, after)
    }

    @Test func eachChangeReadsThePathOfItsNode() throws {
        let (plan, before, after) = Self.plan()
        let old = try #require(before.slots.first { $0.name == .expanded })
        let new = try #require(after.slots.first { $0.name == .expanded })
        let kinds = Set(plan.layout.map(\.change))
        #expect(kinds.isSuperset(of: [.move, .insert, .remove, .style]))
        for change in plan.layout {
            if change.change == .remove {
                #expect(old.rect(at: change.path) == change.fromRect, "\(change.path)")
            } else {
                #expect(new.rect(at: change.path) == change.toRect, "\(change.path)")
            }
        }
        #expect(plan.layout.contains { $0.change == .remove && $0.path == "expanded/3" })
        #expect(plan.layout.contains { $0.change == .insert && $0.path == "expanded/0" })
        #expect(plan.layout.contains { $0.change == .move && $0.path == "expanded/1" })
    }

    @Test func aPlannedChangeEqualsItsWrittenCopyAndTakesANewPath() throws {
        let (plan, _, _) = Self.plan()
        let planned = try #require(plan.layout.first { $0.change == .move })
        let written = LayoutChange(path: planned.path, change: planned.change, fromRect: planned.fromRect, toRect: planned.toRect,
                                   curve: planned.curve)
        #expect(written == planned)
        #expect(written.hashValue == planned.hashValue)
        var renamed = planned
        renamed.path = "expanded/9"
        #expect(renamed.path == "expanded/9")
        #expect(renamed != planned)
        #expect(planned.path == written.path)
    }

    /// A marked node that changes kind where it stands: its key has a source on each side, so
    /// the walk sets its changes aside, and since the element does not move (same place, same
    /// size) they come back in walk order among the others.
    @Test func changesAtAnElementThatStaysComeBackInWalkOrder() throws {
        func view(_ flipped: Bool) -> ViewNode {
            F.vstack([
                flipped ? F.node(.image) { $0.symbol = "music.note"; $0.classes = "shared-[x] size-10" } : F.node(.shape) { $0.classes = "shared-[x] size-10" },
                F.node(.shape) { $0.classes = flipped ? "size-12" : "size-6" },
                F.node(.shape) { $0.classes = "shared-[y] " + (flipped ? "size-8" : "size-4") },
            ]) { $0.classes = "group animate-smooth"; $0.animationValue = String(flipped) }
        }
        func content(_ view: ViewNode) -> SceneContent { SceneContent(expanded: .activity(F.owned("demo/card", view))) }
        let plan = F.plan(F.scene(.expanded, content(view(false))), F.scene(.expanded, content(view(true))), cause: .activityUpdated)
        // y moves as an element, so its node's own change goes; x stays, so its remove and insert stay.
        #expect(plan.elements.map(\.toPath) == ["expanded/2"])
        let changes = plan.layout.map { "\($0.change.rawValue) \($0.path)" }
        let x = try #require(changes.firstIndex(of: "remove expanded/0"))
        #expect(changes[x + 1] == "insert expanded/0")
        let grown = try #require(changes.firstIndex(of: "move expanded/1"))
        #expect(x < grown)
        #expect(!changes.contains("move expanded/2"))
    }
}
