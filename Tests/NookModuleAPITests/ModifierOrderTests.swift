import Testing
import NookCore
@testable import NookModuleAPI

// SPEC rule 24: a mark applies to the view as built so far. What merges into one node and
// what needs a wrapper, one row per ordering.

private let ns = Namespace("hero")
private let shape = node("shape", ["shape": .string("rounded_rect"), "corner_radius": .double(16)])

private func with(_ base: RawNode, _ extra: [String: PropValue]) -> RawNode {
    var copy = base
    copy.props.merge(extra) { _, new in new }
    return copy
}

@Test func rule24_twSharedBeforeFrameMarksTheInnerViewAndTheFrameWrapsIt() throws {
    let raw = try wire(RoundedRectangle(cornerRadius: 16).twShared("cover", in: ns).frame(width: 80, height: 50))
    let marked = with(shape, ["shared": sharedProps("cover", namespace: "hero")])
    #expect(raw == node("zstack", ["width": .double(80), "height": .double(50)], [marked]))
}

@Test func frameBeforeTwSharedPutsFrameAndMarkOnOneNode() throws {
    let raw = try wire(RoundedRectangle(cornerRadius: 16).frame(width: 80, height: 50).twShared("cover", in: ns))
    #expect(raw == with(shape, ["width": .double(80), "height": .double(50), "shared": sharedProps("cover", namespace: "hero")]))
}

@Test func twSharedAfterTwCarriesTheWholeStyledSurface() throws {
    let raw = try wire(RoundedRectangle(cornerRadius: 16).tw("p-2 bg-indigo-500 w-20").twShared("card", in: ns))
    #expect(raw == with(shape, ["classes": .string("p-2 bg-indigo-500 w-20"), "shared": sharedProps("card", namespace: "hero")]))
}

@Test func twAfterTwSharedStylesAWrapperOutsideTheMark() throws {
    let raw = try wire(RoundedRectangle(cornerRadius: 16).twShared("card", in: ns).tw("p-2 bg-indigo-500"))
    #expect(raw == node("zstack", ["classes": .string("p-2 bg-indigo-500")], [with(shape, ["shared": sharedProps("card", namespace: "hero")])]))
}

@Test func sharedClassThenFrameWrapsLikeTheModifier() throws {
    let raw = try wire(RoundedRectangle(cornerRadius: 16).tw("shared-[cover] w-20").frame(height: 10))
    #expect(raw.kind == "zstack")
    #expect(raw.props == ["height": .double(10)])
    #expect(raw.children == [with(shape, ["classes": .string("shared-[cover] w-20")])])
}

@Test func nookSharedElementAfterFrameMarksTheFramedView() throws {
    let raw = try wire(Circle().frame(width: 20, height: 20).nookSharedElement("cover"))
    #expect(raw == node("shape", ["shape": .string("circle"), "width": .double(20), "height": .double(20), "shared": sharedProps("cover")]))
}

@Test func paddingOrOpacityAfterAMarkGoOnAWrapper() throws {
    let padded = try wire(Circle().nookSharedElement("cover").padding(4))
    #expect(padded == node("zstack", ["padding": padding(4, 4, 4, 4)], [node("shape", ["shape": .string("circle"), "shared": sharedProps("cover")])]))
    let faded = try wire(Circle().nookSharedElement("cover").opacity(0.5))
    #expect(faded.kind == "zstack" && faded.props == ["opacity": .double(0.5)])
    let before = try wire(Circle().opacity(0.5).nookSharedElement("cover"))
    #expect(before == node("shape", ["shape": .string("circle"), "opacity": .double(0.5), "shared": sharedProps("cover")]))
}

@Test func paddingThenFrameMergesButFrameThenPaddingWraps() throws {
    #expect(
        try wire(Text("a").padding(4).frame(width: 40))
            == node("text", ["text": .string("a"), "padding": padding(4, 4, 4, 4), "width": .double(40)]))
    #expect(
        try wire(Text("a").frame(width: 40).padding(4))
            == node("zstack", ["padding": padding(4, 4, 4, 4)], [node("text", ["text": .string("a"), "width": .double(40)])]))
}

@Test func frameOnTheSameAxisWrapsAndOnTheOtherAxisMerges() throws {
    #expect(
        try wire(Text("a").frame(width: 20).frame(width: 40))
            == node("zstack", ["width": .double(40)], [node("text", ["text": .string("a"), "width": .double(20)])]))
    #expect(
        try wire(Text("a").frame(width: 20).frame(height: 40))
            == node("text", ["text": .string("a"), "width": .double(20), "height": .double(40)]))
    #expect(try wire(Text("a").tw("w-20").frame(width: 40)).kind == "zstack", "a class width is a frame too")
    #expect(try wire(Text("a").tw("w-20").frame(height: 40)).kind == "text")
}

@Test func appearanceClassesBlockLaterLayoutButNotOpacity() throws {
    #expect(try wire(Text("a").tw("bg-red-500").frame(width: 10)).kind == "zstack")
    #expect(try wire(Text("a").tw("bg-red-500").opacity(0.5)).kind == "text")
    #expect(try wire(Text("a").opacity(0.5).tw("bg-red-500")).kind == "zstack")
    #expect(try wire(Text("a").opacity(0.5).frame(width: 10)).kind == "text")
}

@Test func laterTwMergesByAppendingWhenNothingIsInTheWay() throws {
    #expect(try wire(Text("a").tw("p-2").tw("w-20 bg-red-500")).props["classes"] == .string("p-2 w-20 bg-red-500"))
    #expect(try wire(Text("a").tw("w-20").tw("p-2")).kind == "zstack", "padding outside a frame")
}

@Test func layoutAfterAnAnimationScopeStaysOutsideIt() throws {
    let raw = try wire(VStack { Text("a") }.tw("animate-smooth", value: true).frame(width: 100))
    #expect(raw.kind == "zstack" && raw.props == ["width": .double(100)])
    #expect(raw.children[0].props["animation_value"] == .string("true"))
    let inside = try wire(VStack { Text("a") }.frame(width: 100).tw("animate-smooth", value: true))
    #expect(inside.kind == "vstack" && inside.props["width"] == .double(100))
}

@Test func groupMergesWithLayoutAndMarksInEitherOrder() throws {
    #expect(try wire(VStack {}.group("hero").frame(width: 10).nookSharedElement("card")).kind == "vstack")
    #expect(try wire(VStack {}.group("a").group("b")).kind == "zstack", "one group per node")
}

@Test func twoMarksOfOneKindWrapButAMarkAndASharedClassShareANode() throws {
    let two = try wire(Circle().nookSharedElement("a").nookSharedElement("b"))
    #expect(two.kind == "zstack" && two.props["shared"] == sharedProps("b"))
    #expect(two.children[0].props["shared"] == sharedProps("a"))
    let mixed = try wire(Circle().nookSharedElement("a").tw("shared-[b]"))
    #expect(mixed.kind == "shape")
}

@Test func wrappersHoldExactlyOneChildAndNothingButTheModifier() throws {
    let raw = try wire(Text("a").nookSharedElement("t").frame(width: 1).padding(2).opacity(0.5))
    // The frame wraps the mark; padding outside that frame wraps again; opacity merges into
    // the outer wrapper, which has nothing that must sit inside it.
    #expect(raw == node("zstack", ["padding": padding(2, 2, 2, 2), "opacity": .double(0.5)], [
        node("zstack", ["width": .double(1)], [node("text", ["text": .string("a"), "shared": sharedProps("t")])]),
    ]))
}
