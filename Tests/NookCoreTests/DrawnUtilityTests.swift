import Testing
@testable import NookCore

/// Issue 45, part 5: a class the DSL cannot read earns `unknown-class` when the view is
/// published, with the nearest known class as a suggestion, unless the theme names it.
@Suite struct DrawnUtilityTests {
    static func leaf(_ classes: String, animationValue: Bool = false) -> ViewNode {
        var props = NodeProps()
        props.classes = classes
        if animationValue { props.animationValue = "on" }
        return ViewNode(kind: .text, props: props)
    }

    static func diagnostics(_ classes: String, theme: [String: String] = [:], animationValue: Bool = false) -> [Diagnostic] {
        let root = ViewNode(kind: .vstack, children: [leaf(classes, animationValue: animationValue)])
        return SlotNamespaces(resolving: root, slot: "expanded", owner: SlotOwner(module: "build", activity: "job"), namedRules: theme)
            .diagnostics.filter { $0.code == .unknownClass }
    }

    @Test(arguments: [
        "italic", "not-italic", "underline", "no-underline", "rounded", "rounded-xl", "rounded-[6]", "text-left", "text-center",
        "text-right", "opacity-50", "opacity-[0.35]", "scale-110", "bg-white/10", "bg-black", "bg-transparent", "text-sky-400",
        "bg-indigo-500/50", "text-blue", "bg-[#4B0082]", "bg-[#4B008280]", "text-white/[0.35]", "bg-red-950",
    ])
    func whatRenderersDrawIsKnown(utility: String) {
        #expect(DrawnUtility.isKnown(utility))
        #expect(Self.diagnostics(utility).isEmpty)
    }

    @Test(arguments: [
        "text-blu-400", "shadow-glow", "bg-red-1000", "bg-white/101", "opacity-", "opacity-x", "rounded-huge", "bg-[#12345]",
        "text-sky-400/[2]", "font-bold", "ring-2",
    ])
    func anythingElseIsNot(utility: String) {
        #expect(!DrawnUtility.isKnown(utility))
        let found = Self.diagnostics(utility)
        #expect(found.count == 1 && found.first?.id == utility && found.first?.severity == .warning, "\(found)")
        #expect(found.first?.path == "expanded/0.classes" && found.first?.module == "build")
    }

    @Test(arguments: [
        ("text-blu-400", "text-blue-400"), ("bg-whte/10", "bg-white/10"), ("opactiy-50", "opacity-50"), ("itallic", "italic"),
        ("rounded-xxl", "rounded-xl"), ("text-centre", "text-center"), ("gpa-2", "gap-2"), ("buton-primary", "button-primary"),
    ])
    func theNearestKnownClassIsSuggested(typed: String, nearest: String) {
        let theme = ["button-primary": "bg-indigo-500 rounded-full"]
        #expect(DrawnUtility.suggestion(for: typed, names: theme.keys) == nearest)
        let message = Self.diagnostics(typed, theme: theme).first?.message ?? ""
        #expect(message.hasSuffix("did you mean \"\(nearest)\"?"), "\(message)")
    }

    @Test func nothingIsSuggestedWhenNothingIsNear() {
        #expect(DrawnUtility.suggestion(for: "shadow-glow") == nil)
        #expect(DrawnUtility.suggestion(for: String(repeating: "x", count: 200)) == nil)
        #expect(!(Self.diagnostics("shadow-glow").first?.message.contains("did you mean") ?? true))
    }

    @Test func aClassTheThemeNamesIsKnownAndExpanded() {
        #expect(Self.diagnostics("button-primary").count == 1)
        #expect(Self.diagnostics("button-primary", theme: ["button-primary": "bg-indigo-500 rounded-full"]).isEmpty)
        // A rule holding a typo is found through the rule.
        #expect(Self.diagnostics("card", theme: ["card": "p-2 bg-whit/10"]).map(\.id) == ["bg-whit/10"])
    }

    @Test func variantsAreCheckedByTheirUtility() {
        #expect(Self.diagnostics("hover:opacity-70 group-hover:p-2 dark:bg-sky-400").isEmpty)
        #expect(Self.diagnostics("hover:opacty-70").map(\.id) == ["opacty-70"])
    }

    /// An animation scope's plain names are the scope check's (`ModuleRules`): said once.
    @Test func anAnimationScopesNamesAreLeftToTheScopeCheck() {
        #expect(Self.diagnostics("wobble", animationValue: true).isEmpty)
        #expect(Self.diagnostics("wobble").count == 1)
    }

    @Test func editDistanceStopsAtItsLimit() {
        #expect(DrawnUtility.editDistance(Array("kitten".utf8), Array("sitting".utf8), limit: 5) == 3)
        #expect(DrawnUtility.editDistance(Array("kitten".utf8), Array("sitting".utf8), limit: 1) == 2)
        #expect(DrawnUtility.editDistance(Array("gpa-2".utf8), Array("gap-2".utf8), limit: 3) == 1)
        #expect(DrawnUtility.editDistance([], Array("abc".utf8), limit: 3) == 3)
        #expect(DrawnUtility.editDistance(Array("abc".utf8), [], limit: 3) == 3)
    }
}
