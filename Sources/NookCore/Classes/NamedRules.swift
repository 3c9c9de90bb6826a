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
}
