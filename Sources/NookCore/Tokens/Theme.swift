/// The resolved design tokens: geometry, transition curves, motion timing, broker settings
/// and the class-DSL rules, with every alias followed and every value typed.
///
/// A theme is a value: `merging(json:)` and `applying(_:)` return a new theme or throw a
/// `ThemeError` listing every problem, so a bad theme is refused whole and the one in use
/// stays as it was. Built-in defaults (`Theme.builtIn`) cover every token SPEC names.
///
/// ```swift
/// var theme = Theme.builtIn
/// theme = try theme.merging(json: userThemeText)               // theme.json over the defaults
/// theme = try theme.applying(["motion.sharedElement.convert": .string("{transition.peek}")])
/// theme.dimension(at: "geometry.pill.height")                 // 32
/// theme.curve(at: "motion.sharedElement.convert")?.source     // "motion.sharedElement.convert -> transition.peek"
/// ```
public struct Theme: Hashable, Sendable {
    /// Every token as written (defaults, then overrides on top), aliases unresolved.
    var definitions: [String: TokenDefinition]
    /// Group `$type`s, so a token added under a typed group (`rules.named.card`) inherits it.
    var groupTypes: [String: TokenType]
    /// Every token, resolved, by dotted path.
    public private(set) var tokens: [String: ResolvedToken]

    init(definitions: [String: TokenDefinition], groupTypes: [String: TokenType]) throws(ThemeError) {
        self.definitions = definitions
        self.groupTypes = groupTypes
        tokens = try ThemeResolver.resolve(definitions)
    }

    /// The defaults every theme starts from.
    public static let builtIn: Theme = {
        do {
            let flat = TokenDocument.flatten(try JSONValue.parse(ThemeDefaults.json))
            precondition(flat.issues.isEmpty, "built-in theme: \(flat.issues)")
            return try Theme(definitions: flat.tokens, groupTypes: flat.groupTypes)
        } catch {
            preconditionFailure("the built-in theme must resolve: \(error)")
        }
    }()

    /// The built-in defaults with a user's DTCG document merged over them.
    public init(json: String) throws(ThemeError) {
        self = try Theme.builtIn.merging(json: json)
    }

    // MARK: Lookups

    public func token(at path: String) -> ResolvedToken? { tokens[path] }

    /// A `duration` token, in seconds.
    public func duration(at path: String) -> Double? {
        if case .duration(let seconds) = tokens[path]?.value { return seconds }
        return nil
    }

    /// A `dimension` token, in points.
    public func dimension(at path: String) -> Double? {
        if case .dimension(let points) = tokens[path]?.value { return points }
        return nil
    }

    public func number(at path: String) -> Double? {
        if case .number(let value) = tokens[path]?.value { return value }
        return nil
    }

    public func string(at path: String) -> String? {
        if case .string(let text) = tokens[path]?.value { return text }
        return nil
    }

    public func cubicBezier(at path: String) -> CubicBezier? {
        if case .cubicBezier(let points) = tokens[path]?.value { return points }
        return nil
    }

    /// The curve a curve-typed token describes, its `source` the alias chain
    /// (`motion.sharedElement.convert -> transition.convert`). A `transition` becomes a
    /// Bézier curve (linear when its timing function is the identity) with its delay; a bare
    /// `cubicBezier` runs over `rules.view.duration`. Nil for other types and unknown paths.
    public func curve(at path: String) -> Curve? {
        guard let token = tokens[path] else { return nil }
        switch token.value {
        case .spring(let spring):
            return try? Curve(.spring(spring), source: token.source)
        case .transition(let duration, let delay, let timing):
            let kind: Curve.Kind = timing == .identity ? .linear(duration: duration) : .bezier(timing, duration: duration)
            return try? Curve(kind, delay: delay, source: token.source)
        case .cubicBezier(let points):
            return try? Curve(.bezier(points, duration: duration(at: "rules.view.duration") ?? 0.3), source: token.source)
        case .duration, .dimension, .number, .string:
            return nil
        }
    }

    /// The token naming the font family text is measured and drawn in.
    public static let fontFamilyPath = "font.family"
    /// What `font.family` holds when nothing sets it: fontconfig's sans-serif alias.
    public static let defaultFontFamily = "Sans"

    /// `font.family`: a fontconfig family name or alias (`Sans`, `DejaVu Sans`).
    public var fontFamily: String { string(at: Self.fontFamilyPath) ?? Self.defaultFontFamily }

    /// Why `text` cannot be a font family (1...128 characters, no control characters); nil
    /// when it can. The renderer's `font` setting takes the same.
    static func fontFamilyProblem(_ text: String) -> String? {
        let count = text.count
        guard count >= 1, count <= 128 else { return "a font family is 1...128 characters, found \(count)" }
        if text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return "a font family holds no control characters"
        }
        return nil
    }

    /// `rules.view.withoutPreset`: what an animation scope that names no animation class
    /// runs on when the update carries no `animation` either. `caller` (the built-in theme's
    /// choice, seed 001's reading of SPEC rule 17): the caller's transaction, which is none, so
    /// the scope's new geometry applies at once. `preset`: `rules.view.preset`, the theme's
    /// default curve, an explicit choice a theme makes.
    public static let withoutPresetPath = "rules.view.withoutPreset"
    public static let withoutPresetChoices = ["caller", "preset"]

    /// True when a scope naming no animation class animates on `rules.view.preset` without
    /// the caller's animation (`rules.view.withoutPreset` is `preset`).
    public var scopesWithoutPresetUseTheDefault: Bool { string(at: Self.withoutPresetPath) == "preset" }

    /// `rules.named` as a table for the class parser: class name -> class string.
    public var namedRules: [String: String] {
        var rules: [String: String] = [:]
        for (path, token) in tokens where path.hasPrefix(ThemeResolver.namedPrefix) {
            if case .string(let text) = token.value { rules[String(path.dropFirst(ThemeResolver.namedPrefix.count))] = text }
        }
        return rules
    }
}
