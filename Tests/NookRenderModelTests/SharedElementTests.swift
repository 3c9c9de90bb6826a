import NookCore
@testable import NookRenderModel
import Testing

private typealias F = PlanFixture

/// Shared elements in flight: rects, styles, clips, cross-fades, hidden sources, Reduce
/// Motion and interruptions.
@Suite struct SharedElementTests {
    @Test func aSharedElementIsBetweenItsRectsMidTransition() throws {
        let (pill, _, plan) = F.openSong()
        let element = try #require(plan.elements.first)
        let presenter = try F.presenter(playing: plan, from: pill, at: 10)
        let t = 0.1
        let frame = presenter.frame(at: 10 + t, unixTime: 0)
        let moving = try #require(frame.shared(element.key).first)
        #expect(moving.path == element.toPath)
        #expect(F.isStrictlyBetween(moving.rect, element.fromRect, element.toRect))
        #expect(F.isClose(moving.rect, F.lerp(element.fromRect, element.toRect, element.curve.value(at: t))))
        #expect(moving.clip == frame.chrome)
        #expect(moving.layoutSize == nil)
        #expect(moving.content == .custom(name: "CoverArt", properties: ["art_url": "file:///tmp/cover.png"]))
        // One copy only: the source is hidden while it moves, the destination drawn as the element.
        #expect(frame.items(at: element.fromPath).isEmpty)
        #expect(frame.items(at: element.toPath).count == 1)

        let landed = presenter.frame(at: 10 + plan.duration + 0.001, unixTime: 0)
        let resting = try #require(landed.item(at: element.toPath))
        #expect(resting.sharedKey == nil && resting.rect == element.toRect && resting.clip == landed.chrome)
    }

    @Test func aScaleElementKeepsItsDestinationLayoutSize() throws {
        let pill = F.scene(.pill, SceneContent(
            compactLeading: F.owned("timer/tea", F.image("timer")), compactTrailing: F.owned("timer/tea", F.timer(size: 12))))
        let open = F.scene(.expanded, SceneContent(
            compactLeading: F.owned("timer/tea", F.image("timer")), compactTrailing: F.owned("timer/tea", F.timer(size: 12)),
            expanded: .activity(F.owned("timer/tea", F.vstack([F.timer(size: 40), F.text("Tea")])))))
        let plan = F.plan(pill, open, cause: .open)
        let element = try #require(plan.elements.first)
        #expect(element.style == .scale)
        let presenter = try F.presenter(playing: plan, from: pill, at: 10)
        let moving = try #require(presenter.frame(at: 10.12, unixTime: 0).shared(element.key).first)
        #expect(moving.layoutSize == element.toRect.size)
        #expect(F.isStrictlyBetween(moving.rect, element.fromRect, element.toRect))
        guard case .text(_, let style) = moving.content else { Issue.record("expected text, got \(moving.content)"); return }
        #expect(style.size == 40 && style.monospacedDigits)
    }

    /// Rule 5's `resize`: mid-flight, the element's subtree is laid out again in the moving
    /// rect (its stacks reflow, its text re-wraps), exactly as an independent layout of the
    /// same subtree at that size places it; at rest it is where the plan put it.
    @Test func aResizedElementIsLaidOutAgainInTheMovingRect() throws {
        func card(_ size: Double) -> ViewNode {
            F.vstack([F.hstack([F.image("star"), F.text("Hi", size: size)]), F.text("Paper Lanterns over the Harbour", size: size)]) {
                $0.shared = SharedMark(id: "card")
            }
        }
        let pill = F.scene(.pill, F.song(leading: card(9)))
        let expanded = F.scene(.expanded, F.song(expanded: F.vstack([card(13)]), leading: card(9)))
        let plan = F.plan(pill, expanded, cause: .open)
        let element = try #require(plan.elements.first)
        #expect(element.style == .resize && !element.crossFade)
        let presenter = try F.presenter(playing: plan, from: pill, at: 10)
        let t = 0.12
        let rect = F.lerp(element.fromRect, element.toRect, element.curve.value(at: t))
        let frame = presenter.frame(at: 10 + t, unixTime: 0)

        // The independent layout: the destination's subtree, its root framed to the moving rect.
        var root = card(13)
        root.props.width = rect.width
        root.props.height = rect.height
        let independent = LayoutEngine.layout(root, rootPath: element.toPath, in: rect)
        #expect(independent.nodes.count == 5)
        for node in independent.nodes where node.kind != .hstack && node.kind != .vstack {
            let drawn = try #require(frame.shared(element.key).first { $0.path == node.path }, "\(node.path)")
            #expect(F.isClose(drawn.rect, node.rect), "\(node.path): drawn \(drawn.rect), laid out \(node.rect)")
            #expect(drawn.layoutSize == nil)
        }
        // The long line no longer fits the narrower in-between rect: it is wrapped to the
        // rect's width (its lines cut to the height the rect has), not squeezed.
        let title = "\(element.toPath)/1"
        let destination = try #require(plan.scene.nodes.first { $0.path == title }).rect
        let drawnTitle = try #require(frame.shared(element.key).first { $0.path == title }).rect
        #expect(rect.width < element.toRect.width)
        #expect(drawnTitle.width < destination.width - 1 && drawnTitle.width <= rect.width, "\(drawnTitle) vs \(destination)")
        #expect(drawnTitle.height == destination.height)
        // Proportional mapping (the old `resize`) would have drawn it elsewhere.
        #expect(!F.isClose(drawnTitle, FrameBuilder.map(destination, from: element.toRect, into: rect)))

        let landed = presenter.frame(at: 10 + plan.duration + 0.001, unixTime: 0)
        #expect(landed.item(at: title)?.rect == destination)
    }

