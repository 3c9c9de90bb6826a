import Testing
@testable import NookCore

private typealias F = PlannerFixture

/// Reduce Motion, fresh windows, companions, interruptions and the duration cap: rules 18 to 22.
@Suite struct PlannerSpecialCaseTests {
    @Test func rule18_reduceMotionSurfaceElementsOnlyFadeWithTheirSlots() {
        let plan = F.openSong(settings: F.settings(reduceMotion: true))
        #expect(plan.reduceMotion)
        #expect(plan.elements.isEmpty)
        #expect(plan.diagnostics(.reduceMotion).contains { $0.id == "cover" && $0.path == "expanded/0" })
        // The slots still fade.
        #expect(plan.slots.contains { $0.change == .appear && $0.curve.source.hasPrefix("transition.fade") })
        // The shared element still counts as on screen with a counterpart: no dip.
        #expect(plan.conversion == .direct)
    }

    @Test func rule18_reduceMotionContentTakesFinalGeometryAtOnce() {
        let plan = PlannerContentTests.update(
            PlannerContentTests.heroCard(expanded: false), PlannerContentTests.heroCard(expanded: true),
            settings: F.settings(reduceMotion: true))
        #expect(plan.elements.isEmpty)
        #expect(!plan.layout.contains { $0.change != .style })
        #expect(plan.diagnostics(.reduceMotion).contains { $0.id == "cover" })
        // The destination scene holds the final geometry.
        #expect(plan.scene.slot(.expanded, owner: "demo/card")?.rect(at: "expanded/0/0")?.width == 320)
    }

    @Test func rule18_reduceMotionChromeDissolvesInsteadOfMorphing() throws {
        let plan = F.openSong(settings: F.settings(reduceMotion: true))
        // The chrome changes shape, but does not interpolate: it dissolves on the slots' fade.
        #expect(plan.chrome.fromRect != plan.chrome.toRect)
        #expect(plan.chrome.crossFade)
        #expect(plan.chrome.curve.source.hasPrefix("transition.fade"))
        let fade = try #require(plan.slots.first { $0.change == .appear }?.curve)
        #expect(plan.chrome.curve.kind == fade.kind)
        #expect(plan.chrome.velocity == nil)
        // On the wire (an addition to the chrome a{sv}) and in the text form.
        guard case .dictionary(let chrome)? = plan.wireDictionary()["chrome"] else {
            Issue.record("no chrome dictionary")
            return
        }
        #expect(chrome["cross_fade"] == .bool(true))
        #expect(Self.chromeLine(plan).hasSuffix(" cross_fade"))

        // Reduce Motion off: the chrome morphs on its spring, and the key is not there.
        let moving = F.openSong()
        #expect(!moving.chrome.crossFade)
        #expect(moving.chrome.curve.source.hasPrefix("transition.convert"))
        guard case .dictionary(let morph)? = moving.wireDictionary()["chrome"] else {
            Issue.record("no chrome dictionary")
            return
        }
        #expect(morph["cross_fade"] == nil)
        #expect(!Self.chromeLine(moving).contains("cross_fade"))

        // A claim with nothing shared dips through hidden: the new shape fades in after the dip.
        var unmarked = F.songContent()
        unmarked.compactLeading = F.owned("music/song", F.image())
        let dip = F.openSong(pill: unmarked, settings: F.settings(reduceMotion: true))
        #expect(dip.conversion == .viaHidden)
        #expect(dip.chrome.crossFade)
        #expect(dip.chrome.curve.delay == dip.chrome.hideDip)
        #expect(dip.chrome.curve.source.hasPrefix("transition.fade"))
    }

    static func chromeLine(_ plan: TransitionPlan) -> String {
        plan.rendering.split(separator: "\n").first { $0.hasPrefix("chrome ") }.map(String.init) ?? ""
    }

    /// Rule 18 with rule 21: a dissolve interrupted starts from the shape more visible at that
    /// instant (its destination from half-way on), never from a shape in between.
    @Test func rule18_anInterruptedDissolveStartsFromAShapeItShows() throws {
        let reduce = F.settings(reduceMotion: true)
        let opening = F.openSong(settings: reduce)
        var open = F.songContent()
        open.expanded = .activity(F.owned("music/song", F.songExpanded))
        let fade = opening.chrome.curve.totalDuration
        for (elapsed, expected) in [(fade * 0.2, opening.chrome.fromRect), (fade * 0.8, opening.chrome.toRect)] {
            let closing = F.plan(F.scene(.expanded, open, reduce), F.scene(.pill, F.songContent(), reduce), cause: .close,
                                 serial: 3, settings: reduce, inFlight: InFlightPlan(plan: opening, elapsed: elapsed))
            #expect(closing.interrupts == opening.serial)
            #expect(closing.chrome.crossFade)
            #expect(closing.chrome.fromRect == expected, "\(elapsed) s in")
            #expect(closing.chrome.velocity == nil)
        }
    }

