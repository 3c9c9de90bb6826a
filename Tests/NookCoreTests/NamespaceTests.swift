import Testing
@testable import NookCore

private func stack(_ classes: String? = nil, group: String? = nil, identity: String? = nil, _ children: [ViewNode] = [])
    -> ViewNode
{
    var props = NodeProps()
    props.classes = classes
    props.group = group
    props.identity = identity
    return ViewNode(kind: .vstack, props: props, children: children)
}

private func leaf(_ classes: String? = nil, shared: SharedMark? = nil) -> ViewNode {
    var props = NodeProps()
    props.classes = classes
    props.shared = shared
    return ViewNode(kind: .shape, props: props)
}

private let music = SlotOwner(module: "music", activity: "song")

private func resolve(_ root: ViewNode, owner: SlotOwner = music) -> SlotNamespaces {
    SlotNamespaces(resolving: root, slot: "expanded", owner: owner)
}

private func keys(_ spaces: SlotNamespaces) -> [String: String] {
    Dictionary(uniqueKeysWithValues: spaces.elements.map { ($0.path, $0.key.key) })
}

@Test func sharedClassResolvesToNearestEnclosingGroup() {
    let tree = stack("group/hero", [stack("group", [leaf("shared-[cover]")]), leaf("shared-[cover]")])
    let spaces = resolve(tree)
    #expect(spaces.groups.map(\.path) == ["expanded", "expanded/0"])
    #expect(keys(spaces) == [
        "expanded/0/0": "music/song/expanded/group#1/cover",
        "expanded/1": "music/song/expanded/group#0/cover",
    ])
    #expect(spaces.elements.allSatisfy { $0.key.namespace == .group })
    #expect(spaces.elements.first?.groupPath == "expanded/0")
    #expect(spaces.diagnostics.isEmpty)
}

@Test func sharedClassNamedAncestorResolvesThroughNestedGroup() throws {
    let tree = stack("group/hero", [stack("group/row", [stack("group", [leaf("shared-[cover]/hero shared-size shared-follower")])])])
    let spaces = resolve(tree)
    let element = try #require(spaces.elements.first)
    #expect(element.key == SharedKey(.group, "music/song/expanded/group#0/cover"))
    #expect(element.groupPath == "expanded")
    #expect(element.properties == .size)
    #expect(element.role == .follower)
}

@Test func siblingGroupsWithSameNameAreSeparateNamespaces() {
    let tree = stack(nil, [stack("group/card", [leaf("shared-[cover]/card")]), stack("group/card", [leaf("shared-[cover]/card")])])
    let spaces = resolve(tree)
    let found = spaces.elements.map(\.key.key)
    #expect(found.count == 2)
    #expect(Set(found).count == 2)
    #expect(spaces.elements.map(\.groupPath) == ["expanded/0", "expanded/1"])
}

@Test func groupOnTheNodeItselfDoesNotEncloseIt() {
    let spaces = resolve(stack("group shared-[self]"))
    #expect(spaces.elements.isEmpty)
    #expect(spaces.diagnostics.map(\.code) == [.missingGroup])
}

@Test func sharedClassWithoutGroupYieldsMissingGroupAndNoElement() {
    let tree = stack("group/row", [leaf("shared-[cover]/hero"), leaf("shared-[title]", shared: SharedMark(id: "title"))])
    let spaces = resolve(stack(nil, [leaf("shared-[x]"), tree]))
    let missing = spaces.diagnostics.filter { $0.code == .missingGroup }
    #expect(missing.map(\.path) == ["expanded/0.classes", "expanded/1/0.classes"])
    #expect(missing.map(\.id) == ["x", "cover"])
    #expect(missing.allSatisfy { $0.severity == .warning && $0.module == "music" })
    #expect(missing[1].message.contains("\"hero\""))
    // The node that also has a nook mark keeps it; only the group class with a group resolved.
    #expect(spaces.elements.map(\.key) == [
        SharedKey(.nook, "music/title"), SharedKey(.group, "music/song/expanded/group#0/title"),
    ])
}

