import NookCore
@testable import NookRenderModel
import Testing

/// Which parts of the surface a frame repaints (`FrameDamage`).
@Suite
struct FrameDamageTests {
    static let bounds = Size(width: 1512, height: 442)
    static let chrome = ChromeShape(rect: Rect(x: 716, y: 0, width: 80, height: 32), radius: 10)
    static func title(_ text: String, at rect: Rect, opacity: Double = 1) -> DrawItem {
        DrawItem(path: "0.1", content: .text(text, TextStyle()), rect: rect, opacity: opacity)
    }

    @Test func nothingChangedRepaintsNothing() {
        let list = DisplayList(chrome: Self.chrome, items: [Self.title("a", at: Rect(x: 720, y: 4, width: 20, height: 16))])
        #expect(FrameDamage.rects(from: list, to: list, bounds: Self.bounds) == [])
    }

    @Test func aMovingItemDamagesWhereItWasAndWhereItIs() {
        let before = DisplayList(chrome: Self.chrome, items: [Self.title("a", at: Rect(x: 720, y: 4, width: 20, height: 16))])
        let after = DisplayList(chrome: Self.chrome, items: [Self.title("a", at: Rect(x: 730.5, y: 4, width: 20, height: 16))])
        let rects = FrameDamage.rects(from: before, to: after, bounds: Self.bounds)
        #expect(Set(rects ?? []) == [Rect(x: 728, y: 2, width: 25, height: 20), Rect(x: 718, y: 2, width: 24, height: 20)])
    }

    @Test func aFadingItemAndAChangedChromeAreDamagedBothWays() {
        let item = Self.title("a", at: Rect(x: 720, y: 4, width: 20, height: 16))
        var fading = item
        fading.opacity = 0.5
        var grown = Self.chrome
        grown.rect = Rect(x: 700, y: 0, width: 112, height: 36)
        let rects = FrameDamage.rects(from: DisplayList(chrome: Self.chrome, items: [item]),
                                      to: DisplayList(chrome: grown, items: [fading]), bounds: Self.bounds) ?? []
        #expect(rects.contains(Rect(x: 714, y: 0, width: 84, height: 34)), "the old chrome")
        #expect(rects.contains(Rect(x: 698, y: 0, width: 116, height: 38)), "the new chrome")
        #expect(rects.contains(Rect(x: 718, y: 2, width: 24, height: 20)), "the fading item")
    }

    @Test func anItemLeavingDamagesWhereItWas() {
        let item = Self.title("a", at: Rect(x: 10, y: 10, width: 5, height: 5))
        #expect(FrameDamage.rects(from: DisplayList(items: [item]), to: DisplayList(), bounds: Self.bounds) == [Rect(x: 8, y: 8, width: 9, height: 9)])
    }

    @Test func largeDamageOrNoPreviousFrameRepaintsEverything() {
        let small = DisplayList(chrome: Self.chrome)
        var board = Self.chrome
        board.rect = Rect(x: 0, y: 0, width: 1512, height: 400)
        #expect(FrameDamage.rects(from: small, to: DisplayList(chrome: board), bounds: Self.bounds) == nil)
        #expect(FrameDamage.rects(from: nil, to: small, bounds: Self.bounds) == nil)
    }

    @Test func rectsOutsideTheSurfaceOrNotFiniteStayInIt() {
        #expect(FrameDamage.pixelRect(Rect(x: 2000, y: 0, width: 5, height: 5), in: Self.bounds) == nil)
        #expect(FrameDamage.pixelRect(Rect(x: .infinity, y: 0, width: 5, height: 5), in: Self.bounds)
                == Rect(x: 0, y: 0, width: 1512, height: 442))
    }
}