    @Test func rule19_freshWindowElementsArriveWithTheirSlots() {
        var open = F.songContent()
        open.expanded = .activity(F.owned("music/song", F.songExpanded))
        let expanded = F.scene(.expanded, open)
        // First show from hidden.
        let show = F.plan(F.scene(.hidden, SceneContent()), expanded, cause: .show)
        #expect(show.freshWindow)
        #expect(show.elements.isEmpty)
        #expect(show.slots.allSatisfy { $0.change == .appear })
        #expect(show.diagnostics(.freshWindow).contains { $0.path == "expanded/0" && $0.id == "cover" })
        #expect(show.chrome.fromRect.width == 0)
        // A renderer that just subscribed, and a display change, even with the same scene on both sides.
        for cause in [PlanCause.subscribe, .displayChanged] {
            let plan = F.plan(F.scene(.pill, F.songContent()), expanded, cause: cause)
            #expect(plan.freshWindow)
            #expect(plan.elements.isEmpty)
            #expect(plan.slots.allSatisfy { $0.change == .appear })
            #expect(plan.chrome.fromRect == plan.chrome.toRect)
        }
        // An ordinary open is not fresh.
        #expect(!F.openSong().freshWindow)
    }

    @Test func rule20_companionMarksDoNothing() {
        let pill = F.songContent()
        var withCompanion = pill
        withCompanion.companion = F.owned("music", F.musicHome)
        let plan = F.plan(F.scene(.pill, pill), F.scene(.companion, withCompanion), cause: .companion)
        #expect(plan.elements.isEmpty)
        #expect(plan.diagnostics(.companion).contains { $0.path == "home/0" && $0.module == "music" })
        #expect(plan.toContent == "home:music")
        // Updates inside the companion move nothing either.
        var grown = withCompanion
        grown.companion = F.owned("music", F.hstack([F.cover(100)]) { $0.animationValue = "2"; $0.classes = "animate-smooth" })
        var small = withCompanion
        small.companion = F.owned("music", F.hstack([F.cover(60)]) { $0.animationValue = "1"; $0.classes = "animate-smooth" })
        let update = F.plan(F.scene(.companion, small), F.scene(.companion, grown), cause: .contentChanged)
        #expect(update.elements.isEmpty)
        #expect(!update.diagnostics(.companion).isEmpty)
    }

    /// Issue 44, part 9 (seed 000 disables only `.nookSharedElement` there): a HeroCard toggled
    /// in a companion window moves its `shared-[cover]` and lays out its siblings as anywhere;
    /// only the nook's own mark beside it stays put, with the `companion` note.
    @Test func rule20_aCompanionRunsTheClassDSLAndSkipsOnlyTheNooksMarks() throws {
        func card(expanded: Bool) -> ViewNode {
            var card = PlannerContentTests.heroCard(expanded: expanded)
            card.children.append(F.cover(expanded ? 48 : 24))
            return card
        }
        var small = F.songContent()
        small.companion = F.owned("demo", card(expanded: false))
        var large = small
        large.companion = F.owned("demo", card(expanded: true))
        let plan = F.plan(F.scene(.companion, small), F.scene(.companion, large), cause: .contentChanged)
        let cover = try #require(plan.elements.first { $0.namespace == .group }, "the group's cover did not move: \(plan.elements)")
        #expect(cover.id == "cover" && cover.fromRect.width < cover.toRect.width)
        #expect(cover.curve.source.contains("animate-smooth"))
        #expect(!plan.elements.contains { $0.namespace == .nook }, "the nook's mark moved in a companion")
        #expect(plan.diagnostics(.companion).contains { $0.id == "cover" && $0.module == "demo" })
        #expect(!plan.layout.isEmpty, "the card's siblings were not laid out again")
    }

