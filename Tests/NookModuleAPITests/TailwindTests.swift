import Testing
@testable import NookCore
@testable import NookModuleAPI

// `.tw`, `.twAnimation` and typed utilities, checked against the class parser.

@Test func twSendsTheClassStringAsWritten() throws {
    let raw = try wire(Text("a").tw("group-hover/hero:opacity-70 text-sm"))
    #expect(raw.props["classes"] == .string("group-hover/hero:opacity-70 text-sm"))
    let list = ClassList(parsing: "group-hover/hero:opacity-70 text-sm")
    #expect(list.variants.first?.conditions == [VariantCondition(state: "hover", isGroup: true, groupName: "hero")])
}

@Test func twWithValueSendsAnimationValueFromTheValuesDescription() throws {
    #expect(try wire(VStack {}.tw("animate-smooth", value: true)).props["animation_value"] == .string("true"))
    #expect(try wire(VStack {}.tw("animate-smooth", value: 42)).props["animation_value"] == .string("42"))
    enum Phase: Hashable { case idle, playing }
    #expect(try wire(VStack {}.tw("", value: Phase.playing)).props == ["animation_value": .string("playing")])
}

@Test func longAnimationValuesAreHashedStably() {
    let long = String(repeating: "x", count: 300)
    let text = StableText.of(long)
    #expect(text.hasPrefix("h:") && text.utf8.count == 18)
    #expect(text == StableText.of(long))
    #expect(text != StableText.of(long + "y"))
    #expect(StableText.fnv1a("") == "cbf29ce484222325")
    #expect(StableText.fnv1a("a") == "af63dc4c8601ec8c")
}

@Test func twAnimationWithTypedUtilitiesWritesPresetDurationAndValue() throws {
    let raw = try wire(VStack {}.twAnimation(.animation(.smooth), .duration(0.4), value: true))
    #expect(raw.props == ["classes": .string("animate-smooth duration-400"), "animation_value": .string("true")])
    let list = ClassList(parsing: "animate-smooth duration-400")
    #expect(list.animation == AnimationClasses(preset: .smooth, duration: 0.4))
}

@Test func twAnimationDoesNotDecorateWithNonAnimationUtilities() throws {
    let raw = try wire(
        VStack {}.twAnimation(.animation(.bouncy), .padding(2), .width(20), .classes("bg-red-500"), .delay(0.05), value: 1))
    #expect(raw.props == ["classes": .string("animate-bouncy delay-50"), "animation_value": .string("1")])
    let fromString = try wire(VStack {}.twAnimation("animate-snappy p-2 duration-250 bg-red-500 w-20", value: "x"))
    #expect(fromString.props == ["classes": .string("animate-snappy duration-250"), "animation_value": .string("x")])
}

@Test func twAnimationWithoutValueScopesStyledValuesOnly() throws {
    #expect(try wire(VStack {}.twAnimation(.animation(.linear))).props == ["classes": .string("animate-linear")])
}

@Test func twAnimationKeepsAnimationOnlyClassStrings() throws {
    let raw = try wire(VStack {}.twAnimation(.classes("animate-wobble duration-[0.3s]"), value: 0))
    #expect(raw.props["classes"] == .string("animate-wobble duration-[0.3s]"))
    #expect(ClassList(parsing: "animate-wobble duration-[0.3s]").animation == AnimationClasses(preset: .custom("wobble"), duration: 0.3))
}

@Test func fractionalMillisecondsUseBracketedSeconds() {
    #expect(TWUtility.duration(0.0125).className == "duration-[0.0125s]")
    #expect(ClassList(parsing: TWUtility.duration(0.0125).className).animation.duration == 0.0125)
    #expect(TWUtility.delay(0).className == "delay-0")
    #expect(TWUtility.animation(.custom("wobble")).className == "animate-wobble")
}

@Test func twWithTypedUtilitiesWritesEachClass() throws {
    #expect(try wire(Text("a").tw(.padding(2), .width(20), .height(0.5), .classes("rounded-lg"))).props["classes"] == .string("p-2 w-20 h-0.5 rounded-lg"))
    #expect(ClassList(parsing: "p-2 w-20 h-0.5").layout == [.padding(.all, 8), .width(80), .height(2)])
}

@Test func namespaceNamedOrDerivedFromItsSourceLine() {
    #expect(Namespace("hero").name == "hero")
    let a = Namespace(), b = Namespace()
    let c = Namespace()
    #expect(a == b, "same line, same name")
    #expect(a != c)
    #expect(a.name.hasPrefix("ns.NookModuleAPITests_TailwindTests.swift."))
    #expect(Identifier.isValid(a.name))
    let long = Namespace.derivedName(fileID: String(repeating: "m", count: 200) + "/V.swift", line: 3)
    #expect(Identifier.isValid(long) && long.hasSuffix(".3"))
}
