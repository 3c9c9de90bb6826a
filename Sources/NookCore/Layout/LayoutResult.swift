/// Every node of one laid-out tree.
///
/// `nodes` is in preorder, the same order as a preorder walk of the `ViewNode` tree that was
/// laid out, so a caller that needs props can zip the two. Lookup by path walks the tree
/// (no hash table is built: most results are read in order, and building one for every
/// layout would cost more than the layout).
public struct LayoutResult: Hashable, Sendable {
    public private(set) var nodes: [LaidOutNode]
    /// For each node, the index just past its last descendant.
    private var subtreeEnds: [Int]

    /// For each node, its index among its parent's children (0 for the root), so a node can
    /// be reached from the view's root by index without parsing its path.
    func childPositions() -> [Int] {
        var positions = [Int](repeating: 0, count: nodes.count)
        var nextChild = [Int](repeating: 0, count: nodes.count)
        nodes.withUnsafeBufferPointer { nodes in
            for index in nodes.indices {
                guard let parent = nodes[index].parentIndex else { continue }
                positions[index] = nextChild[parent]
                nextChild[parent] += 1
            }
        }
        return positions
    }

    public init(nodes: [LaidOutNode]) {
        var ends = Array(nodes.indices.map { $0 + 1 })
        for index in nodes.indices.reversed() {
            if let parent = nodes[index].parentIndex { ends[parent] = max(ends[parent], ends[index]) }
        }
        self.init(nodes: nodes, subtreeEnds: ends)
    }

    init(nodes: [LaidOutNode], subtreeEnds: [Int]) {
        self.nodes = nodes
        self.subtreeEnds = subtreeEnds
    }

    /// The rect of the node at preorder `index`, read in place (subscripting `nodes` copies
    /// the whole node, path included, in hot loops).
    func rect(atIndex index: Int) -> Rect { nodes.withUnsafeBufferPointer { $0[index].rect } }

    /// The path of the node at preorder `index`, read in place.
    func path(atIndex index: Int) -> String { nodes.withUnsafeBufferPointer { $0[index].path } }

    /// The root's node (the first in preorder); nil only for an empty result.
    public var root: LaidOutNode? { nodes.first }

    public subscript(path: String) -> LaidOutNode? {
        index(of: path).map { nodes[$0] }
    }

    public func rect(at path: String) -> Rect? { self[path]?.rect }

    /// The preorder index of the node at `path`.
    public func index(of path: String) -> Int? {
        guard let root = nodes.first, path.hasPrefix(root.path) else { return nil }
        let rest = path.utf8.dropFirst(root.path.utf8.count)
        var current = 0
        var iterator = rest.makeIterator()
        guard var byte = iterator.next() else { return 0 }
        while true {
            // Each step is "/<decimal index>".
            guard byte == UInt8(ascii: "/") else { return nil }
            var childNumber = 0
            var digits = 0
            var next: UInt8? = nil
            while let digit = iterator.next() {
                guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { next = digit; break }
                // Paths are written without leading zeros; "01" names nothing.
                if digits == 1, childNumber == 0 { return nil }
                childNumber = childNumber &* 10 &+ Int(digit - UInt8(ascii: "0"))
                digits += 1
                if digits > 9 { return nil }
            }
            guard digits > 0 else { return nil }
            var child = current + 1
            var skipped = 0
            while skipped < childNumber, child < subtreeEnds[current] {
                child = subtreeEnds[child]
                skipped += 1
            }
            guard child < subtreeEnds[current] else { return nil }
            current = child
            guard let following = next else { return current }
            byte = following
        }
    }

    /// Puts `subtree`'s rects (a layout of the subtree rooted at index `start`, same shape)
    /// in place of that subtree's rects.
    mutating func replaceRects(from start: Int, with subtree: LayoutResult) {
        let end = min(nodes.count, start + subtree.nodes.count)
        guard start >= 0, start < end else { return }
        for index in start..<end { nodes[index].rect = subtree.nodes[index - start].rect }
    }

    /// The same layout moved by (dx, dy).
    public func offsetBy(dx: Double, dy: Double) -> LayoutResult {
        var moved = self
        for offset in moved.nodes.indices {
            moved.nodes[offset].rect = moved.nodes[offset].rect.offsetBy(dx: dx, dy: dy)
        }
        return moved
    }
}