    @Test func rule21_interruptionStartsFromSampledRectWithVelocity() throws {
        let opening = F.openSong()
        let running = try #require(opening.elements.first)
        let elapsed = 0.1
        var open = F.songContent()
        open.expanded = .activity(F.owned("music/song", F.songExpanded))
        let closing = F.plan(F.scene(.expanded, open), F.scene(.pill, F.songContent()), cause: .close, serial: 3,
                             inFlight: InFlightPlan(plan: opening, elapsed: elapsed))
        #expect(closing.interrupts == opening.serial)
        let back = try #require(closing.elements.first)
        #expect(back.fromPath == running.toPath)

        // Where it is now, not where it was.
        let progress = running.curve.value(at: elapsed)
        let now = RectMath.lerp(running.fromRect, running.toRect, progress)
        #expect(F.close(back.fromRect, now))
        #expect(!back.fromRect.isClose(to: running.toRect))
        let speed = running.curve.velocity(at: elapsed)
        let velocity = try #require(back.velocity)
        #expect(abs(velocity.width - (running.toRect.width - running.fromRect.width) * speed) < 1e-9)
        #expect(velocity.width > 0)  // still growing when the close began
        // The new curve starts with that velocity: it resists the reversal at first.
        #expect(back.curve.initialVelocity < 0)
        #expect(back.curve.velocity(at: 0) == back.curve.initialVelocity)

        // The chrome too.
        let chromeNow = RectMath.lerp(opening.chrome.fromRect, opening.chrome.toRect, opening.chrome.curve.value(at: elapsed))
        #expect(F.close(closing.chrome.fromRect, chromeNow))
        #expect(closing.chrome.velocity != nil)
        #expect(closing.chrome.curve.initialVelocity != 0)
        // Without an in-flight plan nothing of this happens.
        let calm = F.plan(F.scene(.expanded, open), F.scene(.pill, F.songContent()), cause: .close, serial: 3)
        #expect(calm.interrupts == 0 && calm.elements.first?.velocity == nil && calm.chrome.velocity == nil)
    }

