import Testing
import NookHeroCard
import NookCore
@testable import NookModuleAPI

// Modifier order checked against the broker's own layout engine, the oracle for what a
// wrapper means: the rects the nodes get, not just their shape.

private let ns = Namespace("order")

private func layout(_ view: some NookView, width: Double = 400, height: Double = 200) -> LayoutResult {
    LayoutEngine.layout(view.viewNode, rootPath: "expanded", proposal: ProposedSize(width: width, height: height))
}

/// The rect of the node carrying a `shared` mark.
private func markedRect(_ view: some NookView) throws -> Rect {
    let root = view.viewNode
    let element = try #require(SlotNamespaces(resolving: root, slot: "expanded", owner: SlotOwner(module: "m")).elements.first)
    return try #require(layout(view).rect(at: element.path))
}

@Test func rule24_markBeforeFrameCoversTheInnerViewsSizeAndAfterCoversTheFrame() throws {
    let inner = try markedRect(Image(systemName: "x").twShared("icon", in: ns).frame(width: 100, height: 60))
    #expect(inner.size == Size(width: 20, height: 20), "the icon's own size, centred in the frame")
    #expect(inner.x == 40 && inner.y == 20)
    let outer = try markedRect(Image(systemName: "x").frame(width: 100, height: 60).twShared("icon", in: ns))
    #expect(outer.size == Size(width: 100, height: 60))
}

@Test func paddingOutsideAFrameAddsToItAndInsideDoesNot() {
    #expect(layout(Circle().frame(width: 40, height: 40).padding(4)).root?.rect.size == Size(width: 48, height: 48))
    #expect(layout(Circle().padding(4).frame(width: 40, height: 40)).root?.rect.size == Size(width: 40, height: 40))
}

@Test func frameAroundALeadingStackCentresTheStackNotItsChildren() throws {
    let view = VStack(alignment: .leading, spacing: 0) {
        Image(systemName: "a").frame(width: 10, height: 10)
        Image(systemName: "b").frame(width: 30, height: 10)
    }.frame(width: 100)
    let result = layout(view)
    #expect(view.viewNode.kind == .zstack, "the frame wraps a stack that aligns off-centre")
    let stack = try #require(result.rect(at: "expanded/0"))
    let first = try #require(result.rect(at: "expanded/0/0"))
    #expect(stack.width == 30 && stack.x == 35)
    #expect(first.x == stack.x, "children stay leading within the stack")
}

@Test func infiniteMaxWidthTakesAllTheRoomOffered() {
    #expect(layout(Text("a").frame(maxWidth: .infinity), width: 333).root?.rect.width == 333)
    #expect(layout(Text("a").frame(maxWidth: .infinity, maxHeight: .infinity), width: 333, height: 77).root?.rect.size
        == Size(width: 333, height: 77))
}

@Test func heroCoverSizeComesFromItsClassesOnEachSide() throws {
    let small = layout(HeroCard(expanded: false))
    let large = layout(HeroCard(expanded: true))
    #expect(small.rect(at: "expanded/0/0/0")?.size == Size(width: 80, height: 80))
    #expect(large.rect(at: "expanded/0/0/0")?.size == Size(width: 320, height: 200))
}
