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
            // The restored module waits for its owner for the grace: one no run outlasts (under
            // load the default 10 s went by first, and the module came back to a fresh entry
            // without its rules).
            nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory, grace: NookdProcess.graceNoRunOutlasts)
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

    /// A card whose scope reads `animate-<preset>` (none: the default preset); `size` moves the
    /// shape inside it, so changing it (with `value`) animates the scope.
    static func scopeSpec(preset: String?, size: Int, value: String) -> [String: PropValue] {
        let classes = "group/hero" + (preset.map { " animate-" + $0 } ?? "")
        return D.spec(expanded: R.node("vstack", ["classes": .string(classes), "animation_value": .string(value)], [
            R.node("shape", ["classes": .string("size-\(size)")]),
            R.node("text", ["text": .string("card")]),
        ]))
    }

    /// Every curve of a plan's layout changes, as (source, response) (response: 0 for a curve
    /// that is no spring).
    static func layoutCurves(_ plan: Vardict) -> [Curve] {
        D.records(plan["layout"]).compactMap { change in
            guard let curve = try? Vardict(change["curve"] ?? .bool(false)), case .string(let source)? = curve["source"] else { return nil }
            if case .double(let response)? = curve["response"] { return Curve(source: source, response: response) }
            return Curve(source: source, response: 0)
        }
    }

    static func serial(_ plan: Vardict) -> UInt64 {
        if case .uint64(let serial)? = plan["serial"] { serial } else { 0 }
    }

    struct Curve: CustomStringConvertible {
        let source: String
        let response: Double
        var description: String { "\(source) (\(response))" }
    }

    /// Contract 1.1 "Module rules": a module's `rules.animations.<name>` and `rules.view.preset`
    /// drive its own animation scopes, before the theme's of the same name; another module's
    /// scope naming the same preset never meets them. They hold after SIGKILL and a restart.
    @Test func aModulesAnimationsDriveItsOwnScopesOnlyAndSurviveARestart() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let rules: PropValue = .dictionary([
            "rules.animations.wobble": .dictionary(["response": .double(0.61), "damping_fraction": .double(0.5)]),
            "rules.animations.smooth": .dictionary(["response": .double(0.43), "damping_fraction": .double(0.9)]),
            "rules.view.preset": .string("{rules.animations.wobble}"),
            // Its preset is the default of its scopes that name none: a choice it makes.
            "rules.view.withoutPreset": .string("preset"),
        ])
        try await PrivateBus.with { bus in
            var nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let music = try await BrokerClient.connect(bus)
            try await music.register("music", info: ["rules": rules])
            let clock = try await BrokerClient.connect(bus)
            try await clock.register("clock")
            let renderer = try await R.Renderer.subscribe(bus)

            /// Opens onto `module/cards` published with `preset` (scope value "a"), then changes
            /// its size (value `next`): the layout curves of that change's plan.
            func curves(_ client: BrokerClient, _ module: String, preset: String?, next: String) async throws -> [Curve] {
                try await client.start("cards", Self.scopeSpec(preset: preset, size: 10, value: "a"))
                // The open's own plan first: an update in the same frame would share its plan.
                let opened = try await R.control(client, "Open", [WireCodec.vardict(["module": .string(module), "activity": .string("cards")])])
                #expect(await renderer.plan(serial: opened) != nil, "no plan for the open: \(nookd.log)")
                try await client.update("cards", Self.scopeSpec(preset: preset, size: 20, value: next))
                let plan = await renderer.plan { Self.serial($0) > opened && !Self.layoutCurves($0).isEmpty }
                try await client.end("cards")
                return plan.map(Self.layoutCurves) ?? []
            }
            let wobble = try await curves(music, "music", preset: "wobble", next: "b")
            #expect(!wobble.isEmpty && wobble.allSatisfy { $0.source == "animate-wobble -> rules.animations.wobble" && $0.response == 0.61 },
                    "\(wobble)\n\(nookd.log)")
            let smooth = try await curves(music, "music", preset: "smooth", next: "c")
            #expect(!smooth.isEmpty && smooth.allSatisfy { $0.response == 0.43 }, "the theme's smooth came first: \(smooth)")
            let theirs = try await curves(clock, "clock", preset: "wobble", next: "d")
            #expect(!theirs.isEmpty && theirs.allSatisfy { $0.source.contains("(unknown)") && $0.response != 0.61 }, "clock met music's wobble: \(theirs)")
            // Clock's scope naming no preset keeps the caller's transaction (none): music's
            // choice of a default does not reach it, and its size changes at once.
            try await clock.start("cards", Self.scopeSpec(preset: nil, size: 10, value: "a"))
            let clockOpened = try await R.control(clock, "Open", [WireCodec.vardict(["module": .string("clock"), "activity": .string("cards")])])
            #expect(await renderer.plan(serial: clockOpened) != nil, "no plan for the open: \(nookd.log)")
            try await clock.update("cards", Self.scopeSpec(preset: nil, size: 20, value: "e"))
            let plain = await renderer.plan { Self.serial($0) > clockOpened }
            #expect(plain.map(Self.layoutCurves)?.isEmpty == true, "clock met music's rules.view.preset: \(plain.map(Self.layoutCurves) ?? [])")
            try await clock.end("cards")
            let file = temp.stateDirectory.appendingPathComponent("state.json")
            #expect(await eventually { ((try? String(contentsOf: file, encoding: .utf8)) ?? "").contains("rules.animations.wobble") })
            await nookd.stop(SIGKILL)
            await music.close()
            await clock.close()
            await renderer.client.close()

            nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let again = try await BrokerClient.connect(bus)
            try await again.register("music")
            let watching = try await R.Renderer.subscribe(bus)
            try await again.start("cards", Self.scopeSpec(preset: nil, size: 10, value: "a"))
            let opened = try await R.control(again, "Open", [WireCodec.vardict(["module": .string("music"), "activity": .string("cards")])])
            #expect(await watching.plan(serial: opened) != nil, "no plan for the open: \(nookd.log)")
            try await again.update("cards", Self.scopeSpec(preset: nil, size: 20, value: "b"))
            let plan = await watching.plan { Self.serial($0) > opened && !Self.layoutCurves($0).isEmpty }
            let restored = plan.map(Self.layoutCurves) ?? []
            #expect(!restored.isEmpty && restored.allSatisfy { $0.source.hasPrefix("rules.view.preset") && $0.response == 0.61 },
                    "\(restored)\n\(nookd.log)")
            await watching.client.close()
            await again.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }
}
