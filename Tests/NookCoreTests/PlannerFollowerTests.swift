import Testing
@testable import NookCore

private typealias F = PlannerFixture

/// Seed 001's followers: an `is_source: false` copy takes its source's geometry for the
/// matched properties, at rest and while the source moves in a content transition.
@Suite struct PlannerFollowerTests {
    /// A group with a cover (the source), a frame follower with a caption inside, and a
    /// position follower; the cover grows with `expanded`.
    static func card(expanded: Bool) -> ViewNode {
        F.vstack([
            F.node(.shape) { $0.classes = "shared-[cover] " + (expanded ? "w-80 h-50" : "w-20 h-20") },
            F.text("Between"),
            F.node(.zstack, [F.text("Now playing")]) { $0.classes = "shared-[cover] shared-follower size-8" },
            F.node(.shape) { $0.classes = "shared-[cover] shared-follower shared-position w-4 h-2" },
        ]) {
            $0.classes = "group animate-smooth"
            $0.animationValue = String(expanded)
        }
    }

    static func scene(_ view: ViewNode) -> PlannerScene {
        F.scene(.expanded, SceneContent(expanded: .activity(F.owned("demo/card", view))))
    }

    static func rect(_ scene: PlannerScene, _ path: String) throws -> Rect {
        try #require(scene.nodes.first { $0.path == path }?.rect)
    }

    @Test func followersTakeTheirSourcesGeometryAtRest() throws {
        for expanded in [false, true] {
            let scene = Self.scene(Self.card(expanded: expanded))
            let source = try Self.rect(scene, "expanded/0")
            // Frame: the follower's whole frame is the source's, and its content is laid out inside it.
            let follower = try Self.rect(scene, "expanded/2")
            #expect(follower == source)
            let caption = try Self.rect(scene, "expanded/2/0")
            #expect(caption.midX.isClose(to: source.midX) && caption.midY.isClose(to: source.midY))
            #expect(caption.width <= source.width + Geometry.epsilon)
            // Position: its own size (16 x 8), centred where the source is.
            let badge = try Self.rect(scene, "expanded/3")
            #expect(badge.size == Size(width: 16, height: 8))
            #expect(badge.midX.isClose(to: source.midX) && badge.midY.isClose(to: source.midY))
            // The layout the plan keeps agrees with the scene it reports.
            #expect(scene.slots.first?.rect(at: "expanded/2") == follower)
        }
        // Without a source the follower keeps its own geometry.
        let alone = Self.scene(F.vstack([F.node(.shape) { $0.classes = "shared-[x] shared-follower size-8" }]) { $0.classes = "group" })
        #expect(try Self.rect(alone, "expanded/0").size == Size(width: 32, height: 32))
    }

    @Test func followersTrackTheirSourceThroughAContentTransition() throws {
        let old = Self.scene(Self.card(expanded: false))
        let new = Self.scene(Self.card(expanded: true))
        let plan = F.plan(old, new, cause: .activityUpdated)
        let cover = try #require(plan.elements.first { $0.id == "cover" })
        #expect(plan.elements.count == 1)  // followers still never move as elements of their own
        let follower = try #require(plan.layout.first { $0.path == "expanded/2" && $0.change == .move })
        // The same trip on the same curve: at every instant it is where the source is drawn.
        #expect(follower.fromRect == cover.fromRect && follower.toRect == cover.toRect)
        #expect(follower.curve == cover.curve)
        let badge = try #require(plan.layout.first { $0.path == "expanded/3" && $0.change == .move })
        #expect(badge.curve == cover.curve)
        for t in [0.0, 0.3, 0.5, 1.0] {
            let sourceAt = RectMath.lerp(cover.fromRect, cover.toRect, t)
            let badgeAt = RectMath.lerp(badge.fromRect, badge.toRect, t)
            #expect(badgeAt.size == Size(width: 16, height: 8))
            #expect(badgeAt.midX.isClose(to: sourceAt.midX) && badgeAt.midY.isClose(to: sourceAt.midY))
        }
        // The follower's content travels with it on the same curve.
        let caption = try #require(plan.layout.first { $0.path == "expanded/2/0" && $0.change == .move })
        #expect(caption.curve == cover.curve)
        #expect(caption.toRect == (try Self.rect(new, "expanded/2/0")))
    }

    @Test func aFollowerWhoseSourceJumpsJumpsWithIt() {
        // Same value: the source takes its new geometry at once, and so does its follower.
        func card(_ expanded: Bool) -> ViewNode {
            var view = Self.card(expanded: expanded)
            view.props.animationValue = "same"
            return view
        }
        let plan = F.plan(Self.scene(card(false)), Self.scene(card(true)), cause: .activityUpdated)
        #expect(plan.elements.isEmpty)
        #expect(!plan.layout.contains { $0.path.hasPrefix("expanded/2") || $0.path == "expanded/3" })
    }
}

private extension Double {
    func isClose(to other: Double) -> Bool { abs(self - other) < 1e-6 }
}
