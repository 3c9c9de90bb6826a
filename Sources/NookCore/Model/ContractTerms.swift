/// The contract's terms that the broker, the SDK and renderers all speak, defined once here.

/// Module-level slots (`SetContent`).
public enum ModuleSlot: String, Hashable, Sendable, CaseIterable, Comparable {
    case compactLeading = "compact_leading"
    case compactTrailing = "compact_trailing"
    case home
    case widget

    public var isCompact: Bool { self == .compactLeading || self == .compactTrailing }
    public static func < (lhs: ModuleSlot, rhs: ModuleSlot) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// An activity's views (`StartActivity` keys).
public enum ActivitySlot: String, Hashable, Sendable, CaseIterable, Comparable {
    case compactLeading = "compact_leading"
    case compactTrailing = "compact_trailing"
    case minimal
    case peek
    case expanded

    public var isRequired: Bool { self != .peek && self != .expanded }
    public static func < (lhs: ActivitySlot, rhs: ActivitySlot) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// How an ending activity leaves the screen (`EndActivity`'s `dismissal`).
public enum Dismissal: String, Hashable, Sendable, CaseIterable {
    /// The broker's usual policy.
    case `default`
    /// At once.
    case immediate
}
