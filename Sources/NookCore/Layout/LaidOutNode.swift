/// One node after layout: where it is, in absolute display points.
public struct LaidOutNode: Hashable, Sendable {
    /// The project-wide node path: the slot's root is the root path (e.g. `expanded`), each child
    /// appends `/<index>` (e.g. `expanded/0/2`).
    public var path: String
    public var kind: NodeKind
    public var rect: Rect
    /// Index of the parent in `LayoutResult.nodes`; nil for the root.
    public var parentIndex: Int?

    public init(path: String, kind: NodeKind, rect: Rect, parentIndex: Int?) {
        self.path = path
        self.kind = kind
        self.rect = rect
        self.parentIndex = parentIndex
    }
}
