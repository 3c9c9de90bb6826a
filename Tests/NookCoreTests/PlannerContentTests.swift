import Testing
@testable import NookCore

private typealias F = PlannerFixture

/// Content transitions inside a slot that stays on screen: rules 15 to 17.
@Suite struct PlannerContentTests {
    /// The HeroCard: a `group/hero` stack whose cover grows when `expanded` flips.
    static func heroCard(expanded: Bool, classes: String = "group/hero animate-smooth duration-400", value: String? = nil)
        -> ViewNode
    {
        let size = expanded ? "w-80 h-50" : "w-20 h-20"
        return F.vstack([
            F.node(.zstack, [
                F.node(.shape) { $0.shape = .roundedRect; $0.cornerRadius = 16; $0.color = "#4B0082"; $0.classes = "shared-[cover] " + size }
            ]),
            F.text("Toggle") { $0.classes = "button-primary" },
        ]) {
            $0.classes = classes
            $0.animationValue = value ?? String(expanded)
        }
    }

    /// An expanded card activity whose view goes from `old` to `new`.
    static func update(_ old: ViewNode, _ new: ViewNode, animate: Bool = true, callerAnimation: String? = nil,
                       settings: PlannerSettings = F.settings()) -> TransitionPlan {
        func content(_ view: ViewNode) -> SceneContent {
            SceneContent(compactLeading: F.owned("demo/card", F.image()), expanded: .activity(F.owned("demo/card", view)))
        }
        return F.plan(F.scene(.expanded, content(old), settings), F.scene(.expanded, content(new), settings),
                      cause: .activityUpdated, animate: animate, callerAnimation: callerAnimation, settings: settings)
    }

    @Test func rule15_groupsScopeSharedIdsWithinTheirGroup() throws {
        let plan = Self.update(Self.heroCard(expanded: false), Self.heroCard(expanded: true))
        let cover = try #require(plan.elements.first)
        #expect(plan.elements.count == 1)
        #expect(cover.namespace == .group)
        #expect(cover.key == "demo/card/expanded/group#0/cover")
        #expect((cover.fromPath, cover.toPath) == ("expanded/0/0", "expanded/0/0"))
        #expect(cover.clip == .none)
        #expect((cover.fromRect.width, cover.fromRect.height, cover.toRect.width, cover.toRect.height) == (80, 80, 320, 200))

        // Sibling groups with one name are separate namespaces: each cover moves within its own.
        func pair(_ big: Bool) -> ViewNode {
            let side = big ? "size-20" : "size-10"
            return F.hstack([
                F.vstack([F.node(.shape) { $0.classes = "shared-[x] " + side }]) { $0.classes = "group/card" },
                F.vstack([F.node(.shape) { $0.classes = "shared-[x] " + side }]) { $0.classes = "group/card" },
                F.node(.shape) { $0.classes = "shared-[loose] size-4" },
            ]) { $0.classes = "animate-snappy"; $0.animationValue = String(big) }
        }
        let siblings = Self.update(pair(false), pair(true))
        #expect(siblings.elements.map(\.key) == ["demo/card/expanded/group#0/x", "demo/card/expanded/group#1/x"])
        #expect(siblings.elements.map(\.toPath) == ["expanded/0/0", "expanded/1/0"])
        // A shared class with no group draws normally and says why.
        #expect(siblings.diagnostics(.missingGroup).contains { $0.id == "loose" && $0.path == "expanded/2.classes" })
    }

