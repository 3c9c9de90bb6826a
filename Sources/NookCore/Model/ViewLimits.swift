/// The size limits a view tree must respect before the broker accepts it.
///
/// One module must never be able to starve the broker or the other modules, so every view is
/// checked against these before anything else touches it. Every limit is configurable (tests
/// and benchmarks use small or large ones); `standard` is what `nookd` uses.
public struct ViewLimits: Hashable, Sendable {
    /// Most nodes in one view (one slot's tree), the root included.
    public var maxNodes: Int = 4096
    /// Deepest nesting: the root is at depth 1, its children at depth 2, and so on.
    public var maxDepth: Int = 32
    /// Longest free-text string prop (`text`, `uri`, `classes`, `animation_value`, ...), in UTF-8 bytes.
    public var maxStringBytes: Int = 4096
    /// Longest short name (`font_weight`, `symbol`, custom view `name`), in UTF-8 bytes.
    public var maxNameBytes: Int = 256
    /// Most entries in one `params` or `group_state` dictionary, counted through nested values.
    public var maxParamEntries: Int = 256
    /// Deepest nesting of containers inside `params`.
    public var maxParamDepth: Int = 8 

    /// The limits `nookd` enforces: 4096 nodes, depth 32, 4 KiB strings, 256-byte names,
    /// 256 param entries nested at most 8 deep. Ids are always 1..128 characters (`Identifier`).
    public static let standard = ViewLimits()
}
