import Testing
@testable import NookCore

private func issues(_ make: () throws(ThemeError) -> Theme) -> [ThemeIssue] {
    do {
        _ = try make()
        return []
    } catch {
        return error.issues
    }
}

@Test func builtInThemeHasEverySpecTokenWithItsDefault() {
    let theme = Theme.builtIn
    let dimensions: [String: Double] = [
        "geometry.topInset": 0, "geometry.pill.height": 32, "geometry.pill.cornerRadius": 16,
        "geometry.pill.slotPadding": 10, "geometry.pill.slotMaxWidth": 120, "geometry.capsule.size": 32,
        "geometry.capsule.spacing": 8, "geometry.peek.width": 360, "geometry.peek.height": 72,
        "geometry.peek.cornerRadius": 24, "geometry.expanded.width": 480, "geometry.expanded.maxHeight": 240,
        "geometry.expanded.cornerRadius": 32, "geometry.expanded.padding": 16, "geometry.board.spacing": 12,
        "geometry.board.widgetHeight": 96, "geometry.companion.width": 360, "geometry.companion.height": 420,
        "geometry.companion.cornerRadius": 16, "geometry.companion.margin": 24,
    ]
    let durations: [String: Double] = [
        "transition.fade": 0.18, "motion.stagger": 0.03, "motion.header.delay": 0.08, "motion.hideDip": 0.12,
        "motion.maxDuration": 2, "broker.moduleGrace": 10, "rules.view.duration": 0.3,
    ]
    let springs: [String: (Double, Double)] = [
        "transition.convert": (0.42, 0.82), "transition.peek": (0.34, 0.86), "transition.content": (0.35, 0.85),
        "motion.sharedElement.convert": (0.42, 0.82), "motion.sharedElement.peek": (0.34, 0.86),
        "rules.animations.smooth": (0.5, 1), "rules.animations.snappy": (0.5, 0.85), "rules.animations.bouncy": (0.5, 0.7),
        "rules.view.preset": (0.5, 1),
    ]
    var failures: [String] = []
    for (path, points) in dimensions where theme.dimension(at: path) != points { failures.append(path) }
    for (path, seconds) in durations where theme.duration(at: path).map({ abs($0 - seconds) < 1e-12 }) != true { failures.append(path) }
    for (path, (response, fraction)) in springs {
        guard case .spring(let spring) = theme.token(at: path)?.value, spring.response == response, spring.dampingFraction == fraction
        else {
            failures.append(path)
            continue
        }
    }
    #expect(failures.isEmpty, "\(failures)")
    #expect(theme.number(at: "geometry.board.columns") == 2)
    #expect(theme.cubicBezier(at: "transition.fadeCurve") == .ease)
    #expect(theme.curve(at: "rules.animations.linear")?.kind == .linear(duration: 0.35))
    #expect(theme.namedRules.isEmpty)
}

@Test func sharedElementCurveNamesItsAliasChainAsSource() throws {
    let curve = try #require(Theme.builtIn.curve(at: "motion.sharedElement.convert"))
    #expect(curve.source == "motion.sharedElement.convert -> transition.convert")
    #expect(curve.kind == .spring(try Spring(response: 0.42, dampingFraction: 0.82)))
    #expect(Theme.builtIn.curve(at: "transition.peek")?.source == "transition.peek")
    #expect(Theme.builtIn.curve(at: "motion.stagger") == nil)
    #expect(Theme.builtIn.curve(at: "no.such.token") == nil)
}

@Test func aliasCycleThroughThreeHopsNamesEveryTokenPath() {
    let found = issues { () throws(ThemeError) in
        try Theme.builtIn.applying([
            "motion.sharedElement.convert": .string("{custom.a}"),
            "custom.a": .string("{custom.b}"),
            "custom.b": .string("{custom.c}"),
            "custom.c": .string("{custom.a}"),
        ])
    }
    let cycles = found.filter { $0.code == .aliasCycle }
    #expect(cycles.count == 2)
    let cycle = cycles.first { $0.path == "custom.a" }
    #expect(cycle?.message == "alias cycle custom.a -> custom.b -> custom.c -> custom.a")
    // The token that leads into the cycle is refused too, and says which cycle.
    let into = cycles.first { $0.path == "motion.sharedElement.convert" }
    #expect(into?.message.contains("custom.a -> custom.b -> custom.c -> custom.a") == true)
}

@Test func selfAliasIsACycle() {
    let found = issues { () throws(ThemeError) in try Theme(json: #"{"transition": {"peek": {"$value": "{transition.peek}"}}}"#) }
    #expect(found == [
        // The default that aliases the broken token is refused with it.
        ThemeIssue(path: "motion.sharedElement.peek", code: .aliasCycle, message: "aliases into the cycle transition.peek -> transition.peek"),
        ThemeIssue(path: "transition.peek", code: .aliasCycle, message: "alias cycle transition.peek -> transition.peek"),
    ])
}

