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

/// Renderers never see the theme's rules: the scene hands them each rule-naming class string
/// expanded (`expanded_classes`, an addition), with the rule's group variants resolved.
@Suite struct NamedRuleSceneTests {
    @Test func rule24_sceneCarriesExpandedClassesForNodesNamingARule() throws {
        let theme = try Theme.builtIn.applying([
            "rules.named.card": .string("w-20 bg-indigo-500 group-hover/hero:opacity-50"),
            "rules.named.accent": .string("card ring-2"),
        ])
        let settings = PlannerFixture.settings(theme: theme)
        let view = PlannerFixture.vstack([
            PlannerFixture.node(.shape) { $0.classes = "accent hover:scale-110" },
            PlannerFixture.node(.shape) { $0.classes = "w-10 bg-red-500" },
        ]) { $0.classes = "group/hero" }
        let plan = PlannerFixture.openSong(expanded: view, settings: settings)
        let named = try #require(plan.scene.nodes.first { $0.path == "expanded/0" })
        #expect(named.expandedClasses == "w-20 bg-indigo-500 group-hover/hero:opacity-50 ring-2 hover:scale-110")
        #expect(named.variants.map(\.utility) == ["opacity-50", "scale-110"])
        #expect(named.variants.first?.conditions.last?.groupPath == "expanded")
        let plain = try #require(plan.scene.nodes.first { $0.path == "expanded/1" })
        #expect(plain.expandedClasses == nil)

        guard case .dictionary(let scene)? = plan.wireDictionary()["scene"], case .array(let nodes)? = scene["nodes"] else {
            Issue.record("no scene"); return
        }
        let entries = nodes.compactMap { node -> [String: PropValue]? in
            if case .dictionary(let entry) = node { return entry }
            return nil
        }
        let namedEntry = try #require(entries.first { $0["path"] == .string("expanded/0") })
        #expect(namedEntry["classes"] == .string("accent hover:scale-110"))
        #expect(namedEntry["expanded_classes"] == .string("w-20 bg-indigo-500 group-hover/hero:opacity-50 ring-2 hover:scale-110"))
        #expect(entries.first { $0["path"] == .string("expanded/1") }?["expanded_classes"] == nil)
    }

    @Test func expansionDropsARuleMetAgainInsideItself() {
        #expect(NamedRules.expand("a x", rules: ["a": "b w-1", "b": "a h-1"]) == "h-1 w-1 x")
        #expect(NamedRules.expand("w-1 h-2", rules: ["a": "p-1"]) == nil)
        #expect(NamedRules.expand("a", rules: [:]) == nil)
    }
}
