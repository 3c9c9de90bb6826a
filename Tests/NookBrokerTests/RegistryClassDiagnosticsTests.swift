import Testing
import NookBroker
import NookCore

/// A module hears about class problems in its views when it publishes them (SPEC rules 15, 23,
/// 24; seed 001: an unscoped shared class draws normally and logs `missing-group`), whether or
/// not a renderer shows the view: the same diagnostics plans carry, sent to the module.
@Suite struct RegistryClassDiagnosticsTests {
    let owner = ":1.10"

    static func shape(_ classes: String) -> RawNode { RawNode(kind: "shape", props: ["classes": .string(classes)]) }

    static func spec(expanded: RawNode) -> [String: PropValue] {
        Fixtures.spec(extra: ["expanded": .node(expanded)])
    }

    /// The diagnostics the registry sends to the module's connection among `actions`.
    static func sent(_ actions: [RegistryAction]) -> [Diagnostic] {
        actions.flatMap { action -> [Diagnostic] in
            if case .diagnostics(_, _, let diagnostics) = action { return diagnostics }
            return []
        }
    }

    @Test func rule15_23_missingGroupReachesTheModuleWhenItPublishes() throws {
        var registry = Registry()
        _ = try registry.register(module: "cards", info: [:], caller: owner, now: .zero)
        let view = RawNode(kind: "vstack", props: ["classes": .string("group/hero")], children: [
            Self.shape("shared-[cover]/card size-10"),
            Self.shape("group-hover/nope:opacity-10 group-hover/hero:opacity-50"),
        ])
        let started = Self.sent(try registry.startActivity("deck", spec: Self.spec(expanded: view), caller: owner, now: .zero))
        #expect(started.map(\.code) == [.missingGroup, .missingGroup])
        #expect(started.map(\.path) == ["expanded/0.classes", "expanded/1.classes"])
        #expect(started.allSatisfy { $0.module == "cards" && $0.message.contains("activity \"deck\"") })
        #expect(started.first?.id == "cover")

        // Fixed in an update: nothing more to say.
        let fixed = RawNode(kind: "vstack", props: ["classes": .string("group/hero")], children: [Self.shape("shared-[cover] size-10")])
        #expect(Self.sent(try registry.updateActivity("deck", changes: ["expanded": .node(fixed)], caller: owner, now: .zero)).isEmpty)

        // Module-level content is checked the same way.
        let home = try registry.setContent(slot: "home", view: Self.shape("shared-[x] animate-[oops]"), caller: owner, now: .zero)
        #expect(Self.sent(home).map(\.code) == [.unknownClass, .missingGroup])
    }

    @Test func rule24_classDiagnosticsReadTheThemesNamedRules() throws {
        var registry = Registry()
        registry.namedRules = ["card": "shared-[cover] w-20"]
        _ = try registry.register(module: "cards", info: [:], caller: owner, now: .zero)
        let outside = Self.sent(try registry.startActivity("deck", spec: Self.spec(expanded: Self.shape("card")), caller: owner, now: .zero))
        #expect(outside.map(\.code) == [.missingGroup])
        #expect(outside.first?.id == "cover")
    }
}
