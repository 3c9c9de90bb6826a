/// Checks on the theme's `rules.named` table (class name -> class string, SPEC rule 24).
public enum NamedRules {
    /// The first cycle in `rules`, as the chain of names that closes it (`["card", "panel", "card"]`),
    /// or nil when every rule expands to a finite class string.
    ///
    /// Names are visited in sorted order, so the same table always reports the same cycle.
    public static func cycle(in rules: [String: String]) -> [String]? {
        if case .cycle(let names)? = problem(in: rules, maxDepth: .max, maxClasses: .max) { return names }
        return nil
    }

    /// What makes a table unusable: a cycle, rules nested deeper than a limit, or a rule
    /// that expands to more classes than a limit (a few rules each naming the next twice
    /// double at every level).
    public enum Problem: Error, Hashable, Sendable {
        /// The names that close the cycle, `["card", "panel", "card"]`.
        case cycle([String])
        /// The chain of names that goes past the depth limit.
        case tooDeep([String])
        /// A rule and how many classes its expansion holds (at least; counting stops past the limit).
        case tooLarge(String, classes: Int)
    }

    /// The first problem in `rules`, names visited in sorted order so the same table always
    /// reports the same one; nil when every rule expands to at most `maxClasses` classes
    /// through at most `maxDepth` nested rules. One walk, each rule expanded once, so the cost
    /// is linear in the table's size; the walk nests at most `maxDepth` calls deep.
    public static func problem(in rules: [String: String], maxDepth: Int, maxClasses: Int) -> Problem? {
        var walk = Walk(rules: rules, maxDepth: maxDepth, maxClasses: maxClasses)
        for name in rules.keys.sorted() {
            if case .failure(let problem) = walk.visit(name) { return problem }
        }
        return nil
    }

    private struct Walk {
        let rules: [String: String]
        let maxDepth: Int
        let maxClasses: Int
        var trail: [String] = []
        var onTrail: Set<String> = []
        /// Classes each finished rule expands to.
        var sizes: [String: Int] = [:]

        mutating func visit(_ name: String) -> Result<Int, Problem> {
            if onTrail.contains(name) {
                let start = trail.firstIndex(of: name)!
                return .failure(.cycle(Array(trail[start...]) + [name]))
            }
            if let size = sizes[name] { return .success(size) }
            guard let body = rules[name] else { return .success(1) }
            if trail.count >= maxDepth { return .failure(.tooDeep(trail + [name])) }
            trail.append(name)
            onTrail.insert(name)
            var size = 0
            for token in body.split(whereSeparator: { $0.isWhitespace }) {
                let inner = String(token)
                if rules[inner] == nil {
                    size += 1
                } else {
                    switch visit(inner) {
                    case .success(let classes): size += classes
                    case .failure(let problem): return .failure(problem)
                    }
                }
                if size > maxClasses { return .failure(.tooLarge(name, classes: size)) }
            }
            trail.removeLast()
            onTrail.remove(name)
            sizes[name] = size
            return .success(size)
        }
    }

    /// `classes` with every token that names a rule replaced by the rule's classes, recursively
    /// and in place, as `ClassList` reads them (a rule met again inside its own expansion is
    /// dropped); nil when no token names a rule, so callers keep the string as written.
    ///
    /// ```swift
    /// NamedRules.expand("card hover:ring-2", rules: ["card": "p-2 bg-indigo-500"])
    /// // "p-2 bg-indigo-500 hover:ring-2"
    /// ```
    public static func expand(_ classes: String, rules: [String: String]) -> String? {
        guard !rules.isEmpty else { return nil }
        let tokens = classes.split(whereSeparator: { $0.isWhitespace })
        guard tokens.contains(where: { rules[String($0)] != nil }) else { return nil }
        var out: [Substring] = []
        append(tokens, rules: rules, expanding: [], into: &out)
        return out.joined(separator: " ")
    }

    private static func append(_ tokens: [Substring], rules: [String: String], expanding: [String], into out: inout [Substring]) {
        for token in tokens {
            let name = String(token)
            guard let rule = rules[name] else {
                out.append(token)
                continue
            }
            guard !expanding.contains(name) else { continue }
            append(rule.split(whereSeparator: { $0.isWhitespace }), rules: rules, expanding: expanding + [name], into: &out)
        }
    }
}
