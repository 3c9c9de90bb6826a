/// Follows aliases and types every token, collecting every problem before refusing.
///
/// Steps:
/// 1. Literal tokens: the type is the declared `$type`, or failing that the one the value
///    looks like; a value that looks like another type is a `type-mismatch`; then parse.
/// 2. Alias tokens: follow `{path}` hops to a literal, recording the chain. A hop back onto
///    the chain is an `alias-cycle` (reported once per cycle, naming every member); a hop to
///    nothing is an `unknown-alias`; a declared type that differs from the literal's is a
///    `type-mismatch`.
/// 3. The DSL rules: animation presets (`rules.animations.*`, `rules.view.preset`) must be
///    curves, and `rules.named` must not expand into itself.
/// 4. Ranges: every resolved value within its `NumberDomain` (`TokenDomains`).
///
/// Cost: a walk stops at an alias already resolved (taking its chain) or after
/// `ThemeLimits.maxAliasDepth` hops (a `limit-exceeded` issue), so resolving is linear in the
/// number of tokens, whatever their aliases.
enum ThemeResolver {
    static let namedPrefix = "rules.named."
    static let animationsPrefix = "rules.animations."

    static func resolve(_ definitions: [String: TokenDefinition]) throws(ThemeError) -> [String: ResolvedToken] {
        var issues: [ThemeIssue] = []
        var tokens: [String: ResolvedToken] = [:]
        let paths = definitions.keys.sorted()

        for path in paths {
            let definition = definitions[path]!
            guard TokenDocument.aliasTarget(definition.raw) == nil else { continue }
            let looksLike = TokenDocument.inferType(definition.raw)
            guard let type = definition.declaredType ?? looksLike else {
                issues.append(
                    ThemeIssue(
                        path: path, code: .unknownType,
                        message: "no $type and \(TokenDocument.describe(definition.raw)) is not a recognisable token value"))
                continue
            }
            if let looksLike, !compatible(looksLike, declared: type, raw: definition.raw) {
                issues.append(
                    ThemeIssue(
                        path: path, code: .typeMismatch,
                        message: "the token is a \(type.rawValue) but its value \(TokenDocument.describe(definition.raw)) is a \(looksLike.rawValue)"))
                continue
            }
            switch TokenDocument.parse(definition.raw, as: type) {
            case .success(let value): tokens[path] = ResolvedToken(path: path, value: value, chain: [path])
            case .failure(let problem): issues.append(ThemeIssue(path: path, code: .invalidValue, message: problem.message))
            }
        }

        var reportedCycles: Set<Set<String>> = []
        for path in paths where TokenDocument.aliasTarget(definitions[path]!.raw) != nil {
            var chain = [path]
            var onChain: Set<String> = [path]
            var current = path
            var tooDeep = false
            // An alias resolved earlier already knows the rest of the chain (memoised).
            var known: ResolvedToken?
            while let target = TokenDocument.aliasTarget(definitions[current]!.raw) {
                if onChain.contains(target), let start = chain.firstIndex(of: target) {
                    let members = Array(chain[start...])
                    if !members.contains(path) {
                        issues.append(
                            ThemeIssue(path: path, code: .aliasCycle, message: "aliases into the cycle \((members + [target]).joined(separator: " -> "))"))
                    } else if reportedCycles.insert(Set(members)).inserted {
                        issues.append(
                            ThemeIssue(path: path, code: .aliasCycle, message: "alias cycle \((members + [target]).joined(separator: " -> "))"))
                    }
                    break
                }
                guard definitions[target] != nil else {
                    let via = chain.count > 1 ? " (via \(chain.joined(separator: " -> ")))" : ""
                    issues.append(ThemeIssue(path: path, code: .unknownAlias, message: "{\(target)} names no token\(via)"))
                    break
                }
                if TokenDocument.aliasTarget(definitions[target]!.raw) != nil, let resolved = tokens[target],
                    chain.count + resolved.chain.count <= ThemeLimits.maxAliasDepth + 1
                {
                    known = resolved
                    break
                }
                if chain.count > ThemeLimits.maxAliasDepth {
                    issues.append(
                        ThemeIssue(
                            path: path, code: .limitExceeded,
                            message: "the alias chain is longer than \(ThemeLimits.maxAliasDepth) hops (maxAliasDepth), via \(InputQuote.text(chain.prefix(4).joined(separator: " -> "))) -> ..."))
                    tooDeep = true
                    break
                }
                chain.append(target)
                onChain.insert(target)
                current = target
            }
            if let known {
                // Its own chain's declared types already agree with its literal: check ours.
                if let declared = chain.lazy.compactMap({ definitions[$0]!.declaredType }).first, declared != known.type {
                    issues.append(
                        ThemeIssue(
                            path: path, code: .typeMismatch,
                            message: "the token is a \(declared.rawValue) but {\(known.path)} resolves to a \(known.type.rawValue) (\((chain + known.chain).joined(separator: " -> ")))"))
                } else {
                    tokens[path] = ResolvedToken(path: path, value: known.value, chain: chain + known.chain)
                }
                continue
            }
            guard !tooDeep, TokenDocument.aliasTarget(definitions[current]!.raw) == nil, let literal = tokens[current] else {
                continue  // a cycle or unknown alias (reported above), or a broken literal (reported at its path)
            }
            if let declared = chain.dropLast().lazy.compactMap({ definitions[$0]!.declaredType }).first,
                declared != literal.type
            {
                issues.append(
                    ThemeIssue(
                        path: path, code: .typeMismatch,
                        message: "the token is a \(declared.rawValue) but {\(chain[1])} resolves to a \(literal.type.rawValue) (\(chain.joined(separator: " -> ")))"))
                continue
            }
            tokens[path] = ResolvedToken(path: path, value: literal.value, chain: chain)
        }

        issues += ruleIssues(tokens)
        for path in paths {
            if let token = tokens[path], let problem = TokenDomains.problem(path: path, value: token.value) {
                issues.append(ThemeIssue(path: path, code: .invalidValue, message: problem))
            }
        }
        guard issues.isEmpty else { throw ThemeError(issues: issues) }
        return tokens
    }