@Test func groupIdentityIsOrdinalInPreorderOrExplicitIdentity() {
    let before = stack("group", [stack("group/a", [leaf("shared-[x]")]), stack("group/b", identity: "bee", [leaf("shared-[y]")])])
    let spaces = resolve(before)
    #expect(spaces.groups.map(\.identity) == [.ordinal(0), .ordinal(1), .explicit("bee")])
    #expect(keys(spaces) == [
        "expanded/0/0": "music/song/expanded/group#1/x",
        "expanded/1/0": "music/song/expanded/group:bee/y",
    ])
    // An update that inserts a group before `b` shifts ordinals but not the explicit identity.
    let after = stack("group", [stack("group/new"), stack("group/a", [leaf("shared-[x]")]), stack("group/b", identity: "bee", [leaf("shared-[y]")])])
    let later = keys(resolve(after))
    #expect(later["expanded/2/0"] == "music/song/expanded/group:bee/y")
    #expect(later["expanded/1/0"] == "music/song/expanded/group#2/x")
}

@Test func duplicateExplicitIdentityFallsBackToOrdinalWithWarning() {
    let tree = stack(nil, [stack("group", identity: "card"), stack("group", identity: "card")])
    let spaces = resolve(tree)
    #expect(spaces.groups.map(\.identity) == [.explicit("card"), .ordinal(1)])
    #expect(spaces.diagnostics.map(\.code) == [.duplicateGroupIdentity])
}

@Test func groupPropDeclaresGroupLikeTheClass() {
    let tree = stack(group: "hero", [stack(group: "", [leaf("shared-[a]/hero"), leaf("shared-[b]")])])
    let spaces = resolve(tree)
    #expect(spaces.groups.map(\.name) == ["hero", nil])
    #expect(spaces.elements.map(\.groupPath) == ["expanded", "expanded/0"])
}

@Test func nookAndCallerNamespacesComeFromSharedProp() {
    let tree = stack(nil, [
        leaf(shared: SharedMark(id: "cover", style: .scale)),
        leaf(shared: SharedMark(id: "title", namespace: "hero", properties: .position, anchor: .leading, isSource: false)),
    ])
    let spaces = resolve(tree, owner: SlotOwner(module: "music"))
    #expect(spaces.elements == [
        SharedElement(key: SharedKey(.nook, "music/cover"), id: "cover", path: "expanded/0", style: .scale),
        SharedElement(
            key: SharedKey(.custom, "music/expanded/ns:hero/title"), id: "title", path: "expanded/1", role: .follower,
            properties: .position, anchor: .leading),
    ])
}

@Test func rule23_groupVariantsResolveToTheirGroupAndUnresolvableOnesGetMissingGroup() throws {
    let tree = stack("group/hero", [
        stack("group", [leaf("active:group-hover/hero:opacity-50 group-focus:ring-2 group-hover/nope:opacity-10 hover:scale-110")])
    ])
    let spaces = resolve(tree)
    let variants = try #require(spaces.variants["expanded/0/0"])
    #expect(variants == [
        ResolvedVariant(
            conditions: [ResolvedCondition(state: "active"), ResolvedCondition(state: "hover", groupPath: "expanded")],
            utility: "opacity-50", token: "active:group-hover/hero:opacity-50"),
        ResolvedVariant(conditions: [ResolvedCondition(state: "focus", groupPath: "expanded/0")], utility: "ring-2", token: "group-focus:ring-2"),
        ResolvedVariant(conditions: [ResolvedCondition(state: "hover")], utility: "scale-110", token: "hover:scale-110"),
    ])
    // `ring-2` is no class renderers draw (issue 45): it is kept for renderers and named.
    #expect(spaces.diagnostics.map(\.code) == [.unknownClass, .missingGroup])
    #expect(spaces.diagnostics.first?.id == "ring-2")
}

@Test func classDiagnosticsCarryModuleAndNodePath() {
    let spaces = resolve(stack(nil, [leaf("shared-[co$ver]")]))
    #expect(spaces.diagnostics.map(\.code) == [.invalidId])
    #expect(spaces.diagnostics.first?.path == "expanded/0.classes")
    #expect(spaces.diagnostics.first?.module == "music")
    #expect(spaces.classes["expanded/0"] != nil)
}

