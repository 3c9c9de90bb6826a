/// The places a view can be shown in; raw values are the contract's slot names.
public enum SlotName: String, Hashable, Sendable, CaseIterable {
    case compactLeading = "compact_leading"
    case compactTrailing = "compact_trailing"
    /// An activity's capsule beside the pill.
    case minimal
    case peek
    case expanded
    case home
    /// One module's cell on the board.
    case widget

    /// Slots shown several times at once (one capsule per activity, one widget per module).
    public var repeats: Bool { self == .minimal || self == .widget }

    /// The path of the slot's root node: the slot name, or `<owner>:<slot>` for a repeating
    /// slot so every node path in a scene is unique (`:` never occurs in module or activity
    /// ids, so the prefix cannot be confused with a path step).
    public func rootPath(owner: String) -> String {
        repeats ? owner + ":" + rawValue : rawValue
    }
}
