/// Something the broker wants a module (or a theme author) to know, as data.
///
/// Diagnostics never stop work: they explain what was ignored, resolved differently or left
/// unmatched. The wire form is the contract's diagnostic `a{sv}`.
public struct Diagnostic: Hashable, Sendable {
    public var code: DiagnosticCode
    public var severity: DiagnosticSeverity
    public var message: String
    /// Where it happened, in the project's path format (`expanded/0/2.classes`), or "".
    public var path: String
    /// The module it concerns, or "" when not known at the point it was raised.
    public var module: String
    /// The activity whose view it concerns, or "" (a module-level view, or not about a view).
    public var activity: String
    /// The shared-element id it concerns, or "".
    public var id: String

    public init(
        _ code: DiagnosticCode, _ severity: DiagnosticSeverity, _ message: String,
        path: String = "", module: String = "", activity: String = "", id: String = ""
    ) {
        self.code = code
        self.severity = severity
        self.message = message
        self.path = path
        self.module = module
        self.activity = activity
        self.id = id
    }

    /// Whether it is about one element (contract 1.1: its wire form then carries `element`
    /// and `activity`).
    public var isAboutElement: Bool { !id.isEmpty }
}

public enum DiagnosticSeverity: String, Hashable, Sendable, CaseIterable {
    case info, warning, error
}

/// A stable, kebab-case diagnostic code. A struct rather than an enum so other layers can add
/// codes without touching NookCore; the ones NookCore raises are listed here.
public struct DiagnosticCode: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }

    /// A prop key validation does not know; it was ignored.
    public static let unknownKey: DiagnosticCode = "unknown-key"
    /// A malformed id in a class string (`shared-[co$ver]`); the class was ignored.
    public static let invalidId: DiagnosticCode = "invalid-id"
    /// A malformed group name in a class string (`group/`); the class was ignored.
    public static let invalidGroupName: DiagnosticCode = "invalid-group-name"
    /// A `shared-*` class or group variant with no group to resolve to; it draws plainly.
    public static let missingGroup: DiagnosticCode = "missing-group"
    /// An activity's element lost its plain `<module>/<id>` key to another activity (rule 8).
    public static let idSuffixed: DiagnosticCode = "id-suffixed"
    /// A class the parser does not recognise as anything of its own; passed to renderers.
    public static let unknownClass: DiagnosticCode = "unknown-class"
    /// A `duration-*` / `delay-*` class whose value is not a whole, non-negative millisecond count.
    public static let invalidTiming: DiagnosticCode = "invalid-timing"
    /// A class that overrides an earlier one of the same family on the same node.
    public static let conflictingClasses: DiagnosticCode = "conflicting-classes"
    /// A named rule that expands back into itself; the repeated name was dropped.
    public static let namedRuleCycle: DiagnosticCode = "named-rule-cycle"
    /// Two group nodes of one view claim the same `identity`; the later one uses its position.
    public static let duplicateGroupIdentity: DiagnosticCode = "duplicate-group-identity"
    /// `animate-<name>` (or the caller's animation) names no `rules.animations.<name>`.
    public static let unknownAnimation: DiagnosticCode = "unknown-animation"
    /// A `group-*` variant state the DSL does not define; the class passes through unresolved.
    public static let unknownVariant: DiagnosticCode = "unknown-variant"
}
