@testable import NookCore
@testable import NookRenderModel
import Testing

private typealias F = PlanFixture

/// What nodes draw: countdowns, progress, custom views, classes and parent-state variants.
@Suite struct ContentTests {
    /// A presenter showing `view` as the song's expanded view, at rest.
    func showing(_ view: ViewNode, leading: ViewNode = F.songLeading) throws -> (PlanPresenter, PlannerScene) {
        let scene = F.scene(.expanded, F.song(expanded: view, leading: leading))
        var presenter = PlanPresenter()
        try presenter.receive(F.wire(F.subscribe(scene)), at: 0)
        return (presenter, scene)
    }

    @Test func timerEndCountsDownLocally() throws {
        let end: Int64 = 1_800_000_000_000_000
        let (presenter, _) = try showing(F.vstack([F.timer(size: 40, end: endOf(end))]))
        func shown(_ remaining: Double) -> String? {
            presenter.frame(at: 5, unixTime: Double(end) / 1_000_000 - remaining).item(at: "expanded/0")?.content.text
        }
        #expect(shown(299) == "4:59")
        #expect(shown(299.4) == "5:00")
        #expect(shown(3723) == "1:02:03")
        #expect(shown(0.5) == "0:01")
        #expect(shown(-30) == "0:00")
        guard case .text(_, let style)? = presenter.frame(at: 5, unixTime: 0).item(at: "expanded/0")?.content else {
            Issue.record("the timer draws no text")
            return
        }
        #expect(style.monospacedDigits && style.size == 40)
        #expect(presenter.showsLiveClock)
        #expect(try !showing(F.vstack([F.text("still")])).0.showsLiveClock)
    }

    /// Issue 42, part 1: the equalizer moves only while `playing`, at its own 30 frames a
    /// second (its rect alone); paused (or any other custom view, or a still scene) nothing on
    /// screen changes between plans, and the renderer draws nothing.
    @Test func onlyAPlayingEqualizerOrACountdownFollowsTheClock() throws {
        func equalizer(_ playing: Bool) -> ViewNode {
            F.node(.view) {
                $0.name = "EqualizerBars"
                $0.params = ["playing": .bool(playing)]
                $0.width = 24
                $0.height = 16
            }
        }
        let (playing, _) = try showing(F.vstack([equalizer(true)]))
        #expect(playing.liveFrameRate == 30 && !playing.showsLiveClock, "the equalizer has its own rate, not the second tick")
        let frame = playing.frame(at: 5, unixTime: 0)
        #expect(PlanPresenter.liveRects(in: frame) == [frame.item(at: "expanded/0")?.rect].compactMap { $0 })
        #expect(PlanPresenter.liveRects(in: frame).first.map { $0.width == 24 && $0.height == 16 } == true)
        #expect(try showing(F.vstack([equalizer(false)])).0.liveFrameRate == nil)
        #expect(try !showing(F.vstack([equalizer(false)])).0.showsLiveClock)
        #expect(try showing(F.vstack([F.cover(40, id: nil)])).0.liveFrameRate == nil)
    }

    private func endOf(_ end: Int64) -> Int64 { end }

    @Test func progressAdvancesFromStartToEndAgainstTheWallClock() throws {
        let start: Int64 = 1_700_000_000_000_000
        let bar = F.node(.progress) { $0.start = start; $0.end = start + 200_000_000; $0.width = 200 }
        let (presenter, _) = try showing(F.vstack([bar]))
        let item = presenter.frame(at: 5, unixTime: Double(start) / 1_000_000 + 50).item(at: "expanded/0")
        #expect(item?.content == .progress(fraction: 0.25, style: .linear, tint: .white))
        let done = presenter.frame(at: 5, unixTime: Double(start) / 1_000_000 + 900).item(at: "expanded/0")
        #expect(done?.content == .progress(fraction: 1, style: .linear, tint: .white))
    }

