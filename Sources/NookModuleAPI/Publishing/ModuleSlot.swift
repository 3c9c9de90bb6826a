/// The slots of module-level content.
public enum ModuleSlot: String, Hashable, Sendable, CaseIterable {
    case compactLeading = "compact_leading"
    case compactTrailing = "compact_trailing"
    case home
    case widget
}
