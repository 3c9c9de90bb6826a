import Testing
@testable import NookCore

private typealias F = PlannerFixture

/// SPEC rule 23: a group's explicit state (`group_state`) comes from the module; a change of
/// it is a content update whose scene carries the new state and whose `layout` restyles the
/// nodes that depend on it.
@Suite struct PlannerGroupStateTests {
    /// A `group/hero` card whose title fades in when the group has focus.
    static func card(focus: Bool, disabled: Bool = false, classes: String = "group/hero animate-smooth duration-400") -> ViewNode {
        F.vstack([
            F.node(.shape) { $0.classes = "shared-[cover] size-20" },
            F.text("Title") { $0.classes = "opacity-60 group-focus/hero:opacity-100 dark:group-hover/hero:opacity-50" },
            F.text("Off") { $0.classes = "group-disabled/hero:opacity-30" },
            F.text("Loose") { $0.classes = "hover:opacity-80" },
        ]) {
            $0.classes = classes
            $0.animationValue = "card"
            $0.groupState = ["focus": focus, "disabled": disabled]
        }
    }

    @Test func rule23_groupStateChangeRestylesOnlyNodesWhoseVariantsReadThatState() throws {
        let plan = PlannerContentTests.update(Self.card(focus: false), Self.card(focus: true))
        // Only the title reads group-focus; the other variants read states that did not change.
        #expect(plan.layout.map(\.path) == ["expanded/1"])
        let style = try #require(plan.layout.first)
        #expect(style.change == .style)
        // The value did not change, so nothing moves; the style still animates on the classes.
        #expect(style.curve.source == "animate-smooth -> rules.animations.smooth, duration-400")
        #expect(plan.elements.isEmpty)

        let disabling = PlannerContentTests.update(Self.card(focus: false), Self.card(focus: false, disabled: true))
        #expect(disabling.layout.map(\.path) == ["expanded/2"])
    }

    @Test func rule23_groupStateChangeReachesTheSceneWithResolvedVariants() throws {
        let plan = PlannerContentTests.update(Self.card(focus: false), Self.card(focus: true))
        let group = try #require(plan.scene.nodes.first { $0.path == "expanded" })
        #expect(group.props.groupState == ["focus": true, "disabled": false])
        let title = try #require(plan.scene.nodes.first { $0.path == "expanded/1" })
        // `dark:group-hover/hero:` keeps the element's own state and points the group one at the card.
        #expect(title.variants.map(\.wireDictionary) == [
            ["state": .string("group-focus"), "group_path": .string("expanded"), "classes": .string("opacity-100"),
             "conditions": .array([.dictionary(["state": .string("focus"), "group_path": .string("expanded")])])],
            ["state": .string("dark:group-hover"), "group_path": .string("expanded"), "classes": .string("opacity-50"),
             "conditions": .array([
                .dictionary(["state": .string("dark"), "group_path": .string("")]),
                .dictionary(["state": .string("hover"), "group_path": .string("expanded")]),
             ])],
        ])
        guard case .dictionary(let scene)? = plan.wireDictionary()["scene"], case .array(let nodes)? = scene["nodes"],
              case .dictionary(let node)? = nodes.first
        else { Issue.record("no scene"); return }
        #expect(node["group_state"] == .dictionary(["focus": .bool(true), "disabled": .bool(false)]))
    }

    @Test func rule23_groupStateChangeWithoutAnimationClassesAppliesAtOnce() {
        let plan = PlannerContentTests.update(Self.card(focus: false, classes: "group/hero"), Self.card(focus: true, classes: "group/hero"))
        #expect(plan.layout.isEmpty)
        // With animate: false nothing animates, state changes included.
        #expect(PlannerContentTests.update(Self.card(focus: false), Self.card(focus: true), animate: false).layout.isEmpty)
    }

    @Test func rule23_unchangedGroupStateRestylesNothing() {
        #expect(PlannerContentTests.update(Self.card(focus: true), Self.card(focus: true)).layout.isEmpty)
    }
}
