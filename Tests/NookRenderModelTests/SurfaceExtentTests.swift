import NookCore
@testable import NookRenderModel
import Testing

/// How tall the layer-shell surface is made (`SurfaceExtent`, issue 42).
@Suite
struct SurfaceExtentTests {
    static let full = 442.0
    static let pill = ChromeShape(rect: Rect(x: 716, y: 0, width: 80, height: 32), radius: 10)
    static func item(at rect: Rect) -> DrawItem { DrawItem(path: "0.1", content: .text("a", TextStyle()), rect: rect, opacity: 1) }

    @Test func theBottomIsTheLowestOfTheChromeItsItemsAndTheFocusRing() {
        #expect(SurfaceExtent.bottom(of: DisplayList()) == 0)
        #expect(SurfaceExtent.bottom(of: DisplayList(chrome: Self.pill)) == 32)
        // A capsule beside the chrome reaching lower than it.
        let capsule = Self.item(at: Rect(x: 820, y: 2, width: 30, height: 40))
        #expect(SurfaceExtent.bottom(of: DisplayList(chrome: Self.pill, items: [capsule])) == 42)
        // A non-finite rect (a hostile plan) is left out rather than making the surface endless.
        let broken = Self.item(at: Rect(x: 0, y: 0, width: 10, height: .infinity))
        #expect(SurfaceExtent.bottom(of: DisplayList(chrome: Self.pill, items: [broken])) == 32)
    }

    @Test func aTransitionHasRoomForBothEndsAndAnOvershootInWholeSteps() {
        let pill = Rect(x: 716, y: 0, width: 80, height: 32), panel = Rect(x: 516, y: 0, width: 480, height: 136)
        let opening = SurfaceExtent.height(from: pill, to: panel, drawn: 32, full: Self.full)
        #expect(opening >= 136 * (1 + SurfaceExtent.overshootShare) + SurfaceExtent.margin)
        #expect(opening.truncatingRemainder(dividingBy: SurfaceExtent.step) == 0)
        // Closing needs the same room: the panel is where it starts.
        #expect(SurfaceExtent.height(from: panel, to: pill, drawn: 136, full: Self.full) == opening)
        // What is drawn now counts too (a hover held below the panel).
        #expect(SurfaceExtent.height(from: pill, to: pill, drawn: 300, full: Self.full) >= 316)
    }

    @Test func theHeightStaysWithinOneStepAndTheMonitorsShare() {
        #expect(SurfaceExtent.height(from: nil, to: nil, drawn: 0, full: Self.full) == SurfaceExtent.step)
        #expect(SurfaceExtent.height(from: nil, to: Rect(x: 0, y: 0, width: 10, height: 5000), drawn: 0, full: Self.full) == Self.full)
        #expect(SurfaceExtent.height(from: nil, to: Rect(x: 0, y: 0, width: 10, height: .nan), drawn: .infinity, full: Self.full) == Self.full)
        #expect(SurfaceExtent.restingHeight(drawn: 32, full: Self.full) == 64)
        #expect(SurfaceExtent.restingHeight(drawn: 0, full: Self.full) == SurfaceExtent.step)
        #expect(SurfaceExtent.restingHeight(drawn: .infinity, full: Self.full) == Self.full)
        #expect(SurfaceExtent.restingHeight(drawn: 10_000, full: Self.full) == Self.full)
    }

    @Test func theWidthReachesBothSidesOfTheCentreAndKeepsTheOutputsParity() {
        let centre = 756.0, full = 1512.0
        // A capsule on the right reaches further than the pill on the left.
        let capsule = Self.item(at: Rect(x: 800, y: 2, width: 30, height: 28))
        let half = SurfaceExtent.halfWidth(of: DisplayList(chrome: Self.pill, items: [capsule]), centre: centre)
        #expect(half == 830 - centre)
        let resting = SurfaceExtent.restingWidth(drawnHalf: half, full: full)
        #expect(resting >= 2 * half && (full - resting).truncatingRemainder(dividingBy: 2) == 0)
        #expect(SurfaceExtent.originX(width: resting, full: full) == (full - resting) / 2)
        // An odd output: the width is odd too, so each side leaves a whole number of points.
        let odd = SurfaceExtent.restingWidth(drawnHalf: half, full: 1367)
        #expect((1367 - odd).truncatingRemainder(dividingBy: 2) == 0)
        // Opening onto a panel: room for it and its overshoot; never more than the output.
        let panel = Rect(x: 516, y: 0, width: 480, height: 136)
        let opening = SurfaceExtent.width(from: Self.pill.rect, to: panel, drawnHalf: half, centre: centre, full: full)
        #expect(opening >= 480 * (1 + SurfaceExtent.overshootShare) && opening <= full)
        #expect(SurfaceExtent.width(from: nil, to: Rect(x: -5000, y: 0, width: 20000, height: 10), drawnHalf: 0, centre: centre, full: full) == full)
        #expect(SurfaceExtent.originX(width: full, full: full) == 0)
    }
}