    @Test func knownCustomViewsDrawThemselvesAndOthersDrawTheirBody() throws {
        let unknown = F.node(.view, [F.image("star")]) { $0.name = "Sparkles"; $0.width = 40; $0.height = 40 }
        let cover = F.node(.view, [F.image("music.note")]) { $0.name = "CoverArt"; $0.width = 40; $0.height = 40; $0.params = ["playing": .bool(true)] }
        let (presenter, _) = try showing(F.hstack([cover, unknown]))
        let frame = presenter.frame(at: 5, unixTime: 0)
        #expect(frame.item(at: "expanded/0")?.content == .custom(name: "CoverArt", properties: ["playing": "true"]))
        #expect(frame.item(at: "expanded/0/0") == nil)
        #expect(frame.item(at: "expanded/1") == nil)
        #expect(frame.item(at: "expanded/1/0")?.content == .image(source: "star", tint: .white))
    }

    @Test func stacksAndSpacersDrawNothingAndShapesDrawTheirColour() throws {
        let dot = F.node(.shape) { $0.shape = .circle; $0.color = "#FF000080"; $0.width = 10; $0.height = 10 }
        let (presenter, _) = try showing(F.hstack([dot, F.node(.spacer), F.text("x")]))
        let frame = presenter.frame(at: 5, unixTime: 0)
        #expect(frame.item(at: "expanded") == nil && frame.item(at: "expanded/1") == nil)
        #expect(frame.item(at: "expanded/0")?.content == .shape(.circle, fill: RGBA(red: 1, green: 0, blue: 0, alpha: 128.0 / 255), cornerRadius: 5))
    }

    @Test func textAndSymbolsDrawTheirOwnColourOverAClassColour() throws {
        let title = F.node(.text) { $0.text = "Focus"; $0.color = "#FF6F61"; $0.classes = "text-sky-400" }
        let icon = F.node(.image) { $0.symbol = "timer"; $0.color = "#34C759"; $0.width = 20; $0.height = 20 }
        let plain = F.node(.text) { $0.text = "plain" }
        let (presenter, _) = try showing(F.hstack([title, icon, plain]))
        let frame = presenter.frame(at: 5, unixTime: 0)
        guard case .text(_, let titleStyle)? = frame.item(at: "expanded/0")?.content else { Issue.record("no title"); return }
        #expect(titleStyle.color == RGBA(hex: "#FF6F61"))
        #expect(frame.item(at: "expanded/1")?.content == .image(source: "timer", tint: RGBA(hex: "#34C759")))
        guard case .text(_, let plainStyle)? = frame.item(at: "expanded/2")?.content else { Issue.record("no text"); return }
        #expect(plainStyle.color == .white)
    }

    /// The `italic` and `underline` classes style the text node that carries them (the
    /// notifications bridge draws a body's `<i>`, `<u>` and links with them), and no other.
    @Test func italicAndUnderlineClassesStyleTheirTextOnly() throws {
        let styled = F.node(.text) { $0.text = "slanted"; $0.classes = "italic underline" }
        let undone = F.node(.text) { $0.text = "upright"; $0.classes = "italic not-italic underline no-underline" }
        let plain = F.node(.text) { $0.text = "plain" }
        let (presenter, _) = try showing(F.hstack([styled, undone, plain]) { $0.classes = "italic" })
        let frame = presenter.frame(at: 5, unixTime: 0)
        guard case .text(_, let style)? = frame.item(at: "expanded/0")?.content,
              case .text(_, let undoneStyle)? = frame.item(at: "expanded/1")?.content,
              case .text(_, let plainStyle)? = frame.item(at: "expanded/2")?.content else { Issue.record("no texts"); return }
        #expect(style.italic && style.underline)
        #expect(!undoneStyle.italic && !undoneStyle.underline)
        #expect(!plainStyle.italic && !plainStyle.underline, "a stack's class styled its child")
        #expect(ClassStyle.unknownClasses(in: "italic not-italic underline no-underline").isEmpty)
    }

