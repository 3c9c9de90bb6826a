/// Checks on the theme's `rules.named` table (class name -> class string, SPEC rule 24).
public enum NamedRules {
    /// The first cycle in `rules`, as the chain of names that closes it (`["card", "panel", "card"]`),
    /// or nil when every rule expands to a finite class string.
    ///
    /// Names are visited in sorted order, so the same table always reports the same cycle.
    public static func cycle(in rules: [String: String]) -> [String]? {
        var finished: Set<String> = []
        for name in rules.keys.sorted() {
            if let cycle = visit(name, rules: rules, trail: [], finished: &finished) { return cycle }
        }
        return nil
    }

    private static func visit(_ name: String, rules: [String: String], trail: [String], finished: inout Set<String>)
        -> [String]?
    {
        if let start = trail.firstIndex(of: name) { return Array(trail[start...]) + [name] }
        guard !finished.contains(name), let body = rules[name] else { return nil }
        for token in body.split(whereSeparator: { $0.isWhitespace }) where rules[String(token)] != nil {
            if let cycle = visit(String(token), rules: rules, trail: trail + [name], finished: &finished) {
                return cycle
            }
        }
        finished.insert(name)
        return nil
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