    @Test func rule22_noPlanRunsLongerThanMaxDuration() throws {
        let slow = try Theme.builtIn.applying([
            "transition.convert": .dictionary(["response": .double(3), "damping_fraction": .double(0.5)]),
            "transition.fade": .string("5s"),
        ])
        let plan = F.openSong(settings: F.settings(theme: slow))
        #expect(plan.duration <= 2 + 1e-6)
        #expect(plan.chrome.curve.totalDuration <= 2 + 1e-6)
        let cover = try #require(plan.elements.first)
        #expect(cover.curve.totalDuration <= 2 + 1e-6)
        #expect(cover.curve.source.hasSuffix("capped to motion.maxDuration"))
        if case .spring(let spring) = cover.curve.kind { #expect(spring.dampingFraction == 0.5) } else { Issue.record("not a spring") }
        let note = try #require(plan.diagnostics(.durationCapped).first)
        #expect(note.severity == .info)

        // A shorter limit from the theme is honoured; plans within it are left alone.
        let strict = try Theme.builtIn.applying(["motion.maxDuration": .string("300ms")])
        #expect(F.openSong(settings: F.settings(theme: strict)).duration <= 0.3 + 1e-6)
        #expect(F.openSong().diagnostics(.durationCapped).isEmpty)
    }
}

/// The plan as data: wire keys, text form, determinism.
@Suite struct PlannerWireTests {
    @Test func wireDictionaryCarriesEveryContractKey() throws {
        let wire = F.openSong().wireDictionary()
        for key in ["serial", "interrupts", "cause", "from", "to", "from_content", "to_content", "conversion", "fresh_window",
                    "reduce_motion", "chrome", "elements", "layout", "slots", "diagnostics", "scene"] {
            #expect(wire[key] != nil, "missing \(key)")
        }
        #expect(wire["serial"] == .uint(2) && wire["cause"] == .string("open") && wire["conversion"] == .string("direct"))
        guard case .dictionary(let chrome)? = wire["chrome"] else { Issue.record("chrome"); return }
        #expect(Set(chrome.keys).isSuperset(of: ["from_rect", "to_rect", "from_radius", "to_radius", "curve"]))
        guard case .array(let elements)? = wire["elements"], case .dictionary(let element)? = elements.first else {
            Issue.record("elements"); return
        }
        #expect(Set(element.keys).isSuperset(of: [
            "from_path", "to_path", "key", "namespace", "module", "activity", "id", "from_slot", "to_slot", "from_rect",
            "to_rect", "style", "cross_fade", "hide_source", "clip", "properties", "anchor", "curve",
        ]))
        #expect(element["velocity"] == nil)
        #expect(element["from_rect"] == .structure([.double(626), .double(6), .double(20), .double(20)]))
        guard case .dictionary(let curve)? = element["curve"] else { Issue.record("curve"); return }
        #expect(curve["type"] == .string("spring") && curve["source"] != nil)
        guard case .array(let slots)? = wire["slots"], case .dictionary(let slot)? = slots.first else { Issue.record("slots"); return }
        #expect(Set(slot.keys).isSuperset(of: ["slot", "owner", "change", "delay", "curve"]))
        guard case .dictionary(let scene)? = wire["scene"], case .array(let nodes)? = scene["nodes"],
              case .dictionary(let node)? = nodes.first else { Issue.record("scene"); return }
        #expect(Set(node.keys).isSuperset(of: ["slot", "owner", "path", "kind", "rect", "variants"]))
    }

    @Test func sceneNodesCarryPropsAndResolvedVariants() throws {
        let card = F.vstack([F.text("Title") { $0.classes = "group-hover/hero:opacity-70" }]) { $0.classes = "group/hero" }
        let plan = F.openSong(expanded: card)
        let title = try #require(plan.scene.nodes.first { $0.path == "expanded/0" })
        #expect(title.slot == .expanded && title.owner == "music/song" && title.kind == .text)
        #expect(title.variants.first?.conditions.first?.groupPath == "expanded")
        guard case .dictionary(let scene)? = plan.wireDictionary()["scene"], case .array(let nodes)? = scene["nodes"],
              case .dictionary(let node)? = nodes.first(where: {
                  if case .dictionary(let entry) = $0 { return entry["path"] == .string("expanded/0") }
                  return false
              }) else { Issue.record("no scene node"); return }
        #expect(node["text"] == .string("Title"))
        #expect(node["classes"] == .string("group-hover/hero:opacity-70"))
        guard case .array(let variants)? = node["variants"], case .dictionary(let variant)? = variants.first else {
            Issue.record("no variant"); return
        }
        #expect(variant["group_path"] == .string("expanded") && variant["classes"] == .string("opacity-70"))
    }

    @Test func samePlanForTheSameInput() {
        #expect(F.openSong() == F.openSong())
        #expect(F.openSong().rendering == F.openSong().rendering)
        #expect(F.openSong().wireDictionary() == F.openSong().wireDictionary())
    }

    @Test func reusingKnownViewsGivesTheSameScene() {
        var open = F.songContent()
        open.expanded = .activity(F.owned("music/song", F.songExpanded))
        let fresh = F.scene(.expanded, open)
        let reused = PlannerScene(presentation: .expanded, content: open, settings: F.settings(),
                                  reusing: [F.scene(.pill, F.songContent()), fresh])
        #expect(reused == fresh)
        // A changed view is resolved again, not taken from the old scene.
        var changed = open
        changed.expanded = .activity(F.owned("music/song", F.vstack([F.cover(60, id: "art")])))
        let again = PlannerScene(presentation: .expanded, content: changed, settings: F.settings(), reusing: [fresh])
        #expect(again.slots.first?.namespaces.elements.map(\.id) == ["art"])
    }

    @Test func rule21_contentMovesInterruptedMidwayStartWhereTheyAre() throws {
        let first = PlannerContentTests.update(PlannerContentTests.heroCard(expanded: false), PlannerContentTests.heroCard(expanded: true))
        let running = try #require(first.elements.first)
        func content(_ view: ViewNode) -> SceneContent {
            SceneContent(compactLeading: F.owned("demo/card", F.image()), expanded: .activity(F.owned("demo/card", view)))
        }
        let back = F.plan(F.scene(.expanded, content(PlannerContentTests.heroCard(expanded: true))),
                          F.scene(.expanded, content(PlannerContentTests.heroCard(expanded: false))),
                          cause: .activityUpdated, serial: 3, inFlight: InFlightPlan(plan: first, elapsed: 0.05))
        let element = try #require(back.elements.first)
        let now = RectMath.lerp(running.fromRect, running.toRect, running.curve.value(at: 0.05))
        #expect(F.close(element.fromRect, now))
        #expect(element.velocity != nil && back.interrupts == first.serial)
        let move = try #require(back.layout.first { $0.path == "expanded" && $0.change == .move })
        #expect(!move.fromRect.isClose(to: first.layout.first { $0.path == "expanded" }!.toRect))
    }

    @Test func textNumbersAreStable() {
        #expect(PlanText.number(616) == "616")
        #expect(PlanText.number(0.42) == "0.42")
        #expect(PlanText.number(-1.5) == "-1.5")
        #expect(PlanText.number(0.0004) == "0")
        #expect(PlanText.number(-0.0004) == "0")
    }
}
