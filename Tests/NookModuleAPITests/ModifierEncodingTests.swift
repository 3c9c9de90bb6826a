import Testing
import NookCore
@testable import NookModuleAPI

// Each modifier on its own: which contract props it writes, on which node.

@Test func fixedFrameMergesIntoTheViewsNode() throws {
    #expect(
        try wire(Text("a").frame(width: 20, height: 10))
            == node("text", ["text": .string("a"), "width": .double(20), "height": .double(10)]))
    #expect(try wire(Circle().frame(height: 5)) == node("shape", ["shape": .string("circle"), "height": .double(5)]))
}

@Test func flexibleFrameSendsMinAndMaxAndInfinityAsUnbounded() throws {
    let raw = try wire(Text("a").frame(minWidth: 10, maxWidth: .infinity, minHeight: 4, maxHeight: 30))
    #expect(
        raw == node(
            "text",
            [
                "text": .string("a"), "min_width": .double(10), "max_width": .double(nookUnboundedLength),
                "min_height": .double(4), "max_height": .double(30),
            ]))
}

@Test func frameWithAlignmentWrapsInAnAlignedZStack() throws {
    let raw = try wire(Text("a").frame(maxWidth: .infinity, alignment: .leading))
    #expect(
        raw == node(
            "zstack", ["max_width": .double(nookUnboundedLength), "alignment": .string("leading")],
            [node("text", ["text": .string("a")])]))
    #expect(try wire(Text("a").frame(width: 9, alignment: .center)) == node("text", ["text": .string("a"), "width": .double(9)]))
}

@Test func paddingSendsInsetsTopLeadingBottomTrailing() throws {
    #expect(try wire(Text("a").padding()) == node("text", ["text": .string("a"), "padding": padding(8, 8, 8, 8)]))
    #expect(try wire(Text("a").padding(3)) == node("text", ["text": .string("a"), "padding": padding(3, 3, 3, 3)]))
    #expect(try wire(Text("a").padding(.horizontal, 12)) == node("text", ["text": .string("a"), "padding": padding(0, 12, 0, 12)]))
    #expect(try wire(Text("a").padding([.top, .trailing], 2)) == node("text", ["text": .string("a"), "padding": padding(2, 0, 0, 2)]))
    #expect(
        try wire(Text("a").padding(EdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4)))
            == node("text", ["text": .string("a"), "padding": padding(1, 2, 3, 4)]))
}

@Test func paddingOnPaddingAddsUpOnOneNode() throws {
    let raw = try wire(Text("a").padding(.horizontal, 8).padding(.vertical, 4).padding(.leading, 1))
    #expect(raw == node("text", ["text": .string("a"), "padding": padding(4, 9, 4, 8)]))
}

@Test func opacitySendsValueAndMultipliesWhenRepeated() throws {
    #expect(try wire(Text("a").opacity(0.5)) == node("text", ["text": .string("a"), "opacity": .double(0.5)]))
    #expect(try wire(Text("a").opacity(0.5).opacity(0.5)) == node("text", ["text": .string("a"), "opacity": .double(0.25)]))
    #expect(try wire(Text("a").opacity(7)) == node("text", ["text": .string("a"), "opacity": .double(1)]))
}

@Test func nookSharedElementSendsTheFullMarkInTheNookNamespace() throws {
    #expect(try wire(Circle().nookSharedElement("cover")) == node("shape", ["shape": .string("circle"), "shared": sharedProps("cover")]))
    #expect(
        try wire(Text("3:00").nookSharedElement("timer", style: .scale))
            == node("text", ["text": .string("3:00"), "shared": sharedProps("timer", style: "scale")]))
}

@Test func twSharedSendsNamespacePropertiesAnchorAndRole() throws {
    let hero = Namespace("hero")
    let raw = try wire(Text("Title").twShared("title", in: hero, properties: .position, anchor: .leading, isSource: false))
    #expect(
        raw == node(
            "text",
            [
                "text": .string("Title"),
                "shared": sharedProps("title", namespace: "hero", properties: "position", anchor: "leading", isSource: false),
            ]))
}

@Test func twSharedAcceptsAnyHashableIdByItsDescription() throws {
    enum Slot: Hashable { case cover }
    let ns = Namespace("grid")
    #expect(try wire(Circle().twShared(7, in: ns)).props["shared"] == sharedProps("7", namespace: "grid"))
    #expect(try wire(Circle().twShared(Slot.cover, in: ns)).props["shared"] == sharedProps("cover", namespace: "grid"))
}

@Test func invalidSharedIdIsRefusedByTheBrokersValidatorWithItsPath() {
    let raw = Circle().nookSharedElement("my cover").viewNode.rawNode
    #expect(throws: ViewValidationError.self) { try ViewValidator().validate(raw, slot: "home") }
    do {
        _ = try ViewValidator().validate(raw, slot: "home")
    } catch {
        #expect(error.path == "home.shared.id")
        #expect(error.code == .invalidId)
    }
}

@Test func roleSendsHeader() throws {
    #expect(try wire(Text("Now playing").role(.header)) == node("text", ["text": .string("Now playing"), "role": .string("header")]))
}

@Test func staggerMarksTheStackItselfEvenBehindWrappers() throws {
    #expect(try wire(VStack { Text("a") }.stagger()).props["stagger"] == .bool(true))
    let wrapped = try wire(VStack { Text("a") }.frame(width: 100).padding(4).nookSharedElement("list").stagger())
    #expect(wrapped.kind == "zstack", "padding after a frame wraps")
    #expect(wrapped.props["stagger"] == nil)
    #expect(wrapped.children[0].kind == "vstack")
    #expect(wrapped.children[0].props["stagger"] == .bool(true))
    #expect(try wire(Text("a").stagger()) == node("text", ["text": .string("a")]), "only stacks stagger")
}

@Test func groupSendsEmptyNameForAnonymousAndNameOtherwise() throws {
    #expect(try wire(VStack {}.group()) == node("vstack", ["group": .string("")]))
    #expect(try wire(VStack {}.group("hero")) == node("vstack", ["group": .string("hero")]))
}

@Test func groupStateSendsOnlyTheStatesGiven() throws {
    let raw = try wire(VStack {}.group("hero").groupState(focus: true, disabled: false))
    #expect(raw.props["group_state"] == .dictionary(["focus": .bool(true), "disabled": .bool(false)]))
    let more = try wire(VStack {}.group().groupState(active: true).groupState(["selected": true]))
    #expect(more.props["group_state"] == .dictionary(["active": .bool(true), "selected": .bool(true)]))
}

@Test func groupStateAndIdentityReachTheGroupThroughWrappers() throws {
    let raw = try wire(
        VStack { Text("a") }.tw("group/hero").frame(width: 50).padding(2).groupState(focus: true).identity("card"))
    #expect(raw.kind == "zstack")
    #expect(raw.props["group_state"] == nil && raw.props["identity"] == nil)
    let group = raw.children[0]
    #expect(group.props["classes"] == .string("group/hero"))
    #expect(group.props["group_state"] == .dictionary(["focus": .bool(true)]))
    #expect(group.props["identity"] == .string("card"))
}

@Test func identityWithoutGroupGoesOnTheOutermostNode() throws {
    #expect(try wire(Text("a").identity("row.1")).props["identity"] == .string("row.1"))
}

@Test func modifierOnSeveralViewsAppliesToEach() throws {
    let nodes = wireNodes(ForEach(["a", "b"]) { Text($0) }.opacity(0.5))
    #expect(nodes == [node("text", ["text": .string("a"), "opacity": .double(0.5)]), node("text", ["text": .string("b"), "opacity": .double(0.5)])])
}
