import Testing
@testable import NookCore

private typealias F = PlannerFixture
private typealias Card = PlannerContentTests

/// The theme's class-DSL rules as plans use them: `rules.animations.<name>` as `animate-<name>`,
/// `rules.view` as the default of scopes that name no preset, `rules.named` expanding into
/// animation and group classes; all set through `SetTokens` (`Theme.applying`) and validated
/// with the rest of the theme.
@Suite struct ThemeRulesPlanTests {
    static func theme(_ overrides: [String: PropValue]) throws -> PlannerSettings {
        F.settings(theme: try Theme.builtIn.applying(overrides))
    }

    @Test func customAnimationFromSetTokensIsUsableAsAnimateName() throws {
        let settings = try Self.theme(["rules.animations.wobble": .dictionary(["response": .double(0.6), "damping_fraction": .double(0.5)])])
        let plan = Card.update(Card.heroCard(expanded: false, classes: "group/hero animate-wobble"),
                               Card.heroCard(expanded: true, classes: "group/hero animate-wobble"), settings: settings)
        let cover = try #require(plan.elements.first)
        #expect(cover.curve.kind == .spring(try Spring(response: 0.6, dampingFraction: 0.5)))
        #expect(cover.curve.source == "animate-wobble -> rules.animations.wobble")
        #expect(plan.layout.allSatisfy { $0.curve.source == "animate-wobble -> rules.animations.wobble" })
        #expect(plan.diagnostics(.unknownAnimation).isEmpty)
        // Without the token the same class falls back to rules.view.preset, and the plan says why.
        let unknown = Card.update(Card.heroCard(expanded: false, classes: "group/hero animate-wobble"),
                                  Card.heroCard(expanded: true, classes: "group/hero animate-wobble"))
        #expect(unknown.diagnostics(.unknownAnimation).contains { $0.id == "wobble" && $0.path == "expanded.classes" })
        #expect(unknown.elements.first?.curve.source.hasPrefix("animate-wobble (unknown) -> rules.view.preset") == true)
    }

