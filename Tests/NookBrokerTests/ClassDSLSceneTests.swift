import Foundation
import NookBus
import NookCore
import NookTestSupport
import Testing

/// The class DSL through the real nookd, as a renderer receives it (SPEC rules 15, 23, 24):
/// group variants resolved to the concrete group node, unresolvable ones drawn plainly with
/// `missing-group`, and theme rules set by `SetTokens` reaching layout and the scene.
@Suite struct ClassDSLSceneTests {
    typealias R = ControlRenderTests

    /// Two sibling `group/card` stacks inside a `group/hero`; classes per leaf as given.
    static func cards(first: String, second: String, loose: String) -> RawNode {
        R.node("vstack", ["classes": .string("group/hero")], [
            R.node("hstack", ["classes": .string("group/card")], [R.node("shape", ["classes": .string(first)])]),
            R.node("hstack", ["classes": .string("group/card")], [R.node("shape", ["classes": .string(second)])]),
            R.node("shape", ["classes": .string(loose)]),
        ])
    }

    static func spec(expanded: RawNode) -> [String: PropValue] {
        [
            "accessibility_label": .string("Cards"),
            "compact_leading": .node(R.node("image", ["symbol": .string("rectangle")])),
            "compact_trailing": .node(R.node("text", ["text": .string("2")])),
            "minimal": .node(R.node("image", ["symbol": .string("rectangle")])),
            "expanded": .node(expanded),
        ]
    }

    static func sceneNode(_ plan: Vardict, _ path: String) -> Vardict? {
        guard let scene = try? Vardict(plan["scene"] ?? .bool(false)), case .array(_, let nodes)? = scene["nodes"] else { return nil }
        return nodes.compactMap { try? Vardict($0) }.first { $0["path"] == .string(path) }
    }

    static func records(_ value: DBusValue?) -> [Vardict] {
        guard case .array(_, let items)? = value else { return [] }
        return items.compactMap { try? Vardict($0) }
    }

