/// Every node of one laid-out tree.
///
/// `nodes` is in preorder, the same order as a preorder walk of the `ViewNode` tree that was
/// laid out, so a caller that needs props can zip the two.
public struct LayoutResult: Hashable, Sendable {
    public private(set) var nodes: [LaidOutNode]
    private var indexByPath: [String: Int]

    public init(nodes: [LaidOutNode]) {
        self.nodes = nodes
        var index: [String: Int] = [:]
        index.reserveCapacity(nodes.count)
        for (offset, node) in nodes.enumerated() { index[node.path] = offset }
        indexByPath = index
    }

    /// The root's node (the first in preorder); nil only for an empty result.
    public var root: LaidOutNode? { nodes.first }

    public subscript(path: String) -> LaidOutNode? {
        indexByPath[path].map { nodes[$0] }
    }

    public func rect(at path: String) -> Rect? { self[path]?.rect }

    /// The same layout moved by (dx, dy).
    public func offsetBy(dx: Double, dy: Double) -> LayoutResult {
        var moved = self
        for offset in moved.nodes.indices {
            moved.nodes[offset].rect = moved.nodes[offset].rect.offsetBy(dx: dx, dy: dy)
        }
        return moved
    }
}