    @Test func hideSourceHidesTheOldNodeWhileMoving() throws {
        let pill = F.scene(.pill, F.song())
        let peek = F.scene(.peek, F.song(peek: F.songPeek))
        let plan = F.plan(pill, peek, cause: .peek)
        let element = try #require(plan.elements.first)
        #expect(element.hideSource && element.fromPath == "compact_leading")
        // compact_leading stays on screen (without hide_source it would be drawn throughout).
        #expect(plan.slots.contains { $0.slot == .compactLeading && $0.change == .stay })
        let presenter = try F.presenter(playing: plan, from: pill, at: 10)
        for t in [0.0, 0.1, 0.3, plan.duration + 0.001] {
            #expect(presenter.frame(at: 10 + t, unixTime: 0).items(at: "compact_leading").isEmpty, "at \(t)")
        }
        #expect(presenter.frame(at: 10.1, unixTime: 0).shared(element.key).count == 1)
        #expect(presenter.frame(at: 10 + plan.duration + 0.001, unixTime: 0).item(at: "peek/0")?.rect == element.toRect)

        // Closing the peek: the pill copy reappears when it lands.
        var closing = presenter
        let close = F.plan(peek, pill, cause: .endPeek, serial: 3)
        try closing.receive(F.wire(close), at: 20)
        #expect(closing.frame(at: 20.1, unixTime: 0).shared(close.elements[0].key).first?.path == "compact_leading")
        #expect(closing.frame(at: 20 + close.duration + 0.001, unixTime: 0).item(at: "compact_leading")?.rect == element.fromRect)
    }

    @Test func crossFadeDrawsBothNodes() throws {
        let artwork = F.node(.image) { $0.symbol = "music.note"; $0.width = 120; $0.height = 120; $0.shared = SharedMark(id: "cover") }
        let pill = F.scene(.pill, F.song())
        let expanded = F.scene(.expanded, F.song(expanded: F.vstack([artwork, F.text("Song title")])))
        let plan = F.plan(pill, expanded, cause: .open)
        let element = try #require(plan.elements.first)
        #expect(element.crossFade)
        let presenter = try F.presenter(playing: plan, from: pill, at: 10)
        let t = 0.12
        let copies = presenter.frame(at: 10 + t, unixTime: 0).shared(element.key)
        let old = try #require(copies.first { $0.path == element.fromPath })
        let new = try #require(copies.first { $0.path == element.toPath })
        #expect(old.rect == new.rect)
        #expect(F.isStrictlyBetween(new.rect, element.fromRect, element.toRect))
        let f = element.curve.value(at: t)
        #expect(abs(old.opacity - CrossFade.outgoing(f)) < 1e-9 && abs(new.opacity - CrossFade.incoming(f)) < 1e-9)
        #expect(old.content == .custom(name: "CoverArt", properties: ["art_url": "file:///tmp/cover.png"]))
        #expect(new.content == .image(source: "music.note", tint: .white))
    }

    /// Rule 6 as drawn: over the whole move the two copies, composited one over the other,
    /// cover the frame fully (both are opaque views); the old linear fade left 75% at the midpoint.
    @Test func rule6_aCrossFadeNeverThinsOverTheWholeMove() throws {
        let artwork = F.node(.image) { $0.symbol = "music.note"; $0.width = 120; $0.height = 120; $0.shared = SharedMark(id: "cover") }
        let pill = F.scene(.pill, F.song())
        let plan = F.plan(pill, F.scene(.expanded, F.song(expanded: F.vstack([artwork, F.text("Song title")]))), cause: .open)
        let element = try #require(plan.elements.first)
        #expect(element.crossFade)
        let presenter = try F.presenter(playing: plan, from: pill, at: 10)
        var thin: [String] = []
        var t = 0.0
        while t < plan.duration {
            let copies = presenter.frame(at: 10 + t, unixTime: 0).shared(element.key)
            let old = copies.first { $0.path == element.fromPath }?.opacity ?? 0
            let new = copies.first { $0.path == element.toPath }?.opacity ?? 0
            if CrossFade.coverage(old, new) < 1 - 1e-9 { thin.append("t \(t): \(old) + \(new)") }
            t += 1.0 / 240
        }
        #expect(thin.isEmpty, "the pair thinned: \(thin.prefix(5))")
    }