    @Test func groupHoverVariantAppliesUnderThePointer() throws {
        let row = F.hstack([
            F.image("play"),
            F.text("Play") { $0.classes = "text-white/60 group-hover:opacity-50 group-hover:bg-white/10 group-pressed:scale-90" },
        ]) { $0.classes = "group" }
        let (presenter, scene) = try showing(F.vstack([row, F.text("Below")]))
        let group = try #require(scene.slot(.expanded, owner: "music/song")?.rect(at: "expanded/0"))
        let label = try #require(scene.slot(.expanded, owner: "music/song")?.rect(at: "expanded/0/1"))
        let inside = Point(x: group.minX + 2, y: group.midY)  // over the group, not over the label
        let outside = Point(x: group.midX, y: group.maxY + 30)

        let rest = presenter.frame(at: 5, unixTime: 0, pointer: PointerState(location: outside))
        let restLabel = try #require(rest.item(at: "expanded/0/1"))
        #expect(restLabel.opacity == 1 && restLabel.rect == label)
        #expect(rest.item(at: "expanded/0/1#background") == nil)
        guard case .text(_, let style) = restLabel.content else { Issue.record("no text"); return }
        #expect(style.color == RGBA(red: 1, green: 1, blue: 1, alpha: 0.6))

        let hover = presenter.frame(at: 5, unixTime: 0, pointer: PointerState(location: inside))
        #expect(hover.item(at: "expanded/0/1")?.opacity == 0.5)
        let background = try #require(hover.item(at: "expanded/0/1#background"))
        #expect(background.rect == label)
        #expect(background.content == .shape(.roundedRect, fill: RGBA(red: 1, green: 1, blue: 1, alpha: 0.1),
                                             cornerRadius: min(ClassStyle.defaultBackgroundRadius, label.height / 2)))
        let backgroundIndex = try #require(hover.items.firstIndex { $0.path == "expanded/0/1#background" })
        let labelIndex = try #require(hover.items.firstIndex { $0.path == "expanded/0/1" })
        #expect(backgroundIndex < labelIndex)

        // Only a control's press presses its groups: here the group node stands for one.
        let held = ControlNode(slot: "expanded", owner: "music/song", path: "expanded/0")
        let pressed = presenter.frame(at: 5, unixTime: 0, pointer: PointerState(location: inside, isPressed: true, pressedControl: held))
        let shrunk = try #require(pressed.item(at: "expanded/0/1"))
        #expect(F.isClose(shrunk.rect, Rect(x: label.midX - label.width * 0.45, y: label.midY - label.height * 0.45,
                                             width: label.width * 0.9, height: label.height * 0.9)))
        #expect(shrunk.layoutSize == label.size)
        // A press outside the group changes nothing.
        #expect(presenter.frame(at: 5, unixTime: 0, pointer: PointerState(location: outside, isPressed: true, pressedControl: held))
            .item(at: "expanded/0/1")?.rect == label)
        // Enter or Space on the group's control (the keyboard's press) is a press too, wherever the pointer is.
        let keyed = PointerState(location: outside, keyboardPressed: ControlNode(slot: "expanded", owner: "music/song", path: "expanded/0"))
        let keyPressed = try #require(presenter.frame(at: 5, unixTime: 0, pointer: keyed).item(at: "expanded/0/1"))
        #expect(F.isClose(keyPressed.rect, shrunk.rect), "a keyboard press did not apply group-pressed")
    }

    /// Issue 44, part 4 (rule 23): `group-active`, `group-disabled` and a chained variant
    /// (every condition must hold, each on its own group) are drawn by the renderer's model,
    /// from the module's `group_state` and the pointer.
    @Test func rule23_groupActiveDisabledAndChainedVariantsAreDrawn() throws {
        func card(active: Bool, disabled: Bool, innerActive: Bool) -> ViewNode {
            F.vstack([
                F.node(.text) { $0.text = "Active"; $0.classes = "group-active/hero:opacity-50" },
                F.node(.text) { $0.text = "Off"; $0.classes = "group-disabled/hero:opacity-30" },
                F.node(.hstack, [F.node(.text) { $0.text = "Both"; $0.classes = "group-active/inner:group-hover/hero:opacity-20" }]) {
                    $0.classes = "group/inner"
                    $0.groupState = ["active": innerActive]
                },
            ]) {
                $0.classes = "group/hero"
                $0.groupState = ["active": active, "disabled": disabled]
            }
        }
        func opacities(_ view: ViewNode, pointer: PointerState = PointerState()) throws -> [Double?] {
            let (presenter, _) = try showing(view)
            let frame = presenter.frame(at: 5, unixTime: 0, pointer: pointer)
            return ["expanded/0", "expanded/1", "expanded/2/0"].map { frame.item(at: $0)?.opacity }
        }
        #expect(try opacities(card(active: false, disabled: false, innerActive: false)) == [1, 1, 1])
        #expect(try opacities(card(active: true, disabled: false, innerActive: false)) == [0.5, 1, 1], "group-active")
        #expect(try opacities(card(active: false, disabled: true, innerActive: false)) == [1, 0.3, 1], "group-disabled")
        // The chain: the inner group active and the pointer over the hero, both at once.
        let (_, scene) = try showing(card(active: false, disabled: false, innerActive: true))
        let hero = try #require(scene.slot(.expanded, owner: "music/song")?.rect(at: "expanded"))
        let over = PointerState(location: Point(x: hero.midX, y: hero.midY))
        #expect(try opacities(card(active: false, disabled: false, innerActive: true))[2] == 1, "one condition of the chain is not enough")
        #expect(try opacities(card(active: false, disabled: false, innerActive: false), pointer: over)[2] == 1, "nor is the other")
        #expect(try opacities(card(active: false, disabled: false, innerActive: true), pointer: over)[2] == 0.2, "the chained variant")
    }

    /// Issue 44, part 1 (seed 000: the moving copy is a second instance of the view with the
    /// same environment): a shared text under an `opacity-50 text-sky-400` stack at both ends
    /// flies sky-blue at half opacity, not white and opaque; where the ends differ (a plain
    /// pill, the styled stack in the expanded view) it blends between them on its progress.
    @Test func rule5_theMovingCopyKeepsItsAncestorsStyleBlendedBetweenTheEnds() throws {
        func title(_ size: Double) -> ViewNode {
            F.text("Song title", size: size) { $0.shared = SharedMark(id: "title", style: .scale) }
        }
        func pill(styled: Bool) -> PlannerScene {
            let trailing = F.hstack([title(12)]) { if styled { $0.classes = "opacity-50 text-sky-400" } }
            return F.scene(.pill, SceneContent(compactLeading: F.owned("music/song", F.songLeading), compactTrailing: F.owned("music/song", trailing)))
        }
        let expandedView = F.vstack([F.cover(120), F.hstack([title(17)]) { $0.classes = "opacity-50 text-sky-400" }])
        var content = F.song(expanded: expandedView)
        let sky = RGBA(tailwind: "sky-400")
        for styledPill in [true, false] {
            content.compactTrailing = pill(styled: styledPill).content.compactTrailing
            let from = pill(styled: styledPill)
            let plan = F.plan(from, F.scene(.expanded, content), cause: .open)
            let element = try #require(plan.elements.first { $0.id == "title" }, "the title does not travel")
            let presenter = try F.presenter(playing: plan, from: from, at: 10)
            // About half way by progress (a spring covers most of its way early).
            var t = element.curve.delay
            while element.curve.fraction(at: t) < 0.4 && t < element.curve.totalDuration { t += 0.002 }
            let f = element.curve.fraction(at: t)
            #expect(f > 0.05 && f < 0.95)
            let frame = presenter.frame(at: 10 + t, unixTime: 0)
            let flying = try #require(frame.items.first { $0.sharedKey != nil && $0.path == element.toPath }, "no moving title at \(t)")
            guard case .text(_, let style) = flying.content else { Issue.record("not text"); continue }
            if styledPill {
                #expect(style.color == sky, "the moving title lost its stack's colour: \(style.color)")
                #expect(abs(flying.opacity - 0.5) < 1e-9, "the moving title lost its stack's opacity: \(flying.opacity)")
            } else {
                let expected = try #require(RGBA.mix(.white, sky, f))
                #expect(abs(style.color.blue - expected.blue) < 1e-6 && abs(style.color.red - expected.red) < 1e-6,
                        "not blended at \(f): \(style.color) against \(expected)")
                #expect(abs(flying.opacity - (1 + (0.5 - 1) * f)) < 1e-9, "opacity not blended at \(f): \(flying.opacity)")
            }
        }
    }

    @Test func opacityPropsAndClassesMultiplyDownTheTree() throws {
        let faded = F.vstack([F.text("a") { $0.opacity = 0.5 }]) { $0.classes = "opacity-50" }
        let (presenter, _) = try showing(faded)
        #expect(presenter.frame(at: 5, unixTime: 0).item(at: "expanded/0")?.opacity == 0.25)
    }

    /// Renderers never see `rules.named`: a node whose classes name a rule carries the
    /// expansion in `expanded_classes`, and its drawing utilities apply from there.
    @Test func namedRuleClassesDrawFromTheirExpansion() throws {
        var settings = F.settings()
        settings.theme = try settings.theme.applying(["rules.named.dim": .string("opacity-50")])
        let view = F.vstack([F.text("a")]) { $0.classes = "dim" }
        let scene = F.scene(.expanded, F.song(expanded: view), settings)
        var presenter = PlanPresenter()
        try presenter.receive(F.wire(F.subscribe(scene, settings: settings)), at: 0)
        #expect(presenter.warnings.allSatisfy { !$0.contains("dim") }, "\(presenter.warnings)")
        #expect(presenter.frame(at: 5, unixTime: 0).item(at: "expanded/0")?.opacity == 0.5)
    }

    @Test func layoutMovesRunBetweenTheirRects() throws {
        func card(_ big: Bool) -> ViewNode {
            F.vstack([
                F.node(.zstack, [F.node(.shape) { $0.shape = .roundedRect; $0.cornerRadius = 16; $0.color = "#4B0082"; $0.classes = "shared-[cover] " + (big ? "w-80 h-50" : "w-20 h-20") }]),
                F.text("Toggle"),
            ]) { $0.classes = "group/hero animate-smooth duration-400"; $0.animationValue = String(big) }
        }
        func content(_ view: ViewNode) -> SceneContent {
            SceneContent(compactLeading: F.owned("demo/card", F.image("star")), expanded: .activity(F.owned("demo/card", view)))
        }
        let before = F.scene(.expanded, content(card(false)))
        let after = F.scene(.expanded, content(card(true)))
        let plan = F.plan(before, after, cause: .activityUpdated)
        let move = try #require(plan.layout.first { $0.path == "expanded/1" })
        #expect(move.change == .move)
        let presenter = try F.presenter(playing: plan, from: before, at: 10)
        let t = 0.1
        let label = try #require(presenter.frame(at: 10 + t, unixTime: 0).item(at: "expanded/1"))
        #expect(F.isClose(label.rect, F.lerp(move.fromRect, move.toRect, move.curve.value(at: t))))
        #expect(F.isStrictlyBetween(label.rect, move.fromRect, move.toRect))
        // The group-scoped cover moves as an element, unclipped.
        let element = try #require(plan.elements.first)
        let cover = try #require(presenter.frame(at: 10 + t, unixTime: 0).shared(element.key).first)
        #expect(cover.clip == nil && F.isStrictlyBetween(cover.rect, element.fromRect, element.toRect))
    }
}

