import NookCore
@testable import NookRenderModel
import Testing

private typealias F = PlanFixture

/// The chrome's morph, slot fades, hiding and the presenter's clock.
@Suite struct ChromeAndSlotTests {
    @Test func chromeMorphsFromTheFromRectToTheToRectOnItsCurve() throws {
        let (pill, _, plan) = F.openSong()
        let presenter = try F.presenter(playing: plan, from: pill, at: 10)
        let chrome = plan.chrome
        #expect(presenter.frame(at: 10, unixTime: 0).chrome == ChromeShape(rect: chrome.fromRect, radius: chrome.fromRadius))
        for t in [0.05, 0.1, 0.2, 0.35, 0.5] {
            let p = chrome.curve.value(at: t)
            let drawn = try #require(presenter.frame(at: 10 + t, unixTime: 0).chrome)
            #expect(F.isClose(drawn.rect, F.lerp(chrome.fromRect, chrome.toRect, p)), "at \(t)")
            #expect(abs(drawn.radius - (chrome.fromRadius + (chrome.toRadius - chrome.fromRadius) * p)) < 1e-9)
        }
        let rest = presenter.frame(at: 10 + plan.duration + 0.001, unixTime: 0).chrome
        #expect(rest == ChromeShape(rect: chrome.toRect, radius: chrome.toRadius))
        #expect(presenter.chromeRect(at: 10 + plan.duration + 0.001) == chrome.toRect)
    }

