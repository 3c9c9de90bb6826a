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
}