    @Test func rule23_groupVariantsReachTheRendererResolvedToTheirGroupNode() async throws {
        try await R.withMusic { bus, nookd, music in
            let view = Self.cards(
                first: "size-10 dark:group-hover/card:opacity-50 active:group-pressed/hero:scale-95",
                second: "size-10 group-disabled:opacity-30 group-focus/nope:opacity-10",
                loose: "size-10 shared-[loose]/card group-active/card:ring-2")
            try await music.start("cards", Self.spec(expanded: view))
            let renderer = try await R.Renderer.subscribe(bus)
            let serial = try await R.control(music, "Open", [WireCodec.vardict(["module": .string("music"), "activity": .string("cards")])])
            let plan = try #require(await renderer.plan(serial: serial), "no plan: \(nookd.log)")

            // Each chain points at its own concrete group: the card the leaf sits in (not its
            // sibling of the same name), or the named ancestor past it.
            let first = Self.records(Self.sceneNode(plan, "expanded/0/0")?["variants"])
            #expect(first.map { $0["state"] } == [.string("dark:group-hover"), .string("active:group-pressed")])
            #expect(first.map { $0["group_path"] } == [.string("expanded/0"), .string("expanded")])
            #expect(first.map { $0["classes"] } == [.string("opacity-50"), .string("scale-95")])
            let second = Self.records(Self.sceneNode(plan, "expanded/1/0")?["variants"])
            #expect(second.map { $0["group_path"] } == [.string("expanded/1")], "the unresolvable group-focus/nope is left out")
            #expect(second.first?["state"] == .string("group-disabled"))

            // Unresolvable: drawn plainly (laid out like any node, no variant) and explained.
            let loose = try #require(Self.sceneNode(plan, "expanded/2"))
            #expect(Self.records(loose["variants"]).isEmpty)
            guard case .structure(let rect)? = loose["rect"] else { Issue.record("no rect"); return }
            #expect(rect.count == 4 && rect[2] == .double(40))
            let missing = Self.records(plan["diagnostics"]).filter { $0["code"] == .string("missing-group") }
            let paths = Set(missing.compactMap { if case .string(let path)? = $0["path"] { path } else { nil } })
            #expect(paths == ["expanded/1/0.classes", "expanded/2.classes"], "\(missing)")
            #expect(missing.contains { $0["id"] == .string("loose") }, "\(missing)")
            // The module heard about them when it published, over its Diagnostics signal.
            #expect(await eventually { music.diagnosticCodes.filter { $0 == "missing-group" }.count == 3 }, "\(music.diagnosticCodes)")
            await renderer.client.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }

    @Test func rule24_namedRulesSetByTokensReachLayoutAndTheScene() async throws {
        try await R.withMusic { bus, nookd, music in
            let control = "org.nook.Nook1.Control"
            // A cycle is refused whole, naming the rule's path.
            let refused = await expectDBusError(.invalidTheme, containing: "rules.named.") {
                try await music.call(
                    "SetTokens", [WireCodec.vardict(["rules.named.tile": .string("chip"), "rules.named.chip": .string("tile p-1")])],
                    interface: control)
            }
            #expect(refused?.message.contains("tile -> chip -> tile") == true || refused?.message.contains("chip -> tile -> chip") == true,
                    "\(String(describing: refused))")
            try await music.call("SetTokens", [WireCodec.vardict(["rules.named.chip": .string("w-[50] h-[20] bg-indigo-500")])], interface: control)

            let view = Self.cards(first: "chip", second: "size-10", loose: "size-10")
            try await music.start("cards", Self.spec(expanded: view))
            let renderer = try await R.Renderer.subscribe(bus)
            let serial = try await R.control(music, "Open", [WireCodec.vardict(["module": .string("music"), "activity": .string("cards")])])
            let plan = try #require(await renderer.plan(serial: serial), "no plan: \(nookd.log)")
            let chip = try #require(Self.sceneNode(plan, "expanded/0/0"))
            guard case .structure(let rect)? = chip["rect"] else { Issue.record("no rect"); return }
            #expect(Array(rect[2...]) == [.double(50), .double(20)], "the rule's w-[50] h-[20] sized the node")
            #expect(chip["classes"] == .string("chip"))
            #expect(chip["expanded_classes"] == .string("w-[50] h-[20] bg-indigo-500"))
            await renderer.client.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }

    /// A theme change is a plan of its own (`theme_changed`, issue 39): `SetTokens` of a named
    /// rule the scene on screen uses sends every renderer a plan, nothing else asked for, whose
    /// scene is laid out again with the new rule (not the namespaces prepared under the old one),
    /// the presentation as it was and nothing animated.
    @Test func aThemeChangeSendsAPlanOfItsOwnThatRestylesTheSceneInPlace() async throws {
        try await R.withMusic { bus, nookd, music in
            let control = "org.nook.Nook1.Control"
            try await music.call("SetTokens", [WireCodec.vardict(["rules.named.chip": .string("w-[50] h-[20] bg-indigo-500")])], interface: control)
            try await music.start("cards", Self.spec(expanded: Self.cards(first: "chip", second: "size-10", loose: "size-10")))
            let renderer = try await R.Renderer.subscribe(bus)
            let opened = try await R.control(music, "Open", [WireCodec.vardict(["module": .string("music"), "activity": .string("cards")])])
            _ = try #require(await renderer.plan(serial: opened), "no plan: \(nookd.log)")

            try await music.call("SetTokens", [WireCodec.vardict(["rules.named.chip": .string("w-[80] h-[20] bg-red-500")])], interface: control)
            let plan = try #require(await renderer.plan { $0["cause"] == .string("theme_changed") }, "no theme_changed plan: \(nookd.log)")
            #expect(plan["from"] == .string("expanded") && plan["to"] == .string("expanded"))
            let chip = try #require(Self.sceneNode(plan, "expanded/0/0"), "\(plan)")
            guard case .structure(let rect)? = chip["rect"] else { Issue.record("no rect"); return }
            #expect(Array(rect[2...]) == [.double(80), .double(20)], "the new rule's w-[80] sized the node")
            #expect(chip["expanded_classes"] == .string("w-[80] h-[20] bg-red-500"))
            // Nothing animates: no shared element moves and the chrome takes its shape at once.
            if case .array(_, let elements)? = plan["elements"] { #expect(elements.isEmpty, "\(elements)") }
            if let chrome = try? Vardict(plan["chrome"] ?? .bool(false)), let curve = try? Vardict(chrome["curve"] ?? .bool(false)) {
                #expect(curve["type"] == .string("none"), "\(curve)")
            }
            await renderer.client.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }
}
