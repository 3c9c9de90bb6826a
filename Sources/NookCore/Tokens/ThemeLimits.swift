/// How big a theme may be. A theme is resolved on every `SetTokens`, on start and on SIGHUP,
/// so its size bounds how long those take; each limit refused names itself in an
/// `InvalidTheme` (`limit-exceeded` issue).
///
/// | limit | value | charged |
/// |---|---|---|
/// | `maxTokens` | 4096 | tokens in the theme, built-in ones and overrides together |
/// | `maxAliasDepth` | 16 | alias hops from a token to its literal |
/// | `maxDocumentBytes` | 256 KiB | a `theme.json`, or one `SetTokens` call (paths and values) |
/// | `maxValueBytes` | 4096 | one token's string value (a duration, a class string) |
/// | `maxRuleDepth` | 16 | `rules.named` rules naming rules naming rules |
/// | `maxRuleClasses` | 64 | classes one `rules.named` rule expands to, nested rules included |
public enum ThemeLimits {
    public static let maxTokens = 4096
    public static let maxAliasDepth = 16
    public static let maxDocumentBytes = 256 * 1024
    public static let maxValueBytes = 4096
    /// Every class string naming a rule is expanded on layout and parsing; these keep that
    /// expansion small whatever the theme (a chain of 4,000 rules took minutes), and bound
    /// how much a module's class string can grow by naming rules (64 times at most).
    public static let maxRuleDepth = 16
    public static let maxRuleClasses = 64

    /// About how many bytes `value` takes written out: what `maxDocumentBytes` is charged
    /// with for `SetTokens`.
    static func estimatedBytes(_ value: PropValue) -> Int {
        switch value {
        case .bool, .int, .uint, .double: return 8
        case .string(let text): return 2 + text.utf8.count
        case .array(let items), .structure(let items): return items.reduce(2) { $0 + 1 + estimatedBytes($1) }
        case .dictionary(let entries): return entries.reduce(2) { $0 + 4 + $1.key.utf8.count + estimatedBytes($1.value) }
        case .node: return 0
        }
    }

    static func tooMany(_ count: Int) -> ThemeIssue {
        ThemeIssue(path: "", code: .limitExceeded, message: "the theme would hold \(count) tokens (at most \(maxTokens), maxTokens)")
    }

    /// The issue for a document or a call of `bytes` bytes, over `maxDocumentBytes`.
    public static func tooLarge(_ bytes: Int, what: String) -> ThemeIssue {
        ThemeIssue(path: "", code: .limitExceeded, message: "\(what) is \(bytes) bytes (at most \(maxDocumentBytes), maxDocumentBytes)")
    }
}