// MARK: Rule 8

@Test func suffixingAddsPlainKeyOnlyWhenUnique() {
    let alone = ModuleMarks(module: "timers", activities: ["a1": ["timer", "label"]])
    #expect(alone.answerKeys(activity: "a1", id: "timer").keys == ["timers/timer.a1", "timers/timer"])
    #expect(alone.answerKeys(activity: "a1", id: "timer").diagnostic == nil)
    #expect(alone.suffixingDiagnostics.isEmpty)

    let two = ModuleMarks(module: "timers", activities: ["a1": ["timer", "label"], "a2": ["timer"]])
    let first = two.answerKeys(activity: "a1", id: "timer")
    #expect(first.keys == ["timers/timer.a1"])
    #expect(first.canonical == "timers/timer.a1")
    #expect(first.diagnostic?.code == .idSuffixed)
    #expect(first.diagnostic?.severity == .info)
    #expect(first.diagnostic?.id == "timer")
    // `label` is still unique to a1.
    #expect(two.answerKeys(activity: "a1", id: "label").keys == ["timers/label.a1", "timers/label"])
    #expect(two.suffixingDiagnostics.map { $0.message.contains("in a1") || $0.message.contains("in a2") } == [true, true])
}

@Test func moduleLevelSuffixedIdMatchesActivityWhetherItWroteSuffixOrNot() {
    let marks = ModuleMarks(module: "timers", activities: ["a1": ["timer"], "a2": ["timer.a2"]])
    let homeA1 = marks.answerKeys(moduleLevelId: "timer.a1")
    let homeA2 = marks.answerKeys(moduleLevelId: "timer.a2")
    let pillA1 = marks.answerKeys(activity: "a1", id: "timer")
    let pillA2 = marks.answerKeys(activity: "a2", id: "timer.a2")
    #expect(pillA2.keys == ["timers/timer.a2"])  // never suffixed twice
    #expect(homeA1.meets(pillA1))
    #expect(homeA2.meets(pillA2))
    #expect(!homeA1.meets(pillA2))
    #expect(!homeA2.meets(pillA1))
    // A plain home mark meets no activity while both mark the same id...
    let plainHome = marks.answerKeys(moduleLevelId: "timer")
    #expect(!plainHome.meets(pillA1) && !plainHome.meets(pillA2))
    // ...and meets the one that is left once the other ends.
    let one = ModuleMarks(module: "timers", activities: ["a1": ["timer"]])
    #expect(plainHome.meets(one.answerKeys(activity: "a1", id: "timer")))
}

@Test func variantWireFormNamesStateChainAndGroupPath() throws {
    let tree = stack("group/hero", [leaf("active:group-hover/hero:opacity-50 hover:scale-110")])
    let variants = try #require(resolve(tree).variants["expanded/0"])
    let wire = variants[0].wireDictionary
    #expect(wire["state"] == .string("active:group-hover"))
    #expect(wire["group_path"] == .string("expanded"))
    #expect(wire["classes"] == .string("opacity-50"))
    #expect(variants[1].wireDictionary["group_path"] == .string(""))
}

@Test func nookIdsFeedModuleMarksForSuffixing() {
    let pill = resolve(stack(nil, [leaf(shared: SharedMark(id: "timer")), leaf(shared: SharedMark(id: "t", namespace: "ns")), leaf("group shared-[x]")]))
    #expect(pill.nookIds == ["timer"])
}

@Test func namedReferencePicksNearestAncestorWithThatName() {
    let tree = stack("group/hero", [stack("group/hero", [stack("group/row", [leaf("shared-[cover]/hero group-hover/hero:opacity-50")])])])
    let spaces = resolve(tree)
    #expect(spaces.elements.map(\.groupPath) == ["expanded/0"])
    #expect(spaces.variants["expanded/0/0/0"]?.first?.conditions.first?.groupPath == "expanded/0")
}
