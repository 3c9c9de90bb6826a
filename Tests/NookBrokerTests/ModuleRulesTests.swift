import Foundation
import NookBus
import NookCore
import NookTestSupport
import Testing

/// Contract 1.1 "Module rules" through the real nookd and real module connections: a module's
/// `rules.named` apply to its own views only, bad rules are `InvalidTheme` naming the path,
/// they survive SIGKILL and a restart, and an undefined name on an animation scope is heard.
@Suite struct ModuleRulesTests {
    typealias R = ControlRenderTests
    typealias D = ClassDSLSceneTests

    static let rules: PropValue = .dictionary(["rules.named.card": .string("size-10 opacity-50")])

    static func cardSpec() -> [String: PropValue] {
        D.spec(expanded: R.node("vstack", [:], [R.node("shape", ["classes": .string("card")])]))
    }

    /// Opens onto `module/activity` and returns the expanded shape's scene node.
    static func openedCard(_ client: BrokerClient, _ renderer: R.Renderer, module: String, nookd: NookdProcess) async throws -> Vardict {
        let serial = try await R.control(client, "Open", [WireCodec.vardict(["module": .string(module), "activity": .string("cards")])])
        let plan = try #require(await renderer.plan(serial: serial), "no plan: \(nookd.log)")
        return try #require(D.sceneNode(plan, "expanded/0"), "\(plan)")
    }

    @Test func aModulesNamedRuleAppliesToItsViewsOnly() async throws {
        try await PrivateBus.with { bus in
            let temp = try TemporaryDirectory()
            defer { temp.remove() }
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let music = try await BrokerClient.connect(bus)
            try await music.register("music", info: ["rules": Self.rules])
            let clock = try await BrokerClient.connect(bus)
            try await clock.register("clock")
            try await music.start("cards", Self.cardSpec())
            try await clock.start("cards", Self.cardSpec())
            let renderer = try await R.Renderer.subscribe(bus)

            let mine = try await Self.openedCard(music, renderer, module: "music", nookd: nookd)
            #expect(mine["classes"] == .string("size-10 opacity-50"), "\(mine)")
            guard case .structure(let rect)? = mine["rect"] else { Issue.record("no rect"); return }
            #expect(rect.count == 4 && rect[2] == .double(40), "the rule's size-10 lays the node out: \(rect)")

            let theirs = try await Self.openedCard(clock, renderer, module: "clock", nookd: nookd)
            #expect(theirs["classes"] == .string("card"), "another module saw music's rule: \(theirs)")
            guard case .structure(let other)? = theirs["rect"] else { Issue.record("no rect"); return }
            #expect(other.count == 4 && other[2] != .double(40))
            await renderer.client.close()
            await music.close()
            await clock.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }

    @Test func aBadRuleIsInvalidThemeNamingItsPath() async throws {
        try await PrivateBus.with { bus in
            let temp = try TemporaryDirectory()
            defer { temp.remove() }
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let music = try await BrokerClient.connect(bus)
            let bad: [(PropValue, String)] = [
                (.dictionary(["rules.named.card": .int(3)]), "rules.named.card"),
                (.dictionary(["geometry.pill.height": .string("40px")]), "geometry.pill.height"),
                (.dictionary(["rules.named.a": .string("b"), "rules.named.b": .string("a")]), "rules.named."),
                (.dictionary(["rules.animations.pulse": .string("soon")]), "rules.animations.pulse"),
            ]
            for (rules, path) in bad {
                do {
                    try await music.register("music", info: ["rules": rules])
                    Issue.record("\(rules) was accepted")
                } catch let error as DBusError {
                    #expect(error.name == "org.nook.Nook1.Error.InvalidTheme", "\(error)")
                    #expect(error.message.contains(path), "\(error)")
                }
            }
            // Nothing was registered by the refused calls; a good one still works.
            try await music.register("music", info: ["rules": Self.rules])
            await music.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }

    @Test func rulesSurviveSigkillAndARestart() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            var nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let music = try await BrokerClient.connect(bus)
            try await music.register("music", info: ["rules": Self.rules])
            let file = temp.stateDirectory.appendingPathComponent("state.json")
            #expect(await eventually { ((try? String(contentsOf: file, encoding: .utf8)) ?? "").contains("rules.named.card") })
            await nookd.stop(SIGKILL)
            await music.close()
            nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            // The module comes back without sending its rules again: they were restored.
            let again = try await BrokerClient.connect(bus)
            try await again.register("music")
            try await again.start("cards", Self.cardSpec())
            let renderer = try await R.Renderer.subscribe(bus)
            let card = try await Self.openedCard(again, renderer, module: "music", nookd: nookd)
            #expect(card["classes"] == .string("size-10 opacity-50"), "\(card)\n\(nookd.log)")
            await renderer.client.close()
            await again.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }

    @Test func anUndefinedNameOnAnAnimationScopeIsUnknownClass() async throws {
        try await R.withMusic { bus, nookd, music in
            let scope = R.node("vstack", ["classes": .string("my-rule animate-smooth"), "animation_value": .string("1")], [
                R.node("shape", ["classes": .string("size-10")])
            ])
            try await music.start("cards", D.spec(expanded: scope))
            #expect(await eventually { music.diagnosticCodes.contains("unknown-class") }, "\(music.diagnosticCodes)\n\(nookd.log)")
            await music.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }
}
