/// The layout utilities each theme rule in `rules.named` stands for (SPEC rule 24), worked out
/// once per theme so layout reads a rule's name as the classes it expands to.
///
/// A rule expands exactly as `ClassList` expands it (nested rules in place, a name met again
/// inside its own expansion dropped), and only its plain utilities count: variants inside a
/// rule are the renderer's, like any variant.
///
/// ```swift
/// let rules = NamedLayoutRules(["card": "w-20 p-2 bg-indigo-500"])
/// rules.utilities["card"]  // [.width(80), .padding(.all, 8)]
/// ```
struct NamedLayoutRules: Hashable, Sendable {
    /// Rule name -> its layout utilities in order; rules with none are left out.
    private(set) var utilities: [String: [LayoutUtility]] = [:]
    /// Every rule name, so a rule with no layout utilities still stands for nothing rather than
    /// being read as an unknown class.
    private(set) var names: Set<String> = []

    static let none = NamedLayoutRules()

    private init() {}

    init(_ rules: [String: String]) {
        names = Set(rules.keys)
        for name in rules.keys {
            let layout = ClassList(parsing: name, namedRules: rules).layout
            if !layout.isEmpty { utilities[name] = layout }
        }
    }

    var isEmpty: Bool { names.isEmpty }

    /// The rule `token` names, if any: its utilities (possibly none).
    func expansion(of token: Substring) -> [LayoutUtility]? {
        let name = String(token)
        guard names.contains(name) else { return nil }
        return utilities[name] ?? []
    }
}