    /// Contract 1.1 "Module rules": a module's `rules.animations` and `rules.view` apply to its
    /// own views (`Card.update` publishes as module `demo`), before the theme's of the same name.
    @Test func aModulesOwnAnimationsAndViewPresetApplyToItsViewsOnly() throws {
        let wobble = try Spring(response: 0.6, dampingFraction: 0.5)
        var settings = F.settings()
        settings.moduleThemes = ["demo": try Theme.builtIn.applying([
            "rules.animations.wobble": .dictionary(["response": .double(0.6), "damping_fraction": .double(0.5)]),
            "rules.animations.smooth": .dictionary(["response": .double(0.6), "damping_fraction": .double(0.5)]),
            "rules.view.preset": .string("{rules.animations.wobble}"),
            "rules.view.withoutPreset": .string("preset"),
        ])]
        func cover(_ classes: String, _ settings: PlannerSettings) throws -> Curve {
            try #require(Card.update(Card.heroCard(expanded: false, classes: classes), Card.heroCard(expanded: true, classes: classes),
                                     settings: settings).elements.first).curve
        }
        #expect(try cover("group/hero animate-wobble", settings).kind == .spring(wobble))
        // The module's own `smooth` comes before the theme's.
        #expect(try cover("group/hero animate-smooth", settings).kind == .spring(wobble))
        // Its `rules.view.preset` is the default of its scopes that name no preset.
        #expect(try cover("group/hero", settings).kind == .spring(wobble))
        // Another module (here: no module rules for `demo`) never meets them.
        var others = settings
        others.moduleThemes = ["clock": settings.moduleThemes["demo"]!]
        #expect(try cover("group/hero animate-smooth", others).kind != .spring(wobble))
        // Without them a scope naming no animation keeps the caller's transaction: none.
        #expect(Card.update(Card.heroCard(expanded: false, classes: "group/hero"), Card.heroCard(expanded: true, classes: "group/hero"),
                            settings: others).elements.isEmpty)
        #expect(try cover("group/hero animate-wobble", others).source.contains("(unknown)"))
    }

    @Test func rulesViewPresetIsTheDefaultOfScopesThatNameNone() throws {
        let settings = try Self.theme(["rules.view.preset": .string("{rules.animations.bouncy}")])
        let plan = Card.update(Card.heroCard(expanded: false, classes: "group/hero duration-250"),
                               Card.heroCard(expanded: true, classes: "group/hero duration-250"), settings: settings)
        let cover = try #require(plan.elements.first)
        #expect(cover.curve.kind == .spring(try Spring(response: 0.25, dampingFraction: 0.7)))
        #expect(cover.curve.source == "rules.view.preset -> rules.animations.bouncy, duration-250")
    }

    /// Issue 44, part 8 (seed 001: "Without a preset, it preserves the caller's transaction"):
    /// a changed scope naming no animation class animates only on the caller's animation, or
    /// on `rules.view.preset` when the theme chooses that with `rules.view.withoutPreset`.
    @Test func rule17_aScopeNamingNoAnimationKeepsTheCallersTransaction() throws {
        let (small, large) = (Card.heroCard(expanded: false, classes: "group/hero"), Card.heroCard(expanded: true, classes: "group/hero"))
        // No animation class, no caller animation: the new geometry applies at once.
        let still = Card.update(small, large)
        #expect(still.elements.isEmpty && still.layout.isEmpty, "\(still.elements) \(still.layout)")
        // The caller's animation: the scope runs on it.
        let called = Card.update(small, large, callerAnimation: "bouncy")
        #expect(try #require(called.elements.first).curve.source.hasPrefix("animation bouncy"))
        // A theme that makes its default preset the choice: the scope runs on it.
        let chosen = Card.update(small, large, settings: try Self.theme(["rules.view.withoutPreset": .string("preset")]))
        #expect(try #require(chosen.elements.first).curve.source.hasPrefix("rules.view.preset"))
        // A timing class alone names an animation: rules.view.preset with that timing.
        let timed = Card.update(Card.heroCard(expanded: false, classes: "group/hero duration-250"),
                                Card.heroCard(expanded: true, classes: "group/hero duration-250"))
        #expect(try #require(timed.elements.first).curve.source.hasSuffix("duration-250"))
        // Any other choice is refused with the path named.
        #expect(throws: ThemeError.self) { try Theme.builtIn.applying(["rules.view.withoutPreset": .string("sometimes")]) }
    }

    @Test func namedRuleExpandsIntoGroupAnimationAndLayoutClasses() throws {
        // `hero-scope` stands for the seed's scope classes; `cover-small` / `cover-large` for the sizes.
        let settings = try Self.theme([
            "rules.named.hero-scope": .string("group/hero animate-smooth duration-400"),
            "rules.named.cover-small": .string("shared-[cover] w-20 h-20"),
            "rules.named.cover-large": .string("shared-[cover] w-80 h-50"),
        ])
        func card(_ expanded: Bool) -> ViewNode {
            F.vstack([
                F.node(.zstack, [F.node(.shape) { $0.classes = expanded ? "cover-large" : "cover-small" }]),
                F.text("Toggle"),
            ]) { $0.classes = "hero-scope"; $0.animationValue = String(expanded) }
        }
        let plan = Card.update(card(false), card(true), settings: settings)
        let written = Card.update(Card.heroCard(expanded: false), Card.heroCard(expanded: true))
        // The same motion as the card written out in full.
        #expect(plan.elements.map(\.key) == written.elements.map(\.key))
        #expect(plan.elements.map(\.fromRect) == written.elements.map(\.fromRect))
        #expect(plan.elements.map(\.toRect) == written.elements.map(\.toRect))
        #expect(plan.elements.first?.curve.source == "animate-smooth -> rules.animations.smooth, duration-400")
        #expect(plan.layout.map(\.path) == written.layout.map(\.path))
    }

    @Test func setTokensRefusesBadRulesNamingTheirPath() {
        let cases: [(String, [String: PropValue], String, ThemeIssue.Code)] = [
            ("named rule cycle", ["rules.named.card": .string("panel p-2"), "rules.named.panel": .string("x card")],
             "rules.named.card", .namedRuleCycle),
            ("self-expanding rule", ["rules.named.loop": .string("loop")], "rules.named.loop", .namedRuleCycle),
            ("preset that is no curve", ["rules.animations.slow": .string("900ms")], "rules.animations.slow", .typeMismatch),
            ("default preset that is no curve", ["rules.view.preset": .string("300ms")], "rules.view.preset", .typeMismatch),
            ("default duration that is no duration", ["rules.view.duration": .dictionary(["response": .double(1), "damping_fraction": .double(1)])],
             "rules.view.duration", .typeMismatch),
            ("named rule that is no class string", ["rules.named.card": .double(4)], "rules.named.card", .typeMismatch),
        ]
        var failures: [String] = []
        for (name, overrides, path, code) in cases {
            do {
                _ = try Theme.builtIn.applying(overrides)
                failures.append("\(name): accepted")
            } catch {
                if !error.issues.contains(where: { $0.path == path && $0.code == code }) { failures.append("\(name): \(error.issues)") }
            }
        }
        #expect(failures.isEmpty, "\(failures)")
    }
}