/// Content that arrives late or changes in place: delayed rows, inserts and removals.
@Suite struct ContentTransitionTests {
    @Test func textTakesItsStackAlignmentAndInheritsItsColour() throws {
        let column = F.vstack([F.text("Title"), F.hstack([F.text("a"), F.text("b")])]) {
            $0.alignment = .trailing
            $0.classes = "text-sky-400"
        }
        let scene = F.scene(.expanded, F.song(expanded: column))
        var presenter = PlanPresenter()
        try presenter.receive(F.wire(F.subscribe(scene)), at: 0)
        let frame = presenter.frame(at: 5, unixTime: 0)
        guard case .text(_, let title)? = frame.item(at: "expanded/0")?.content,
              case .text(_, let inRow)? = frame.item(at: "expanded/1/0")?.content else {
            Issue.record("no text")
            return
        }
        #expect(title.alignment == .trailing && inRow.alignment == .leading)
        #expect(title.color == RGBA(tailwind: "sky-400") && inRow.color == title.color)
        #expect(title.color != .white)
    }

    @Test func delayedRowsFadeInAfterTheirDelay() throws {
        let rows = F.vstack([F.text("one"), F.text("two"), F.text("three")]) { $0.stagger = true }
        let pill = F.scene(.pill, F.song())
        let open = F.scene(.expanded, F.song(expanded: rows))
        let plan = F.plan(pill, open, cause: .open, via: .hover)
        let last = try #require(plan.reveals.first { $0.path == "expanded/2" })
        #expect(last.delay > 0)
        let presenter = try F.presenter(playing: plan, from: pill, at: 10)
        let slot = try #require(plan.slots.first { $0.slot == .expanded })
        let t = last.delay / 2
        let first = try #require(presenter.frame(at: 10 + t, unixTime: 0).item(at: "expanded/0"))
        #expect(first.opacity > 0)
        #expect(presenter.frame(at: 10 + t, unixTime: 0).item(at: "expanded/2") == nil)
        let later = last.delay + 0.05
        let third = try #require(presenter.frame(at: 10 + later, unixTime: 0).item(at: "expanded/2"))
        let expected = min(max(slot.curve.value(at: later), 0), 1) * min(max(last.curve.value(at: later), 0), 1)
        #expect(abs(third.opacity - expected) < 1e-9)
    }