    /// Rule 18: under Reduce Motion the planner's plans dissolve the chrome. Every frame shows
    /// the from-shape, the to-shape or both, never a shape in between; while both show, the
    /// smaller one is opaque on top of the larger one's fade, so nothing is half-transparent
    /// where they overlap; the new scene is clipped to the destination.
    @Test func reduceMotionChromeNeverHasAnInBetweenRect() throws {
        let settings = F.settings(reduceMotion: true)
        let pill = F.scene(.pill, F.song(), settings)
        let expanded = F.scene(.expanded, F.song(expanded: F.songExpanded), settings)
        let opening = F.plan(pill, expanded, cause: .open, settings: settings)
        let closing = F.plan(expanded, pill, cause: .close, serial: 3, settings: settings)
        for (plan, from) in [(opening, pill), (closing, expanded)] {
            #expect(plan.chrome.fromRect != plan.chrome.toRect)
            var presenter = PlanPresenter()
            try presenter.receive(F.wire(F.subscribe(from, settings: settings)), at: 0)
            try presenter.receive(F.wire(plan), at: 10)
            let ends = [plan.chrome.fromRect, plan.chrome.toRect]
            var bothShown = 0
            var t = 0.0
            while t <= plan.duration + 0.05 {
                let frame = presenter.frame(at: 10 + t, unixTime: 0)
                let shapes = [frame.chrome, frame.fadingChrome].compactMap { $0 }
                #expect(!shapes.isEmpty, "no chrome at \(t)")
                for shape in shapes { #expect(ends.contains(shape.rect), "\(plan.cause) at \(t): chrome at \(shape.rect)") }
                if let destination = frame.chrome, let source = frame.fadingChrome {
                    bothShown += 1
                    #expect(destination.rect == plan.chrome.toRect && source.rect == plan.chrome.fromRect)
                    let layers = frame.chromeLayers
                    let smaller = destination.rect.width * destination.rect.height < source.rect.width * source.rect.height ? destination : source
                    #expect(layers.last == smaller && smaller.opacity == 1, "\(plan.cause) at \(t): \(layers)")
                    #expect(layers[0].opacity > 0 && layers[0].opacity < 1)
                    for item in frame.items where item.clip != nil && plan.scene.nodes.contains(where: { $0.path == item.path }) {
                        #expect(item.clip == ChromeShape(rect: destination.rect, radius: destination.radius), "\(item.path)")
                    }
                }
                t += 1.0 / 240
            }
            #expect(bothShown > 3, "\(plan.cause): the dissolve was never seen")
            let rest = presenter.frame(at: 10 + plan.duration + 0.01, unixTime: 0)
            #expect(rest.chrome?.rect == plan.chrome.toRect && rest.fadingChrome == nil && rest.chrome?.opacity == 1)
        }
        // The same plans without Reduce Motion morph through in-between rects, as before.
        let morph = F.plan(F.scene(.pill, F.song()), F.scene(.expanded, F.song(expanded: F.songExpanded)), cause: .open)
        let presenter = try F.presenter(playing: morph, from: F.scene(.pill, F.song()))
        let halfway = presenter.frame(at: 10.1, unixTime: 0)
        #expect(halfway.fadingChrome == nil)
        #expect(F.isStrictlyBetween(try #require(halfway.chrome).rect, morph.chrome.fromRect, morph.chrome.toRect))
    }

    /// A dissolve interrupted starts from the shape presented (its origin before half-way):
    /// the interrupting dissolve shows that shape and its own destination, nothing else.
    @Test func anInterruptedDissolveStartsFromThePresentedShape() throws {
        let settings = F.settings(reduceMotion: true)
        let pill = F.scene(.pill, F.song(), settings)
        let expanded = F.scene(.expanded, F.song(expanded: F.songExpanded), settings)
        let opening = F.plan(pill, expanded, cause: .open, settings: settings)
        var presenter = PlanPresenter()
        try presenter.receive(F.wire(F.subscribe(pill, settings: settings)), at: 0)
        try presenter.receive(F.wire(opening), at: 10)
        let early = opening.chrome.curve.totalDuration * 0.2
        let closing = F.plan(expanded, pill, cause: .close, serial: 3, settings: settings,
                             inFlight: InFlightPlan(plan: opening, elapsed: early))
        try presenter.receive(F.wire(closing), at: 10 + early)
        #expect(presenter.chromeRect(at: 10 + early) == opening.chrome.fromRect)
        var t = 0.0
        while t <= closing.duration + 0.05 {
            let frame = presenter.frame(at: 10 + early + t, unixTime: 0)
            for shape in [frame.chrome, frame.fadingChrome].compactMap({ $0 }) {
                #expect(shape.rect == opening.chrome.fromRect, "at \(t): \(shape.rect)")
            }
            t += 1.0 / 240
        }
    }

    @Test func isAnimatingOnlyWhileACurveMoves() throws {
        let (pill, _, plan) = F.openSong()
        let presenter = try F.presenter(playing: plan, from: pill, at: 10)
        #expect(presenter.isAnimating(at: 10.1))
        #expect(presenter.isAnimating(at: 10 + plan.duration - 0.01))
        #expect(!presenter.isAnimating(at: 10 + plan.duration + 0.01))
        #expect(!PlanPresenter().isAnimating(at: 0))
    }

    @Test func slowMotionStretchesEveryCurveByTheTimeScale() throws {
        let (pill, _, plan) = F.openSong()
        let normal = try F.presenter(playing: plan, from: pill, at: 10)
        var slow = PlanPresenter()
        slow.timeScale = 4
        try slow.receive(F.wire(F.subscribe(pill)), at: 0)
        try slow.receive(F.wire(plan), at: 10)
        for t in [0.05, 0.1, 0.3] {
            let stretched = slow.frame(at: 10 + 4 * t, unixTime: 0)
            let real = normal.frame(at: 10 + t, unixTime: 0)
            #expect(F.isClose(stretched.chrome?.rect, real.chrome?.rect, tolerance: 1e-6))
            #expect(stretched.items.map(\.path) == real.items.map(\.path))
            for (a, b) in zip(stretched.items, real.items) {
                #expect(F.isClose(a.rect, b.rect, tolerance: 1e-6) && abs(a.opacity - b.opacity) < 1e-9, "\(a.path) at \(t)")
            }
        }
        #expect(slow.isAnimating(at: 10 + 3 * plan.duration))
        #expect(!normal.isAnimating(at: 10 + 3 * plan.duration))
    }

    @Test func disappearingSlotsFadeOutFromThePreviousScene() throws {
        let (pill, _, plan) = F.openSong()
        let presenter = try F.presenter(playing: plan, from: pill, at: 10)
        let leaving = try #require(plan.slots.first { $0.slot == .compactTrailing })
        #expect(leaving.change == .disappear)
        // compact_trailing is only in the previous scene: the presenter kept it to fade it out.
        #expect(!plan.scene.nodes.contains { $0.path == "compact_trailing" })
        let t = 0.06
        let fading = try #require(presenter.frame(at: 10 + t, unixTime: 0).item(at: "compact_trailing"))
        #expect(abs(fading.opacity - (1 - leaving.curve.value(at: t))) < 1e-9)
        #expect(fading.opacity > 0 && fading.opacity < 1)
        #expect(fading.content == .image(source: "waveform", tint: .white))
        #expect(presenter.frame(at: 10 + leaving.curve.totalDuration, unixTime: 0).item(at: "compact_trailing") == nil)
    }

    @Test func appearingSlotsFadeIn() throws {
        let (pill, _, plan) = F.openSong()
        let presenter = try F.presenter(playing: plan, from: pill, at: 10)
        let appearing = try #require(plan.slots.first { $0.slot == .expanded })
        #expect(appearing.change == .appear)
        let t = 0.09
        let title = try #require(presenter.frame(at: 10 + t, unixTime: 0).item(at: "expanded/1"))
        #expect(abs(title.opacity - appearing.curve.value(at: t)) < 1e-9)
        #expect(title.content.text == "Song title")
        // Slot content lives inside the chrome: clipped to it while it grows.
        let frame = presenter.frame(at: 10 + t, unixTime: 0)
        #expect(frame.item(at: "expanded/2")?.clip == frame.chrome)
        #expect(frame.chrome.map { $0.rect.maxY < title.rect.maxY } == true)
        #expect(presenter.frame(at: 10 + plan.duration + 0.001, unixTime: 0).item(at: "expanded/1")?.opacity == 1)
    }

    @Test func aHiddenChromeIsNilOnceTheHideFinishes() throws {
        let pill = F.scene(.pill, F.song())
        let hidden = F.scene(.hidden, F.song())
        let plan = F.plan(pill, hidden, cause: .hide)
        let presenter = try F.presenter(playing: plan, from: pill, at: 10)
        #expect(presenter.presentation == .hidden)
        #expect(presenter.frame(at: 10.02, unixTime: 0).chrome != nil)
        #expect(presenter.frame(at: 10 + plan.duration + 0.001, unixTime: 0).chrome == nil)
        #expect(presenter.chromeRect(at: 10 + plan.duration + 0.001) == nil)
        #expect(presenter.frame(at: 10 + plan.duration + 0.001, unixTime: 0).items.isEmpty)
    }

    @Test func theHideDipDropsTheChromeThenGrowsItFromTheHiddenPoint() throws {
        // Nothing in the pill is shared with the expanded view: a claim dips through hidden.
        let pill = F.scene(.pill, F.song(leading: F.image("music.note")))
        let expanded = F.scene(.expanded, F.song(expanded: F.songExpanded, leading: F.image("music.note")))
        let plan = F.plan(pill, expanded, cause: .open)
        #expect(plan.conversion == .viaHidden)
        let dip = try #require(plan.chrome.hideDip)
        let presenter = try F.presenter(playing: plan, from: pill, at: 10)
        let during = presenter.frame(at: 10 + dip / 2, unixTime: 0)
        #expect(during.chrome == nil)
        #expect(during.items.isEmpty)
        let growing = try #require(presenter.frame(at: 10 + dip + 0.03, unixTime: 0).chrome)
        #expect(growing.rect.width < plan.chrome.fromRect.width)
        #expect(abs(growing.rect.midX - plan.chrome.toRect.midX) < 1e-6)
        #expect(presenter.frame(at: 10 + plan.duration + 0.001, unixTime: 0).chrome?.rect == plan.chrome.toRect)
    }

    @Test func capsulesDrawTheirBlackShapeBehindTheirContent() throws {
        var content = F.song()
        content.minimal = [F.owned("timer/tea", F.image("timer"))]
        let pill = F.scene(.pill, content)
        var presenter = PlanPresenter()
        try presenter.receive(F.wire(F.subscribe(pill)), at: 0)
        let frame = presenter.frame(at: 5, unixTime: 0)
        let capsule = try #require(frame.item(at: "capsule:timer/tea"))
        let shape = try #require(pill.layout.capsules.first)
        #expect(capsule.rect == shape.shape.rect)
        #expect(capsule.content == .shape(.capsule, fill: .black, cornerRadius: shape.shape.cornerRadius))
        #expect(frame.item(at: "timer/tea:minimal")?.clip == nil)
        #expect(frame.item(at: "compact_trailing")?.clip == frame.chrome)
        let icon = try #require(frame.items.firstIndex { $0.path == "timer/tea:minimal" })
        let background = try #require(frame.items.firstIndex { $0.path == "capsule:timer/tea" })
        #expect(background < icon)
    }
}
