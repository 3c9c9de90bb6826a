import NookCore
import Testing
@testable import NookModuleAPI

/// Issue 20 item 7: `.twAnimation` honours named rules, and a module passes its own rules at
/// registration (`Register` info `rules`).
@Suite struct ModuleRulesSDKTests {
    @Test func twAnimationKeepsANamedRuleAndDropsLayout() throws {
        let raw = try wire(Circle().twAnimation("my-rule p-2 bg-red-500 my-2 group/hero animate-smooth duration-400", value: 1))
        #expect(raw.props["classes"] == .string("my-rule animate-smooth duration-400"))
        #expect(TWUtility.classes("my-rule").isAnimation, "a plain name may be a rule holding animation classes")
        #expect(!TWUtility.classes("p-2").isAnimation)
    }

    @Test func rulesReachRegisterInfo() {
        var configuration = NookModuleConfiguration(id: "music", displayName: "Music")
        #expect(configuration.registerInfo["rules"] == nil)
        configuration.rules(["card": "p-2 rounded-xl"])
        #expect(configuration.registerInfo["rules"] == .dictionary(["rules.named.card": .string("p-2 rounded-xl")]))
    }

    @Test func animationsAndTheDefaultAnimationReachRegisterInfo() throws {
        var configuration = NookModuleConfiguration(id: "music")
        configuration.animations(["wobble": .spring(response: 0.6, dampingFraction: 0.5), "calm": .preset("smooth")])
        configuration.defaultAnimation("wobble")
        let rules: PropValue = .dictionary([
            "rules.animations.wobble": .dictionary(["response": .double(0.6), "damping_fraction": .double(0.5)]),
            "rules.animations.calm": .string("{rules.animations.smooth}"),
            "rules.view.preset": .string("{rules.animations.wobble}"),
            "rules.view.withoutPreset": .string("preset"),
        ])
        #expect(configuration.registerInfo["rules"] == rules)
        // What the broker validates them with: the theme's resolver.
        guard case .dictionary(let tokens) = rules else { return }
        let theme = try Theme.builtIn.applying(tokens)
        #expect(theme.curve(at: "rules.view.preset")?.kind == .spring(try Spring(response: 0.6, dampingFraction: 0.5)))
        #expect(theme.scopesWithoutPresetUseTheDefault)
    }
}