    /// Issue 44, part 2 (seed 000: a destination in a row held back by stagger or the header
    /// delay lands before its row appears): a shared element that has landed is drawn whole
    /// from then on, not faded with its waiting row (it landed, vanished and faded back in).
    @Test func rule11_aLandedElementIsSeenFromLandingOnThoughItsRowStillWaits() throws {
        let staggered = F.vstack([F.text("Now playing"), F.text("Song"), F.cover(120)]) { $0.stagger = true }
        let pill = F.scene(.pill, F.song())
        let open = F.scene(.expanded, F.song(expanded: staggered))
        var plan = F.plan(pill, open, cause: .open, via: .hover)
        let cover = try #require(plan.elements.first { $0.toPath == "expanded/2" }, "the cover does not travel")
        let row = try #require(plan.reveals.firstIndex { $0.path == "expanded/2" })
        // A long stagger: the cover's row waits until well after the cover lands.
        let wait = cover.curve.totalDuration + 1
        let fade = plan.reveals[row].curve
        plan.reveals[row] = RowReveal(path: "expanded/2", delay: wait, curve: try Curve(fade.kind, delay: wait, source: fade.source))
        let presenter = try F.presenter(playing: plan, from: pill, at: 10)
        let slot = try #require(plan.slots.first { $0.slot == .expanded })
        for after in [0.05, 0.5, 0.95] {
            let t = cover.curve.totalDuration + after
            let landed = try #require(presenter.frame(at: 10 + t, unixTime: 0).item(at: "expanded/2"), "the landed cover vanished at \(t) s")
            #expect(abs(landed.opacity - min(max(slot.curve.value(at: t), 0), 1)) < 1e-9, "the landed cover took its row's fade at \(t) s")
        }
        // Its row's other content still waits for the row (here the row is the cover alone;
        // the rows before it have their own delays, untouched).
        #expect(plan.reveals.filter { $0.path != "expanded/2" }.allSatisfy { $0.delay < wait })
    }

