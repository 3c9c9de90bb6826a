/// Why a theme (a JSON document or a set of token overrides) was refused, as a whole.
///
/// Every problem found is listed, each naming its token path, so one round of edits can fix
/// them all. The broker answers `org.nook.Nook1.Error.InvalidTheme` with `description`.
public struct ThemeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Sorted by path, then code.
    public var issues: [ThemeIssue]

    public init(issues: [ThemeIssue]) {
        self.issues = issues.sorted { ($0.path, $0.code.rawValue) < ($1.path, $1.code.rawValue) }
    }

    /// The first `describedIssues` issues (a refused 3,000-token chain has an issue per token;
    /// the error message stays short), then how many more there are.
    public var description: String {
        let shown = issues.prefix(Self.describedIssues).map(\.description).joined(separator: "; ")
        let more = issues.count - Self.describedIssues
        return more > 0 ? shown + "; and \(more) more issue\(more == 1 ? "" : "s")" : shown
    }

    public static let describedIssues = 10
}

public struct ThemeIssue: Hashable, Sendable, CustomStringConvertible {
    /// The token path (`motion.sharedElement.convert`), or `""` for the document as a whole.
    public var path: String
    public var code: Code
    public var message: String

    public var description: String { path.isEmpty ? message : "\(InputQuote.text(path)): \(message)" }

    public enum Code: String, Hashable, Sendable, CaseIterable {
        case invalidJSON = "invalid-json"
        /// Not a group or token where one was expected, or a malformed path or name.
        case invalidToken = "invalid-token"
        /// A `$type` this broker does not know, or a value whose type cannot be told.
        case unknownType = "unknown-type"
        /// A value or alias of one type where another is declared, or an override changing a type.
        case typeMismatch = "type-mismatch"
        case aliasCycle = "alias-cycle"
        case unknownAlias = "unknown-alias"
        /// The right type but an unusable value (negative duration, x outside 0...1).
        case invalidValue = "invalid-value"
        /// `rules.named` entries that expand into each other.
        case namedRuleCycle = "named-rule-cycle"
        /// A `ThemeLimits` limit: too many tokens, too long an alias chain, too large a document.
        case limitExceeded = "limit-exceeded"
    }
}