/// Each row: a user theme, the path and code the refusal must name, and words its message holds.
@Test func badThemesAreRefusedNamingTokenPathAndRule() {
    let cases: [(String, String, String, ThemeIssue.Code, String)] = [
        ("unknown alias", #"{"motion": {"sharedElement": {"convert": {"$value": "{transition.warp}"}}}}"#,
         "motion.sharedElement.convert", .unknownAlias, "{transition.warp}"),
        ("override changes the type", #"{"transition": {"convert": {"$type": "duration", "$value": "240ms"}}}"#,
         "transition.convert", .typeMismatch, "spring"),
        ("value of another type", #"{"motion": {"stagger": {"$value": {"response": 0.3, "dampingFraction": 1}}}}"#,
         "motion.stagger", .typeMismatch, "spring"),
        ("alias to another type", #"{"motion": {"stagger": {"$value": "{transition.convert}"}}}"#,
         "motion.stagger", .typeMismatch, "motion.stagger -> transition.convert"),
        ("bezier x outside", #"{"transition": {"fadeCurve": {"$value": [1.5, 0, 0.5, 1]}}}"#,
         "transition.fadeCurve", .invalidValue, "0...1"),
        ("negative duration", #"{"motion": {"hideDip": {"$value": {"value": -5, "unit": "ms"}}}}"#,
         "motion.hideDip", .invalidValue, "duration"),
        ("spring without damping", #"{"transition": {"peek": {"$value": {"response": 0.3}}}}"#,
         "transition.peek", .invalidValue, "dampingFraction"),
        ("spring with zero response", #"{"transition": {"peek": {"$value": {"response": 0, "dampingFraction": 1}}}}"#,
         "transition.peek", .invalidValue, "response"),
        ("rem dimension", #"{"geometry": {"pill": {"height": {"$value": "2rem"}}}}"#,
         "geometry.pill.height", .typeMismatch, "string"),
        ("unknown $type", #"{"x": {"$type": "colour", "$value": "teal"}}"#, "x", .unknownType, "colour"),
        ("untyped unrecognisable", #"{"x": {"$value": true}}"#, "x", .unknownType, "boolean"),
        ("not JSON", #"{"geometry": "#, "", .invalidJSON, "line 1"),
        ("token inside a token", #"{"transition": {"convert": {"response": {"$value": 0.3}}}}"#,
         "transition.convert.response", .invalidToken, "transition.convert is a token"),
        ("token over a group", #"{"geometry": {"pill": {"$value": "32px"}}}"#, "geometry.pill", .invalidToken, "group"),
        ("dotted name", #"{"a.b": {"$value": 1}}"#, "a.b", .invalidToken, "'.'"),
        ("preset that is no curve", #"{"rules": {"animations": {"slow": {"$value": "900ms"}}}}"#,
         "rules.animations.slow", .typeMismatch, "animation preset"),
        ("named rule cycle", #"{"rules": {"named": {"card": {"$value": "panel p-2"}, "panel": {"$value": "card"}}}}"#,
         "rules.named.card", .namedRuleCycle, "card -> panel -> card"),
    ]
    var failures: [String] = []
    for (name, json, path, code, words) in cases {
        let found = issues { () throws(ThemeError) in try Theme(json: json) }
        if !found.contains(where: { $0.path == path && $0.code == code && $0.description.contains(words) }) {
            failures.append("\(name): \(found)")
        }
    }
    #expect(failures.isEmpty, "\(failures)")
}

@Test func badThemeIsRefusedWholeAndPreviousThemeStays() throws {
    let good = try Theme.builtIn.applying(["motion.stagger": .string("50ms")])
    var current = good
    do {
        current = try current.applying(["motion.stagger": .string("70ms"), "motion.hideDip": .string("{nope}")])
        Issue.record("accepted a bad theme")
    } catch {
        #expect(error.issues.map(\.path) == ["motion.hideDip"])
    }
    #expect(current == good)
    #expect(current.duration(at: "motion.stagger") == 0.05)
}

@Test func durationAndDimensionAcceptEveryDTCGForm() throws {
    let theme = try Theme(json: #"""
    {
      "motion": { "stagger": { "$value": {"value": 240, "unit": "ms"} }, "hideDip": { "$value": "1.5s" },
                  "maxDuration": { "$value": {"value": 1.5, "unit": "s"} } },
      "geometry": { "pill": { "height": { "$value": {"value": 40, "unit": "px"} }, "cornerRadius": { "$value": "20pt" } },
                    "capsule": { "size": { "$value": 28 } } }
    }
    """#)
    #expect(theme.duration(at: "motion.stagger") == 0.24)
    #expect(theme.duration(at: "motion.hideDip") == 1.5)
    #expect(theme.duration(at: "motion.maxDuration") == 1.5)
    #expect(theme.dimension(at: "geometry.pill.height") == 40)
    #expect(theme.dimension(at: "geometry.pill.cornerRadius") == 20)
    #expect(theme.dimension(at: "geometry.capsule.size") == 28)
    // Untouched tokens keep their defaults.
    #expect(theme.dimension(at: "geometry.peek.width") == 360)
}

@Test func typeIsInheritedFromGroupsAndInferredForUntypedTokens() throws {
    let theme = try Theme(json: #"""
    {
      "brand": { "$type": "duration", "quick": { "$value": "90ms" }, "nested": { "slow": { "$value": "2s" } } },
      "loose": { "spring": { "$value": { "response": 0.3, "dampingFraction": 0.9 } }, "ease": { "$value": [0.4, 0, 0.2, 1] } },
      "rules": { "named": { "card": { "$value": "group/card p-4" } },
                 "animations": { "gentle": { "$value": { "duration": "600ms", "timingFunction": [0.4, 0, 0.2, 1] } } } }
    }
    """#)
    #expect(theme.token(at: "brand.nested.slow")?.type == .duration)
    #expect(theme.token(at: "loose.spring")?.type == .spring)
    #expect(theme.token(at: "loose.ease")?.type == .cubicBezier)
    #expect(theme.namedRules == ["card": "group/card p-4"])
    let gentle = try #require(theme.curve(at: "rules.animations.gentle"))
    #expect(gentle.kind == .bezier(try CubicBezier(0.4, 0, 0.2, 1), duration: 0.6))
    // A group type may not be contradicted by a value of another type.
    let found = issues { () throws(ThemeError) in try Theme(json: #"{"brand": {"$type": "duration", "x": {"$value": 3}}}"#) }
    #expect(found.map(\.code) == [.typeMismatch])
}

@Test func setTokensAcceptsAliasDurationAndSpringDictionary() throws {
    let theme = try Theme.builtIn.applying([
        "motion.sharedElement.convert": .string("{transition.peek}"),
        "motion.stagger": .string("45ms"),
        "transition.peek": .dictionary(["response": .double(0.3), "damping_fraction": .double(0.9)]),
        "geometry.pill.height": .double(36),
        "rules.named.chip": .string("px-2 rounded-full"),
    ])
    let curve = try #require(theme.curve(at: "motion.sharedElement.convert"))
    #expect(curve.source == "motion.sharedElement.convert -> transition.peek")
    #expect(curve.kind == .spring(try Spring(response: 0.3, dampingFraction: 0.9)))
    #expect(theme.duration(at: "motion.stagger") == 0.045)
    #expect(theme.dimension(at: "geometry.pill.height") == 36)
    #expect(theme.namedRules["chip"] == "px-2 rounded-full")
    // An override whose value is of another type than the token's is refused.
    let found = issues { () throws(ThemeError) in try Theme.builtIn.applying(["motion.sharedElement.convert": .string("240ms")]) }
    #expect(found.map(\.code) == [.typeMismatch])
    #expect(found.first?.path == "motion.sharedElement.convert")
}

@Test func wireTokensRoundTripThroughSetTokens() throws {
    let custom = try Theme.builtIn.applying(["motion.stagger": .string("12.5ms"), "rules.named.x": .string("p-1")])
    let wire = custom.wireTokens
    #expect(wire["motion.stagger"] == .string("12.5ms"))
    #expect(wire["transition.convert"] == .dictionary(["response": .double(0.42), "damping_fraction": .double(0.82)]))
    #expect(wire["geometry.pill.height"] == .double(32))
    let again = try Theme.builtIn.applying(wire)
    #expect(again.tokens.mapValues(\.value) == custom.tokens.mapValues(\.value))
}

@Test func animationScopeCurveComesFromClassThenCallerThenRulesView() throws {
    let theme = Theme.builtIn
    let bouncy = theme.animationCurve(for: AnimationClasses(preset: .bouncy, duration: 0.4, delay: 0.05))
    #expect(bouncy.curve.kind == .spring(try Spring(response: 0.4, dampingFraction: 0.7)))
    #expect(bouncy.curve.delay == 0.05)
    #expect(bouncy.curve.source == "animate-bouncy -> rules.animations.bouncy, duration-400, delay-50")
    #expect(bouncy.diagnostics.isEmpty)

    let caller = theme.animationCurve(for: AnimationClasses(), callerPreset: "snappy")
    #expect(caller.curve.source == "animation snappy -> rules.animations.snappy")

    let fallback = theme.animationCurve(for: AnimationClasses(duration: 0.2))
    #expect(fallback.curve.kind == .spring(try Spring(response: 0.2, dampingFraction: 1)))
    #expect(fallback.curve.source == "rules.view.preset -> rules.animations.smooth, duration-200")

    let unknown = theme.animationCurve(for: AnimationClasses(preset: .custom("wobble")))
    #expect(unknown.diagnostics.map(\.code) == [.unknownAnimation])
    #expect(unknown.curve.source.hasPrefix("animate-wobble (unknown) -> rules.view.preset"))

    let linear = theme.animationCurve(for: AnimationClasses(preset: .linear))
    #expect(linear.curve.kind == .linear(duration: 0.35))
}

@Test func bareBezierPresetRunsOverRulesViewDuration() throws {
    let theme = try Theme(json: #"{"rules": {"view": {"duration": {"$value": "250ms"}}, "animations": {"ease": {"$type": "cubicBezier", "$value": [0.25, 0.1, 0.25, 1]}}}}"#)
    let curve = theme.animationCurve(for: AnimationClasses(preset: .custom("ease"))).curve
    #expect(curve.kind == .bezier(.ease, duration: 0.25))
}