    @Test func insertedNodesFadeInAndRemovedOnesFadeOutFromThePreviousScene() throws {
        func list(_ names: [String]) -> ViewNode {
            F.vstack(names.map { F.text($0) }) { $0.classes = "animate-snappy"; $0.animationValue = String(names.count) }
        }
        func content(_ view: ViewNode) -> SceneContent {
            SceneContent(compactLeading: F.owned("timer/tea", F.image("timer")), expanded: .activity(F.owned("timer/tea", view)))
        }
        let two = F.scene(.expanded, content(list(["tea", "eggs"])))
        let three = F.scene(.expanded, content(list(["tea", "eggs", "rice"])))
        let growing = F.plan(two, three, cause: .activityUpdated)
        let insert = try #require(growing.layout.first { $0.change == .insert })
        #expect(insert.path == "expanded/2")
        let presenter = try F.presenter(playing: growing, from: two, at: 10)
        let t = 0.05
        let rice = try #require(presenter.frame(at: 10 + t, unixTime: 0).item(at: "expanded/2"))
        #expect(abs(rice.opacity - min(max(insert.curve.value(at: t), 0), 1)) < 1e-9 && rice.opacity < 1)
        #expect(rice.rect == insert.toRect)

        let shrinking = F.plan(three, two, cause: .activityUpdated, serial: 3)
        let remove = try #require(shrinking.layout.first { $0.change == .remove })
        var after = presenter
        try after.receive(F.wire(shrinking), at: 20)
        let leaving = try #require(after.frame(at: 20 + t, unixTime: 0).item(at: "expanded/2"))
        #expect(leaving.content.text == "rice")
        #expect(abs(leaving.opacity - (1 - min(max(remove.curve.value(at: t), 0), 1))) < 1e-9)
        #expect(after.frame(at: 20 + shrinking.duration + 0.001, unixTime: 0).item(at: "expanded/2") == nil)
    }

