import NookCore
/// The contract's keys for `StartActivity` / `UpdateActivity`.
public enum ActivityKey {
    public static let accessibilityLabel = "accessibility_label"
    public static let compactLeading = "compact_leading"
    public static let compactTrailing = "compact_trailing"
    public static let minimal = "minimal"
    public static let peek = "peek"
    public static let expanded = "expanded"
    public static let relevance = "relevance"
    public static let staleDate = "stale_date"
    public static let sequence = "sequence"
    public static let animate = "animate"
    public static let animation = "animation"
    public static let dismissal = "dismissal"
    public static let dismissDate = "dismiss_date"
    /// An addition: false keeps a person from ending the activity by hand.
    public static let dismissible = "dismissible"
    public static let remove = "remove"
}
