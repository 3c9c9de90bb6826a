import Testing
@testable import NookCore

private typealias F = PlannerFixture

/// SPEC rule 24: a class naming a `rules.named` entry stands for that entry's classes, for
/// layout as much as for namespaces and animation.
@Suite struct NamedRuleLayoutTests {
    static let rules = ["card": "w-20 h-10 p-2 bg-indigo-500", "tile": "card h-[30] hover:w-40", "row": "gap-[3]"]

    @Test func rule24_namedRuleLayoutUtilitiesSizeTheNode() throws {
        let card = F.node(.shape) { $0.classes = "card" }
        let result = LayoutEngine.layout(card, rootPath: "expanded", proposal: ProposedSize(width: 400, height: 400), namedRules: Self.rules)
        let rect = try #require(result.rect(at: "expanded"))
        #expect((rect.width, rect.height) == (80, 40))
        // Without the rules the class means nothing to layout: the shape takes the offer.
        let plain = try #require(LayoutEngine.layout(card, rootPath: "expanded", proposal: ProposedSize(width: 400, height: 400)).rect(at: "expanded"))
        #expect((plain.width, plain.height) == (400, 400))
    }

    @Test func rule24_nestedRulesExpandInPlaceAndLaterClassesWin() throws {
        // `tile` is `card` (w-20 h-10 p-2) then h-[30]; the variant behind `hover:` is the renderer's.
        let tile = F.vstack([F.node(.shape) { $0.width = 4; $0.height = 4 }]) { $0.classes = "tile" }
        let result = LayoutEngine.layout(tile, rootPath: "expanded", proposal: ProposedSize(width: 400, height: 400), namedRules: Self.rules)
        let outer = try #require(result.rect(at: "expanded"))
        let inner = try #require(result.rect(at: "expanded/0"))
        #expect((outer.width, outer.height) == (80, 30))
        // p-2 from `card` insets the content by 8 pt; the child is centred in what is left.
        #expect(inner.minX >= outer.minX + 8 && inner.minY >= outer.minY + 8)
        // A class written after the rule on the same node still wins over it.
        let wider = F.node(.shape) { $0.classes = "card w-30" }
        let rect = try #require(LayoutEngine.layout(wider, rootPath: "x", proposal: ProposedSize(width: 400, height: 400), namedRules: Self.rules).rect(at: "x"))
        #expect(rect.width == 120)
        // An explicit prop wins over a rule as over any class.
        let fixed = F.node(.shape) { $0.classes = "card"; $0.width = 10 }
        #expect(LayoutEngine.layout(fixed, rootPath: "x", proposal: ProposedSize(width: 400, height: 400), namedRules: Self.rules).rect(at: "x")?.width == 10)
    }

    @Test func rule24_cyclicRulesStillLayOutTheFiniteRest() throws {
        // The theme refuses cycles; layout still terminates if handed one, like the parser.
        let rules = ["a": "b w-10", "b": "a h-5"]
        let node = F.node(.shape) { $0.classes = "a" }
        let rect = try #require(LayoutEngine.layout(node, rootPath: "x", proposal: ProposedSize(width: 400, height: 400), namedRules: rules).rect(at: "x"))
        #expect((rect.width, rect.height) == (40, 20))
    }

    @Test func rule24_themeNamedRulesReachTheScenesLayoutAndGaps() throws {
        var theme = Theme.builtIn
        theme = try theme.applying(["rules.named.card": .string("w-20 h-10"), "rules.named.row": .string("gap-[3]")])
        let settings = F.settings(theme: theme)
        let view = F.hstack([F.node(.shape) { $0.classes = "card" }, F.node(.shape) { $0.classes = "card" }]) { $0.classes = "row" }
        let scene = F.scene(.expanded, SceneContent(expanded: .activity(F.owned("demo/card", view))), settings)
        let slot = try #require(scene.slots.first)
        let first = try #require(slot.rect(at: "expanded/0"))
        let second = try #require(slot.rect(at: "expanded/1"))
        #expect((first.width, first.height) == (80, 40))
        #expect(abs(second.minX - first.maxX - 3) < 1e-9)
        // The plan's scene reports the laid-out rects renderers draw with.
        let node = try #require(scene.nodes.first { $0.path == "expanded/1" })
        #expect(node.rect == second)
    }
}