    /// Issue 44, part 7: rule 9 inside one view's update. Two `shared-[x]` sources in one
    /// group on both sides: `x` has no single source, so it does not move (its copies update
    /// in place), while `y` in the same group moves; the duplicate is reported for each side.
    @Test func rule9_twoSourcesOfOneIdInAGroupKeepThatIdStillAndTheOthersMove() throws {
        func view(_ big: Bool) -> ViewNode {
            let side = big ? "size-20" : "size-10"
            return F.vstack([
                F.node(.shape) { $0.classes = "shared-[x] " + side },
                F.node(.shape) { $0.classes = "shared-[x] " + side },
                F.node(.shape) { $0.classes = "shared-[y] " + side },
            ]) { $0.classes = "group/card animate-snappy"; $0.animationValue = String(big) }
        }
        let plan = Self.update(view(false), view(true))
        #expect(plan.elements.map(\.id) == ["y"], "only y travels: \(plan.elements.map(\.key))")
        let duplicates = plan.diagnostics(.duplicateSource).filter { $0.id == "x" }
        #expect(duplicates.count == 2 && duplicates.contains { $0.message.contains("in the previous view") }
                && duplicates.contains { $0.message.contains("in the new view") }, "x's duplicate on each side: \(duplicates.map(\.message))")
        #expect(!plan.diagnostics(.duplicateSource).contains { $0.id == "y" })
    }

    @Test func rule16_matchedPropertiesAnchorAndFollowers() throws {
        func view(_ wide: Bool) -> ViewNode {
            F.vstack([
                F.node(.shape) { $0.classes = "shared-[title] shared-position " + (wide ? "w-40 h-10" : "w-20 h-5") },
                F.node(.shape) { $0.classes = "shared-[badge] shared-follower " + (wide ? "size-8" : "size-4") },
                F.node(.shape) { $0.shared = SharedMark(id: "t", namespace: "hero", properties: .size, anchor: .leading); $0.classes = wide ? "size-12" : "size-6" },
            ]) { $0.classes = "group animate-smooth"; $0.animationValue = String(wide) }
        }
        let plan = Self.update(view(false), view(true))
        let title = try #require(plan.elements.first { $0.id == "title" })
        #expect(title.properties == .position)
        // Only the position travels: the start has the destination's size, centred where the source was.
        #expect(title.fromRect.size == title.toRect.size)
        let oldTitle = try #require(F.scene(.expanded, SceneContent(expanded: .activity(F.owned("demo/card", view(false))))).slots.first?.rect(at: "expanded/0"))
        #expect(abs(title.fromRect.midX - oldTitle.midX) < 1e-9 && abs(title.fromRect.midY - oldTitle.midY) < 1e-9)
        // A caller namespace carries its anchor; only the size changes, at the destination's leading edge.
        let custom = try #require(plan.elements.first { $0.id == "t" })
        #expect(custom.namespace == .custom && custom.key == "demo/card/expanded/ns:hero/t")
        #expect(custom.anchor == .leading && custom.properties == .size)
        #expect(custom.fromRect.minX == custom.toRect.minX && custom.fromRect.width == 24)
        // The follower never moves on its own.
        #expect(!plan.elements.contains { $0.id == "badge" })
    }

    @Test func rule17_onlyAChangedValueAnimates() throws {
        let changed = Self.update(Self.heroCard(expanded: false), Self.heroCard(expanded: true))
        #expect(changed.elements.first?.curve.source == "animate-smooth -> rules.animations.smooth, duration-400")
        #expect(changed.layout.contains { $0.path == "expanded/0" && $0.change == .move })
        #expect(changed.layout.contains { $0.path == "expanded/1" && $0.change == .move })
        #expect(!changed.layout.contains { $0.path == "expanded/0/0" })  // the shared element moves as an element

        // Same value, new geometry: applies at once, and the plan says why.
        let unchanged = Self.update(Self.heroCard(expanded: false, value: "same"), Self.heroCard(expanded: true, value: "same"))
        #expect(unchanged.elements.isEmpty)
        #expect(unchanged.layout.isEmpty)
        #expect(unchanged.diagnostics(.valueUnchanged).contains { $0.path == "expanded/0/0" && $0.id == "cover" })

        // Insertions and removals inside a changed scope.
        let grown = F.vstack([F.text("a"), F.text("b")]) { $0.classes = "animate-snappy"; $0.animationValue = "2" }
        let shrunk = F.vstack([F.text("a")]) { $0.classes = "animate-snappy"; $0.animationValue = "1" }
        let removal = Self.update(grown, shrunk)
        #expect(removal.layout.contains { $0.path == "expanded/1" && $0.change == .remove })
        let insertion = Self.update(shrunk, grown)
        #expect(insertion.layout.contains { $0.path == "expanded/1" && $0.change == .insert })
        #expect(insertion.layout.allSatisfy { $0.curve.source == "animate-snappy -> rules.animations.snappy" })
    }

    @Test func rule17_animateFalseNeverAnimates() {
        let plan = Self.update(Self.heroCard(expanded: false), Self.heroCard(expanded: true), animate: false)
        #expect(plan.elements.isEmpty)
        #expect(plan.layout.isEmpty)
        #expect(plan.diagnostics(.animationDisabled).contains { $0.id == "cover" })
        #expect(plan.slots.first { $0.change == .update }?.curve.kind == Curve.Kind.none)
    }

    @Test func rule17_styleOnlyChangesStillAnimateWithTheClasses() throws {
        let dim = F.vstack([F.text("a") { $0.opacity = 0.4 }]) { $0.classes = "animate-snappy" }
        let lit = F.vstack([F.text("a") { $0.opacity = 1 }]) { $0.classes = "animate-snappy" }
        let plan = Self.update(dim, lit)
        let style = try #require(plan.layout.first)
        #expect(plan.layout.count == 1)
        #expect(style.change == .style && style.path == "expanded/0")
        #expect(style.curve.source == "animate-snappy -> rules.animations.snappy")
        // With no animation classes at all, a style change applies at once.
        let plain = Self.update(F.vstack([F.text("a") { $0.opacity = 0.4 }]), F.vstack([F.text("a") { $0.opacity = 1 }]))
        #expect(plain.layout.isEmpty)
    }

    @Test func rule17_callerAnimationWhereTheScopeNamesNone() throws {
        let plan = Self.update(Self.heroCard(expanded: false, classes: "group/hero"), Self.heroCard(expanded: true, classes: "group/hero"),
                               callerAnimation: "bouncy")
        let cover = try #require(plan.elements.first)
        #expect(cover.curve.source == "animation bouncy -> rules.animations.bouncy")
        // A preset of its own wins over the caller's.
        let own = Self.update(Self.heroCard(expanded: false), Self.heroCard(expanded: true), callerAnimation: "bouncy")
        #expect(own.elements.first?.curve.source == "animate-smooth -> rules.animations.smooth, duration-400")
        // No scope, but a caller animation: the whole update animates with it.
        let whole = Self.update(F.vstack([F.cover(40)]), F.vstack([F.cover(80)]), callerAnimation: "snappy")
        #expect(whole.elements.first?.curve.source == "animation snappy -> rules.animations.snappy")
        // No scope and no caller animation: at once, explained.
        let none = Self.update(F.vstack([F.cover(40)]), F.vstack([F.cover(80)]))
        #expect(none.elements.isEmpty)
        #expect(none.diagnostics(.noAnimationScope).contains { $0.id == "cover" })
    }

    @Test func rule17_nookIdsMatchWithinTheSameSlot() throws {
        func view(_ side: Double) -> ViewNode { F.vstack([F.cover(side)]) { $0.classes = "animate-smooth"; $0.animationValue = String(side) } }
        let plan = Self.update(view(40), view(80))
        let cover = try #require(plan.elements.first)
        #expect(cover.namespace == .nook && cover.key == "demo/cover.card")
        #expect(cover.fromSlot == .expanded && cover.toSlot == .expanded)
    }

    /// An element's endpoints are not also layout entries (`ContentTransition` keeps only the
    /// element's move for them), whether the marked node stays at its path or the nodes at
    /// both paths change kind; every other node that moves keeps its layout entry.
    @Test func elementEndpointsAreNotRepeatedAsLayoutEntries() throws {
        func view(_ side: Double, swapped: Bool) -> ViewNode {
            let first = swapped ? F.text("a") : F.cover(side)
            let second = swapped ? F.cover(side) : F.text("a")
            return F.vstack([first, second, F.text("b")]) { $0.classes = "animate-smooth"; $0.animationValue = "\(side)\(swapped)" }
        }
        for swapped in [false, true] {
            let plan = Self.update(view(40, swapped: false), view(80, swapped: swapped))
            let cover = try #require(plan.elements.first)
            let endpoints: Set<String> = [cover.fromPath, cover.toPath]
            #expect(endpoints == (swapped ? ["expanded/0", "expanded/1"] : ["expanded/0"]))
            #expect(!plan.layout.contains { $0.change != .style && endpoints.contains($0.path) }, "\(plan.layout.map(\.path))")
            #expect(plan.layout.contains { $0.path == "expanded/2" && $0.change == .move })
        }
    }

    /// The node positions a planned change carries are the planner's, not part of the change:
    /// a change read back from the wire (which has none) equals and hashes as the planned one.
    @Test func aPlannedLayoutChangeEqualsTheSameChangeWithoutNodePositions() throws {
        let plan = Self.update(Self.heroCard(expanded: false), Self.heroCard(expanded: true))
        let planned = plan.layout.filter { $0.nodes != .unknown }
        #expect(!planned.isEmpty, "\(plan.layout.map(\.path))")
        for change in planned {
            let read = LayoutChange(path: change.path, change: change.change, fromRect: change.fromRect, toRect: change.toRect,
                                    curve: change.curve)
            #expect(read == change)
            #expect(Set([read, change]).count == 1)
        }
    }
}