    @Test func styleChangesRunFromTheOldLook() throws {
        func card(_ on: Bool) -> ViewNode {
            F.vstack([
                F.node(.shape) { $0.shape = .rect; $0.color = on ? "#0000FF" : "#FF0000"; $0.width = 40; $0.height = 40 },
                F.text("state") { $0.opacity = on ? 0.5 : 1 },
            ]) { $0.classes = "animate-linear"; $0.animationValue = String(on) }
        }
        func content(_ view: ViewNode) -> SceneContent {
            SceneContent(compactLeading: F.owned("demo/card", F.image("star")), expanded: .activity(F.owned("demo/card", view)))
        }
        let off = F.scene(.expanded, content(card(false)))
        let plan = F.plan(off, F.scene(.expanded, content(card(true))), cause: .activityUpdated)
        let fill = try #require(plan.layout.first { $0.path == "expanded/0" && $0.change == .style })
        let fade = try #require(plan.layout.first { $0.path == "expanded/1" && $0.change == .style })
        let presenter = try F.presenter(playing: plan, from: off, at: 10)
        let t = 0.1
        let frame = presenter.frame(at: 10 + t, unixTime: 0)
        let f = fill.curve.value(at: t)
        #expect(f > 0 && f < 1)
        guard case .shape(.rect, let drawn, _)? = frame.item(at: "expanded/0")?.content else {
            Issue.record("the shape is not drawn")
            return
        }
        #expect(abs(drawn.red - (1 - f)) < 1e-9 && abs(drawn.blue - f) < 1e-9 && drawn.green == 0 && drawn.alpha == 1)
        let g = fade.curve.value(at: t)
        let label = try #require(frame.item(at: "expanded/1"))
        #expect(abs(label.opacity - (1 - 0.5 * g)) < 1e-9)
        #expect(presenter.frame(at: 10 + plan.duration + 0.001, unixTime: 0).item(at: "expanded/1")?.opacity == 0.5)
    }
}

/// The broker's vocabulary (`DrawnUtility`) is what `ClassStyle` draws: neither says a class
/// is known that the other does not draw (issue 45, part 5).
@Suite struct DrawnVocabularyAgreementTests {
    @Test func theBrokersVocabularyIsWhatTheRendererDraws() {
        let samples = DrawnUtility.candidates(near: "x-50") + DrawnUtility.candidates(near: "y-[0.5]")
            + ["bg-red-123", "text-sky-400/35", "bg-[#4B0082]", "rounded-[3]", "opacity-[0.3]", "bg-blu-500", "shadow-lg", "font-bold",
               "text-huge", "bg-white/300", "rounded-giant", "scale-abc"]
        for utility in samples where !ClassStyle.isBrokerUtility(utility) {
            var style = ClassStyle()
            #expect(style.apply(utility: utility) == DrawnUtility.isKnown(utility), "\(utility)")
        }
        #expect(Set(RGBA.tailwindHues.keys) == Set(DrawnUtility.hues))
    }
}