    @Test func reduceMotionHasNoInBetweenPositions() throws {
        let settings = F.settings(reduceMotion: true)
        let (pill, _, plan) = F.openSong(settings: settings)
        #expect(plan.reduceMotion)
        // Also a plan that still lists the move (another planner): the presenter must not move it.
        let normal = F.openSong().plan
        var dictionary = normal.wireDictionary()
        dictionary["reduce_motion"] = .bool(true)
        let forced = PropValue.dictionary(dictionary)
        let pillCover = try #require(pill.slot(.compactLeading, owner: "music/song")?.rect(at: "compact_leading"))
        let openCover = try #require(normal.scene.nodes.first { $0.path == "expanded/0" }).rect

        for wire in [F.wire(plan), forced] {
            var presenter = PlanPresenter()
            try presenter.receive(F.wire(F.subscribe(pill, settings: settings)), at: 0)
            try presenter.receive(wire, at: 10)
            var t = 0.0
            while t <= plan.duration + 0.05 {
                for item in presenter.frame(at: 10 + t, unixTime: 0).items where item.path == "compact_leading" || item.path == "expanded/0" {
                    #expect(item.rect == pillCover || item.rect == openCover, "\(item.path) at \(t): \(item.rect)")
                    #expect(item.sharedKey == nil)
                }
                t += 1.0 / 120
            }
        }
    }

    @Test func anInterruptionStartsFromThePresentedRect() throws {
        let (pill, expanded, opening) = F.openSong()
        var presenter = try F.presenter(playing: opening, from: pill, at: 10)
        // The broker planned the close 0.1 s in; the renderer sees it 0.15 s in (latency).
        let closing = F.plan(expanded, pill, cause: .close, serial: 3, inFlight: InFlightPlan(plan: opening, elapsed: 0.1))
        #expect(closing.interrupts == opening.serial)
        let element = try #require(closing.elements.first)
        let arrival = 10.15
        let step = 1e-4
        func rect(_ presenter: PlanPresenter, _ time: Double) -> Rect? { presenter.frame(at: time, unixTime: 0).shared(element.key).first?.rect }
        let before = presenter.frame(at: arrival, unixTime: 0)
        let presented = try #require(rect(presenter, arrival))
        let earlier = try #require(rect(presenter, arrival - step))
        #expect(!F.isClose(presented, element.fromRect, tolerance: 0.5))

        try presenter.receive(F.wire(closing), at: arrival)
        let after = presenter.frame(at: arrival, unixTime: 0)
        #expect(F.isClose(after.shared(element.key).first?.rect, presented))
        #expect(F.isClose(after.chrome?.rect, before.chrome?.rect))
        #expect(presenter.serial == 3)
        // ... with the speed it had on screen (the move back is along the same line, so the
        // whole velocity carries over) ...
        let next = try #require(rect(presenter, arrival + step))
        for (v0, v1) in zip([presented.x - earlier.x, presented.width - earlier.width], [next.x - presented.x, next.width - presented.width]) {
            #expect(abs(v1 - v0) < 0.01 * abs(v0), "velocity \(v0 / step) pt/s before, \(v1 / step) after")
        }
        // ... and lands at the close's destination.
        #expect(presenter.frame(at: arrival + 2.5, unixTime: 0).item(at: "compact_leading")?.rect == element.toRect)
        #expect(!presenter.isAnimating(at: arrival + 2.5))
    }

    @Test func aSampledCurveFollowsItsSamples() throws {
        let (pill, _, plan) = F.openSong()
        var presenter = PlanPresenter()
        try presenter.receive(F.wire(F.subscribe(pill), sampleRate: 60), at: 0)
        try presenter.receive(F.wire(plan, sampleRate: 60), at: 10)
        for t in [0.05, 0.2, 0.4] {
            let exact = F.lerp(plan.chrome.fromRect, plan.chrome.toRect, plan.chrome.curve.value(at: t))
            let drawn = try #require(presenter.frame(at: 10 + t, unixTime: 0).chrome?.rect)
            #expect(F.isClose(drawn, exact, tolerance: 2), "at \(t): \(drawn) vs \(exact)")
        }
    }
}
