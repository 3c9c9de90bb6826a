import Testing
@testable import NookCore

/// Issue 15, case 8 and 3: a theme's size, alias depth and numbers are bounded, so
/// resolving one stays linear and nothing it holds can break a plan.
@Suite struct ThemeLimitTests {
    static func refusal(_ make: () throws(ThemeError) -> Theme) -> ThemeError? {
        do {
            _ = try make()
            return nil
        } catch {
            return error
        }
    }

    @Test func aThreeThousandLongAliasChainIsRefusedByDepth() {
        var overrides: [String: PropValue] = ["chain.t0": .string("240ms")]
        for index in 1..<3000 { overrides["chain.t\(index)"] = .string("{chain.t\(index - 1)}") }
        let error = Self.refusal { () throws(ThemeError) in try Theme.builtIn.applying(overrides) }
        let tooDeep = error?.issues.filter { $0.code == .limitExceeded } ?? []
        // Tokens within 16 hops of the literal resolve; every one further is refused by depth.
        #expect(tooDeep.count == 3000 - 1 - ThemeLimits.maxAliasDepth)
        #expect(tooDeep.allSatisfy { $0.message.contains("maxAliasDepth") })
        #expect(error?.issues.allSatisfy { $0.code == .limitExceeded } == true)
        // The message lists a few issues, not three thousand.
        #expect((error?.description.utf8.count ?? .max) < 4000)
    }

    @Test func aChainAtTheDepthLimitResolves() throws {
        var overrides: [String: PropValue] = ["chain.t0": .string("240ms")]
        for index in 1...ThemeLimits.maxAliasDepth { overrides["chain.t\(index)"] = .string("{chain.t\(index - 1)}") }
        let theme = try Theme.builtIn.applying(overrides)
        #expect(theme.duration(at: "chain.t\(ThemeLimits.maxAliasDepth)") == 0.24)
        #expect(theme.token(at: "chain.t\(ThemeLimits.maxAliasDepth)")?.chain.count == ThemeLimits.maxAliasDepth + 1)
    }

    @Test func aThemeOfTheMaximumSizeResolvesAndOneMoreIsRefused() throws {
        let room = ThemeLimits.maxTokens - Theme.builtIn.tokens.count
        var overrides: [String: PropValue] = [:]
        for index in 0..<room { overrides["many.g\(index % 64).t\(index)"] = index % 2 == 0 ? .string("\(index)ms") : .string("{many.g0.t0}") }
        let theme = try Theme.builtIn.applying(overrides)
        #expect(theme.tokens.count == ThemeLimits.maxTokens)
        #expect(theme.duration(at: "many.g1.t1") == 0)

        overrides["many.extra"] = .string("1ms")
        let error = Self.refusal { () throws(ThemeError) in try Theme.builtIn.applying(overrides) }
        #expect(error?.issues.map(\.code) == [.limitExceeded])
        #expect(error?.description.contains("maxTokens") == true)
    }

    @Test func oversizedDocumentsAndValuesAreRefusedNamingTheLimit() {
        let big = String(repeating: " ", count: ThemeLimits.maxDocumentBytes + 1)
        let document = Self.refusal { () throws(ThemeError) in try Theme.builtIn.merging(json: "{}" + big) }
        #expect(document?.description.contains("maxDocumentBytes") == true)
        let overrides = Self.refusal { () throws(ThemeError) in
            try Theme.builtIn.applying(["rules.named.huge": .string(String(repeating: "p-2 ", count: 70_000))])
        }
        #expect(overrides?.description.contains("maxDocumentBytes") == true)
        let value = Self.refusal { () throws(ThemeError) in
            try Theme.builtIn.applying(["rules.named.long": .string(String(repeating: "p-2 ", count: 2000))])
        }
        #expect(value?.issues.first?.path == "rules.named.long")
        #expect(value?.description.contains("maxValueBytes") == true)
    }

    @Test func outOfDomainTokensAreRefusedNamingThePath() {
        let cases: [(String, PropValue, String)] = [
            ("transition.fade", .string("99999999999999999999ms"), "outside 0...60 s"),
            ("transition.convert", .dictionary(["response": .double(0.4), "damping_fraction": .double(1e-300)]), "dampingFraction"),
            ("transition.peek", .dictionary(["response": .double(1e300), "damping_fraction": .double(0.8)]), "response"),
            ("geometry.pill.height", .string("1e308px"), "is a string"),
            ("geometry.pill.height", .double(1e308), "outside 0...1000000 pt"),
            ("motion.maxDuration", .string("0ms"), "max duration"),
            ("geometry.board.columns", .double(-1e300), "outside"),
            ("transition.fadeCurve", .structure([.double(0.2), .double(1e308), .double(0.2), .double(1)]), "y1"),
        ]
        for (path, value, words) in cases {
            let error = Self.refusal { () throws(ThemeError) in try Theme.builtIn.applying([path: value]) }
            #expect(error?.issues.contains { $0.path == path && $0.description.contains(words) } == true, "\(path): \(String(describing: error))")
        }
        // The same token through an alias is held to the alias's own range.
        let aliased = Self.refusal { () throws(ThemeError) in
            try Theme.builtIn.applying(["short.zero": .string("0ms"), "motion.maxDuration": .string("{short.zero}")])
        }
        #expect(aliased?.issues.map(\.path) == ["motion.maxDuration"])
    }

    @Test func namedRulesNestedTooDeepOrExpandingTooFarAreRefused() {
        // A chain of 4,000 rules used to take minutes to check and to expand.
        var chain: [String: PropValue] = [:]
        for index in 0..<4000 { chain["rules.named.r\(index)"] = .string("r\(index + 1) p-1") }
        let deep = Self.refusal { () throws(ThemeError) in try Theme.builtIn.applying(chain) }
        #expect(deep?.issues.map(\.code) == [.limitExceeded])
        #expect(deep?.issues.first?.path == "rules.named.r0")
        #expect(deep?.description.contains("maxRuleDepth") == true)

        // Each rule naming the next twice doubles: 2^11 classes from twelve short rules.
        var doubling: [String: PropValue] = ["rules.named.d11": .string("p-1")]
        for index in 0..<11 { doubling["rules.named.d\(index)"] = .string("d\(index + 1) d\(index + 1)") }
        let wide = Self.refusal { () throws(ThemeError) in try Theme.builtIn.applying(doubling) }
        #expect(wide?.issues.map(\.code) == [.limitExceeded])
        #expect(wide?.description.contains("maxRuleClasses") == true)

        // Within the limits, rules nest and repeat as before: d6 expands to 2^5 classes.
        for index in 0..<6 { doubling["rules.named.d\(index)"] = nil }
        let theme = try? Theme.builtIn.applying(doubling)
        #expect(theme.map { NamedRules.expand("d6", rules: $0.namedRules)?.split(separator: " ").count } == 32)
    }
}
