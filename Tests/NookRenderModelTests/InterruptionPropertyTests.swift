import NookCore
@testable import NookRenderModel
import NookTestSupport
import Testing

private typealias F = PlanFixture

/// Rule 21 as a property: the song goes between pill, peek and expanded view, each plan
/// arriving at a random instant (often mid-flight, with the broker's estimate of the elapsed
/// time off by up to 50 ms), and nothing on screen jumps when a plan arrives.
@Suite struct InterruptionPropertyTests {
    enum State: CaseIterable { case pill, peek, expanded }

    static let scenes: [State: PlannerScene] = [
        .pill: F.scene(.pill, F.song()),
        .peek: F.scene(.peek, F.song(peek: F.songPeek)),
        .expanded: F.scene(.expanded, F.song(peek: F.songPeek, expanded: F.songExpanded)),
    ]

    static func cause(from: State, to: State) -> PlanCause {
        switch (from, to) {
        case (_, .expanded): .open
        case (.pill, .peek): .peek
        case (.peek, .pill): .endPeek
        default: .close
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func nothingJumpsWhenAPlanArrivesMidFlight(seed: UInt64) throws {
        let runSeed = SeededGenerator.runSeed(pinned: seed)
        var random = SeededGenerator(seed: runSeed)
        var presenter = PlanPresenter()
        var state = State.pill
        var current = F.subscribe(Self.scenes[.pill]!)
        try presenter.receive(F.wire(current), at: 0)
        var start = 0.0
        var now = 0.0
        var serial: UInt64 = 1
        var continued = 0
        for _ in 0..<40 {
            now += Double.random(in: 0.01...0.5, using: &random)
            let next = State.allCases.filter { $0 != state }.randomElement(using: &random)!
            serial += 1
            let estimate = max(0, now - start + Double.random(in: -0.05...0.05, using: &random))
            let plan = TransitionPlanner.plan(
                from: Self.scenes[state]!, to: Self.scenes[next]!,
                action: PlanAction(cause: Self.cause(from: state, to: next), serial: serial, via: .hover),
                settings: F.settings(), inFlight: InFlightPlan(plan: current, elapsed: estimate))
            let before = presenter.frame(at: now, unixTime: 0)
            let wasMoving = presenter.isAnimating(at: now)
            try presenter.receive(F.wire(plan), at: now)
            let after = presenter.frame(at: now, unixTime: 0)

            #expect(before.chrome == nil ? after.chrome == nil : F.isClose(before.chrome?.rect, after.chrome?.rect, tolerance: 1e-6),
                    "\(SeededGenerator.replay(runSeed)) plan \(serial): the chrome jumped from \(String(describing: before.chrome)) to \(String(describing: after.chrome))")
            for element in plan.elements {
                // Where the element was on screen: in flight under its key, or at rest at its source.
                let shown = before.shared(element.key).first { $0.path == element.fromPath }
                    ?? before.items.first { $0.path == element.fromPath && $0.sharedKey == nil }
                guard let shown else { continue }  // hidden (rule 10): nothing to jump from
                let moving = after.shared(element.key).first { $0.path == element.toPath }
                #expect(F.isClose(moving?.rect, shown.rect, tolerance: 1e-6),
                        "\(SeededGenerator.replay(runSeed)) plan \(serial): \(element.key) jumped from \(shown.rect) to \(String(describing: moving?.rect))")
                if wasMoving { continued += 1 }
            }
            // ... and what follows stays on the display (a velocity taken over at the wrong
            // scale would throw the chrome off screen).
            for later in [0.02, 0.1, 0.3] {
                let chrome = presenter.frame(at: now + later, unixTime: 0).chrome
                #expect(chrome.map { $0.rect.minX >= 0 && $0.rect.maxX <= F.laptop.width && $0.rect.height > 0 && $0.rect.maxY < 400 } == true,
                        "\(SeededGenerator.replay(runSeed)) plan \(serial) +\(later): \(String(describing: chrome))")
            }
            for item in after.items {
                #expect(item.opacity >= 0 && item.opacity <= 1 && item.rect.width.isFinite && item.rect.x.isFinite)
            }
            state = next
            current = plan
            start = now
        }
        #expect(continued > 0, "\(SeededGenerator.replay(runSeed)): no plan arrived mid-flight")
    }
}
