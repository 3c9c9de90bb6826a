import NookCore
import NookTestSupport
import Testing

@testable import NookBroker

/// `Registry.validate` skips `SlotNamespaces` and `ModuleRules.unresolvedScopeNames` for a
/// view with no `classes` and no `group` prop, on the grounds that neither can find a problem
/// anywhere else. Random trees with every other prop (shared marks nook and custom, repeated
/// ids and identities, animation values, nesting) must give both nothing.
@Suite struct NamespaceDiagnosticsShortcutTests {
    @Test func viewsWithoutClassesOrGroupsHaveNoNamespaceDiagnostics() throws {
        let seed = SeededGenerator.runSeed(pinned: 0x5EED_0018)
        var rng = SeededGenerator(seed: seed)
        let owner = SlotOwner(module: "music", activity: "song")
        let themeRules = ["card": "p-2", "pulse": "animate-pulse"]
        for round in 0..<3_000 {
            let raw = Self.tree(&rng, depth: 1)
            let view = try ViewValidator().validate(raw, slot: "expanded")
            #expect(!view.root.carriesClassesOrGroups)
            let namespaces = SlotNamespaces(resolving: view.root, slot: "expanded", owner: owner, namedRules: themeRules)
            #expect(namespaces.diagnostics.isEmpty, "\(SeededGenerator.replay(seed)) round \(round)")
            #expect(ModuleRules.unresolvedScopeNames(in: view.root, slot: "expanded", themeRules: themeRules).isEmpty)
        }
    }

    /// The check sees what it is meant to: a class or a group anywhere counts, and such
    /// views do get these diagnostics.
    @Test func aClassOrAGroupAnywhereCounts() throws {
        let owner = SlotOwner(module: "music", activity: "song")
        let lonely = RawNode(kind: "vstack", children: [RawNode(kind: "text", props: ["text": .string("a"), "classes": .string("shared-[x]")])])
        let view = try ViewValidator().validate(lonely, slot: "expanded")
        #expect(view.root.carriesClassesOrGroups)
        #expect(!SlotNamespaces(resolving: view.root, slot: "expanded", owner: owner).diagnostics.isEmpty)

        let twice = RawNode(kind: "vstack", children: [
            RawNode(kind: "vstack", props: ["group": .string("card"), "identity": .string("a")]),
            RawNode(kind: "vstack", props: ["group": .string("card"), "identity": .string("a")]),
        ])
        let groups = try ViewValidator().validate(twice, slot: "expanded")
        #expect(groups.root.carriesClassesOrGroups)
        #expect(!SlotNamespaces(resolving: groups.root, slot: "expanded", owner: owner).diagnostics.isEmpty)
    }

    static func tree(_ rng: inout SeededGenerator, depth: Int) -> RawNode {
        let kinds = ["vstack", "hstack", "zstack", "text", "image", "shape", "spacer", "view", "progress"]
        let kind = depth < 4 && Bool.random(using: &rng) ? ["vstack", "hstack", "zstack", "view"].randomElement(using: &rng)! : kinds.randomElement(using: &rng)!
        var props: [String: PropValue] = [:]
        let ids = ["cover", "title", "cover.song", "x"]
        if Int.random(in: 0..<3, using: &rng) == 0 {
            var shared: [String: PropValue] = ["id": .string(ids.randomElement(using: &rng)!)]
            if Bool.random(using: &rng) { shared["namespace"] = .string(["", "hero", "card"].randomElement(using: &rng)!) }
            if Bool.random(using: &rng) { shared["is_source"] = .bool(Bool.random(using: &rng)) }
            props["shared"] = .dictionary(shared)
        }
        if Int.random(in: 0..<4, using: &rng) == 0 { props["identity"] = .string(["a", "b"].randomElement(using: &rng)!) }
        if Int.random(in: 0..<4, using: &rng) == 0 { props["animation_value"] = .string("1") }
        if Int.random(in: 0..<4, using: &rng) == 0 { props["group_state"] = .dictionary(["focus": .bool(true)]) }
        if Int.random(in: 0..<4, using: &rng) == 0 { props["width"] = .double(20) }
        if kind == "text" { props["text"] = .string("hi") }
        var children: [RawNode] = []
        if ["vstack", "hstack", "zstack", "view"].contains(kind), depth < 4 {
            for _ in 0..<Int.random(in: 0...3, using: &rng) { children.append(tree(&rng, depth: depth + 1)) }
        }
        return RawNode(kind: kind, props: props, children: children)
    }
}
