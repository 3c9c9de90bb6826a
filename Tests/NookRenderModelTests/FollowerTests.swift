import NookCore
@testable import NookRenderModel
import Testing

private typealias F = PlanFixture

/// Seed 001's followers on screen: an `is_source: false` copy is drawn where its source is,
/// for the matched properties, at rest and in every frame of a content transition.
@Suite struct FollowerTests {
    /// A group whose cover (the source) grows with `big`; a frame follower and a position
    /// follower (16 x 8) ride it.
    static func card(_ big: Bool) -> ViewNode {
        F.vstack([
            F.node(.shape) { $0.color = "#4B0082"; $0.classes = "shared-[cover] " + (big ? "w-80 h-50" : "w-20 h-20") },
            F.text("Toggle"),
            F.node(.shape) { $0.color = "#FFFFFF"; $0.opacity = 0.5; $0.classes = "shared-[cover] shared-follower size-8" },
            F.node(.shape) { $0.color = "#FF0000"; $0.classes = "shared-[cover] shared-follower shared-position w-4 h-2" },
        ]) { $0.classes = "group animate-smooth duration-400"; $0.animationValue = String(big) }
    }

    static func content(_ view: ViewNode) -> SceneContent {
        SceneContent(compactLeading: F.owned("demo/card", F.image("star")), expanded: .activity(F.owned("demo/card", view)))
    }

    @Test func followersAreDrawnOnTheirSourceAtRestAndInFlight() throws {
        let before = F.scene(.expanded, Self.content(Self.card(false)))
        let after = F.scene(.expanded, Self.content(Self.card(true)))
        // At rest: the frame follower covers the cover exactly; the badge is centred on it.
        var resting = PlanPresenter()
        try resting.receive(F.wire(F.subscribe(before)), at: 0)
        let still = resting.frame(at: 5, unixTime: 0)
        let source = try #require(still.item(at: "expanded/0")?.rect)
        #expect(F.isClose(still.item(at: "expanded/2")?.rect, source))
        let badge = try #require(still.item(at: "expanded/3")?.rect)
        #expect(badge.width == 16 && badge.height == 8 && abs(badge.midX - source.midX) < 1e-6 && abs(badge.midY - source.midY) < 1e-6)

        // In flight: every frame draws the follower where the travelling cover is drawn.
        let plan = F.plan(before, after, cause: .activityUpdated)
        let element = try #require(plan.elements.first)
        let presenter = try F.presenter(playing: plan, from: before, at: 10)
        for t in [0.02, 0.1, 0.2, 0.35] {
            let frame = presenter.frame(at: 10 + t, unixTime: 0)
            let cover = try #require(frame.shared(element.key).first?.rect)
            #expect(F.isStrictlyBetween(cover, element.fromRect, element.toRect))
            #expect(F.isClose(frame.item(at: "expanded/2")?.rect, cover))
            let badge = try #require(frame.item(at: "expanded/3")?.rect)
            #expect(abs(badge.midX - cover.midX) < 1e-6 && abs(badge.midY - cover.midY) < 1e-6 && badge.width == 16)
        }
        // Landed: on the grown cover.
        let landed = presenter.frame(at: 20, unixTime: 0)
        #expect(F.isClose(landed.item(at: "expanded/2")?.rect, landed.item(at: "expanded/0")?.rect))
        #expect(landed.item(at: "expanded/0")?.rect.width == 320)
    }
}