    /// A literal that looks like `looksLike` may stand for `declared`: same type, a bare
    /// number as a dimension in points, or any string for a string token.
    static func compatible(_ looksLike: TokenType, declared: TokenType, raw: JSONValue) -> Bool {
        if looksLike == declared { return true }
        if looksLike == .number && declared == .dimension { return true }
        if declared == .string, case .string = raw { return true }
        return false
    }

    private static func ruleIssues(_ tokens: [String: ResolvedToken]) -> [ThemeIssue] {
        var issues: [ThemeIssue] = []
        for (path, token) in tokens where path.hasPrefix(animationsPrefix) || path == "rules.view.preset" {
            if !token.type.isCurve {
                issues.append(
                    ThemeIssue(
                        path: path, code: .typeMismatch,
                        message: "an animation preset must be a spring, transition or cubicBezier, found a \(token.type.rawValue)"))
            }
        }
        var named: [String: String] = [:]
        for (path, token) in tokens where path.hasPrefix(namedPrefix) {
            guard case .string(let text) = token.value else {
                issues.append(ThemeIssue(path: path, code: .typeMismatch, message: "a named rule must be a class string, found a \(token.type.rawValue)"))
                continue
            }
            named[String(path.dropFirst(namedPrefix.count))] = text
        }
        switch NamedRules.problem(in: named, maxDepth: ThemeLimits.maxRuleDepth, maxClasses: ThemeLimits.maxRuleClasses) {
        case .cycle(let cycle)?:
            issues.append(
                ThemeIssue(
                    path: namedPrefix + cycle[0], code: .namedRuleCycle,
                    message: "named rules expand into themselves: \(cycle.joined(separator: " -> "))"))
        case .tooDeep(let chain)?:
            issues.append(
                ThemeIssue(
                    path: namedPrefix + chain[0], code: .limitExceeded,
                    message: "named rules nest deeper than \(ThemeLimits.maxRuleDepth) (maxRuleDepth): \(InputQuote.text(chain.prefix(4).joined(separator: " -> "))) -> ..."))
        case .tooLarge(let name, let classes)?:
            issues.append(
                ThemeIssue(
                    path: namedPrefix + name, code: .limitExceeded,
                    message: "the rule expands to more than \(ThemeLimits.maxRuleClasses) classes (maxRuleClasses; at least \(classes))"))
        case nil:
            break
        }
        return issues
    }
}
