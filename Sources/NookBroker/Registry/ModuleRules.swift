import NookCore

/// A module's own rules (`Register` info `rules`, contract 1.1 "Module rules"): token paths
/// under `rules.` as `SetTokens` takes them, validated by the theme's own resolver.
///
/// They are scoped by resolving them when the module publishes a view (`scoping(_:)`): a class
/// naming one of the module's `rules.named` entries is replaced by that rule's classes there,
/// so the stored view, the planner and renderers never need to know whose rule it was, and
/// other modules' views never meet it. Names the module does not define stay as written and
/// are read later with the theme's rules, so the module's definition comes first.
public struct ModuleRules: Hashable, Sendable {
    /// The paths as sent (after validation), kept for the state file.
    public private(set) var tokens: [String: PropValue] = [:]
    /// `rules.named.<name>` -> class string.
    public private(set) var named: [String: String] = [:]

    public static let none = ModuleRules()

    public var isEmpty: Bool { tokens.isEmpty }

    private init() {}

    /// The prefixes a module may set.
    static let allowedPrefixes = ["rules.named.", "rules.animations.", "rules.view."]

    /// Validates `value` (an `a{sv}` of token paths) the way `SetTokens` does.
    /// - Throws: `InvalidTheme` naming the offending path.
    public init(reading value: PropValue, context: String) throws(RegistryError) {
        guard case .dictionary(let entries) = value else {
            throw RegistryError(.invalidArgs, "\(context): key 'rules': expected type a{sv}, found \(value.typeName)")
        }
        for path in entries.keys.sorted() where !Self.allowedPrefixes.contains(where: { path.hasPrefix($0) && path.count > $0.count }) {
            throw RegistryError(
                .invalidTheme,
                "\(context): key 'rules': \(InputQuote.text(path)): a module sets only rules.named.<name>, rules.animations.<name> and rules.view.<name>")
        }
        let theme: Theme
        do { theme = try Theme.builtIn.applying(entries) } catch {
            throw RegistryError(.invalidTheme, "\(context): key 'rules': \(error)")
        }
        tokens = entries
        named = theme.namedRules
    }

    /// `view` with every class naming one of this module's named rules replaced by the rule's
    /// classes, recursively and in place (`NamedRules.expand`).
    public func scoping(_ view: ViewNode) -> ViewNode {
        guard !named.isEmpty else { return view }
        var copy = view
        if let classes = copy.props.classes, let expanded = NamedRules.expand(classes, rules: named) {
            copy.props.classes = expanded
        }
        copy.children = copy.children.map(scoping)
        return copy
    }
}

extension ModuleRules {
    /// `unknown-class` for each rule name nobody defines on an animation-scope node written
    /// the way `.twAnimation` writes one: `animation_value` set and every class either an
    /// animation class or a plain name (`ClassList.isPlainName`). `.twAnimation` keeps plain
    /// names so named rules work there; a misspelt one must not vanish without a word.
    /// Read after the module's own rules were expanded, against the theme's.
    static func unresolvedScopeNames(in root: ViewNode, slot: String, themeRules: [String: String]) -> [Diagnostic] {
        var found: [Diagnostic] = []
        visit(root, path: slot, themeRules: themeRules, into: &found)
        return found
    }

    private static func visit(_ node: ViewNode, path: String, themeRules: [String: String], into found: inout [Diagnostic]) {
        if node.props.animationValue != nil, let classes = node.props.classes {
            let tokens = classes.split(whereSeparator: { $0.isWhitespace }).map(String.init)
            let plain = tokens.filter(ClassList.isPlainName)
            let scopeOnly = tokens.allSatisfy { ClassList.isPlainName($0) || !ClassList(parsing: $0).animation.isEmpty }
            if scopeOnly {
                for name in plain where themeRules[name] == nil {
                    found.append(Diagnostic(
                        .unknownClass, .warning,
                        "\"\(InputQuote.text(name))\" on an animation scope names no rule in the module's rules.named or the theme's; "
                            + "it is passed to renderers as written and gives the scope no animation",
                        path: NodePath.prop(path, "classes"), id: name))
                }
            }
        }
        for (index, child) in node.children.enumerated() {
            visit(child, path: path + "/" + String(index), themeRules: themeRules, into: &found)
        }
    }
}
