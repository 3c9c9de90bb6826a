import Testing
@testable import NookCore

@Test func heroCardClassesSplitIntoGroupAnimationLayoutAndPassthrough() {
    let list = ClassList(parsing: "group/hero  animate-smooth\tduration-400 delay-50 p-2 w-[37] opacity-70 bg-indigo-500")
    #expect(list.group == GroupDeclaration(name: "hero"))
    #expect(list.animation == AnimationClasses(preset: .smooth, duration: 0.4, delay: 0.05))
    #expect(list.layout == [.padding(.all, 8), .width(37)])
    #expect(list.passthrough == ["opacity-70", "bg-indigo-500"])
    #expect(list.diagnostics.isEmpty)
    #expect(list.shared == nil)
}

@Test func sharedClassesCarryIdGroupNamePropertiesAndRole() {
    let plain = ClassList(parsing: "shared-[cover] w-20 h-20")
    #expect(plain.shared == SharedClass(id: "cover"))
    #expect(plain.matchedProperties == .frame)
    #expect(plain.isSource)
    let named = ClassList(parsing: "shared-[cover.v2]/hero shared-position shared-follower")
    #expect(named.shared == SharedClass(id: "cover.v2", groupName: "hero"))
    #expect(named.matchedProperties == .position)
    #expect(named.sharedRole == .follower)
    #expect(!named.isSource)
}

@Test func anonymousGroupAndCustomPresetAreRecognised() {
    let list = ClassList(parsing: "group animate-gentle duration-[1.5s] delay-[20ms]")
    #expect(list.group == GroupDeclaration(name: nil))
    #expect(list.animation.preset == .custom("gentle"))
    #expect(list.animation.preset?.tokenPath == "rules.animations.gentle")
    #expect(list.animation.duration == 1.5)
    #expect(list.animation.delay == 0.02)
    for name in ["smooth", "snappy", "bouncy", "linear"] {
        #expect(ClassList(parsing: "animate-\(name)").animation.preset == AnimationPreset(name: name))
        #expect(AnimationPreset(name: name).name == name)
    }
}

@Test func variantChainsKeepStructuredConditionsAndSkipLayout() {
    let list = ClassList(parsing: "group-hover/hero:opacity-70 active:group-hover/hero:opacity-50 hover:w-20 group-focus:ring-2")
    #expect(list.layout.isEmpty)
    #expect(list.variants.count == 4)
    #expect(list.variants[0] == VariantClass(
        conditions: [VariantCondition(state: "hover", isGroup: true, groupName: "hero")],
        utility: "opacity-70", token: "group-hover/hero:opacity-70"))
    #expect(list.variants[1].conditions == [
        VariantCondition(state: "active"), VariantCondition(state: "hover", isGroup: true, groupName: "hero"),
    ])
    #expect(list.variants[1].utility == "opacity-50")
    #expect(list.variants[2].utility == "w-20")
    #expect(!list.variants[2].needsGroup)
    #expect(list.variants[3].conditions == [VariantCondition(state: "focus", isGroup: true)])
    #expect(list.variants[1].conditions.map(\.spelling) == ["active", "group-hover/hero"])
}

@Test func colonsInsideBracketsDoNotSplitVariants() {
    let list = ClassList(parsing: "bg-[url(a:b)] hover:bg-[url(c:d)]")
    #expect(list.passthrough == ["bg-[url(a:b)]"])
    #expect(list.variants.map(\.utility) == ["bg-[url(c:d)]"])
}

/// Each row: a class string, the diagnostic code it must yield, and what must be left out.
@Test func malformedIdsAndNamesYieldDiagnosticsAndNeverThrow() {
    let cases: [(String, DiagnosticCode)] = [
        ("shared-[a", .invalidId),
        ("shared-[]", .invalidId),
        ("shared-[co$ver]", .invalidId),
        ("shared-[cover]x", .invalidId),
        ("shared-[cover]/", .invalidGroupName),
        ("shared-[cover]/he$ro", .invalidGroupName),
        ("group/", .invalidGroupName),
        ("group/he$ro", .invalidGroupName),
        ("group-hover/:opacity-50", .invalidGroupName),
        ("group-wiggle:opacity-50", .unknownVariant),
        ("duration-fast", .invalidTiming),
        ("delay-[-3ms]", .invalidTiming),
        ("duration-[nan s]", .invalidTiming),
        ("shared-everything", .unknownClass),
        ("animate-", .unknownClass),
        ("shared-[" + String(repeating: "a", count: 129) + "]", .invalidId),
    ]
    var failures: [String] = []
    for (classes, code) in cases {
        let list = ClassList(parsing: classes, path: "home/1.classes")
        if list.diagnostics.map(\.code) != [code] { failures.append("\(classes): \(list.diagnostics.map(\.code))") }
        if list.shared != nil || list.group != nil { failures.append("\(classes): declared something") }
        if list.diagnostics.contains(where: { $0.path != "home/1.classes" }) { failures.append("\(classes): path") }
    }
    #expect(failures.isEmpty, "\(failures)")
}

@Test func groupNameWithSpaceSplitsIntoGroupAndPassthrough() {
    // Whitespace separates classes, so `group/he ro` is the group `he` plus a class `ro`.
    let list = ClassList(parsing: "group/he ro")
    #expect(list.group == GroupDeclaration(name: "he"))
    #expect(list.passthrough == ["ro"])
}

@Test func laterClassOfSameFamilyWinsWithConflictDiagnostic() {
    let list = ClassList(parsing: "shared-size shared-position animate-smooth animate-bouncy shared-[a] shared-[b] duration-100 duration-200")
    #expect(list.sharedProperties == .position)
    #expect(list.animation.preset == .bouncy)
    #expect(list.shared?.id == "b")
    #expect(list.animation.duration == 0.2)
    #expect(list.diagnostics.map(\.code) == Array(repeating: .conflictingClasses, count: 4))
}

@Test func rule24_namedRulesExpandAndCyclesAreRefused() {
    let rules = ["card": "group/card panel", "panel": "p-4 rounded-xl", "loop": "a-1 loop2", "loop2": "loop"]
    let card = ClassList(parsing: "card shared-[x]", namedRules: rules)
    #expect(card.group == GroupDeclaration(name: "card"))
    #expect(card.layout == [.padding(.all, 16)])
    #expect(card.passthrough == ["rounded-xl"])
    #expect(card.shared == SharedClass(id: "x"))
    let loop = ClassList(parsing: "loop", namedRules: rules)
    #expect(loop.passthrough == ["a-1"])
    #expect(loop.diagnostics.map(\.code) == [.namedRuleCycle])
    #expect(loop.diagnostics.first?.message.contains("loop -> loop2 -> loop") == true)
}

@Test func namedRuleCycleCheckReportsTheClosingChain() {
    #expect(NamedRules.cycle(in: ["card": "panel p-2", "panel": "p-4"]) == nil)
    #expect(NamedRules.cycle(in: ["a": "b", "b": "c", "c": "a"]) == ["a", "b", "c", "a"])
    #expect(NamedRules.cycle(in: ["self": "self"]) == ["self", "self"])
}

@Test func durationTextReadsMillisecondsAndSecondsOnly() {
    #expect(DurationText.seconds("240ms") == 0.24)
    #expect(DurationText.seconds("1.5s") == 1.5)
    #expect(DurationText.seconds("0s") == 0)
    for bad in ["", "ms", "s", "240", "-1s", "1e3ms", "infs", "nans", "1.2.3s", "2 s"] {
        #expect(DurationText.seconds(bad) == nil, "\(bad)")
    }
}
