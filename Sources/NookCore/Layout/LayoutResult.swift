/// Every node of one laid-out tree.
///
/// Nodes are in preorder, the same order as a preorder walk of the `ViewNode` tree that was
/// laid out, so a caller that needs props can zip the two. Inside NookCore a node is known by
/// that preorder index; its path string (`expanded/0/2`) is built only when asked for
/// (`path(atIndex:)`, `nodes`), which the wire encoders and the few diagnostics do. Lookup by
/// path walks the tree (no hash table is built: most results are read in order, and building
/// one for every layout would cost more than the layout).
public struct LayoutResult: Hashable, Sendable {
    /// The root's path: the slot's root path (`expanded`, `music/song:minimal`).
    public private(set) var rootPath: String
    /// Each record also holds its subtree's end, so a result is one array.
    private var records: [Record]

    /// One node without its path: small and free of references, so copies and walks are cheap.
    struct Record: Hashable, Sendable {
        var kind: NodeKind
        var rect: Rect
        /// Index of the parent; -1 for the root.
        var parent: Int32
        /// Its index among its parent's children (0 for the root).
        var childPosition: Int32
        /// The index just past its last descendant (follows from the others, so equal
        /// results still compare equal).
        var subtreeEnd: Int32
    }

    /// Every node with its path, in preorder (`parentIndex` is nil for the root). Builds each
    /// path: read `rect(atIndex:)`, `kind(atIndex:)` and `path(atIndex:)` where only some are
    /// needed. A row of this table, not a node type of its own: the layout's nodes are its
    /// records.
    public var nodes: [(path: String, kind: NodeKind, rect: Rect, parentIndex: Int?)] {
        var out: [(path: String, kind: NodeKind, rect: Rect, parentIndex: Int?)] = []
        out.reserveCapacity(records.count)
        var paths: [String] = []
        paths.reserveCapacity(records.count)
        for index in records.indices {
            let record = records[index]
            let path: String
            if record.parent < 0 {
                path = rootPath
            } else {
                var built = paths[Int(record.parent)]
                NodePath.appendChild(Int(record.childPosition), to: &built)
                path = built
            }
            paths.append(path)
            out.append((path, record.kind, record.rect, record.parent < 0 ? nil : Int(record.parent)))
        }
        return out
    }

    /// The number of nodes.
    public var count: Int { records.count }

    /// A result from nodes with paths (the root's path and each node's parent index are kept;
    /// the other paths follow from the tree's shape).
    public init(nodes: [(path: String, kind: NodeKind, rect: Rect, parentIndex: Int?)]) {
        var ends = Array(nodes.indices.map { $0 + 1 })
        for index in nodes.indices.reversed() {
            if let parent = nodes[index].parentIndex { ends[parent] = max(ends[parent], ends[index]) }
        }
        var nextChild = [Int32](repeating: 0, count: nodes.count)
        var records: [Record] = []
        records.reserveCapacity(nodes.count)
        for node in nodes {
            var position: Int32 = 0
            if let parent = node.parentIndex {
                position = nextChild[parent]
                nextChild[parent] += 1
            }
            records.append(Record(kind: node.kind, rect: node.rect, parent: Int32(node.parentIndex ?? -1), childPosition: position,
                                  subtreeEnd: Int32(ends[records.count])))
        }
        self.init(rootPath: nodes.first?.path ?? "", records: records)
    }

    init(rootPath: String, records: [Record]) {
        self.rootPath = rootPath
        self.records = records
    }

    /// The rect of the node at preorder `index`, read in place.
    func rect(atIndex index: Int) -> Rect { records.withUnsafeBufferPointer { $0[index].rect } }

    /// The kind of the node at preorder `index`.
    func kind(atIndex index: Int) -> NodeKind { records.withUnsafeBufferPointer { $0[index].kind } }

    /// The parent of the node at preorder `index`; nil for the root.
    func parentIndex(atIndex index: Int) -> Int? {
        let parent = records.withUnsafeBufferPointer { $0[index].parent }
        return parent < 0 ? nil : Int(parent)
    }

    /// The index just past the last descendant of the node at preorder `index`.
    func subtreeEnd(atIndex index: Int) -> Int { Int(records[index].subtreeEnd) }

    /// The path of the node at preorder `index`, built from its ancestors' child positions.
    func path(atIndex index: Int) -> String {
        withSteps(toIndex: index) { NodePath.descendant(of: rootPath, steps: $0) }
    }

    /// Calls `body` with the child positions from the root down to the node at preorder
    /// `index`, held in temporary storage rather than a new array.
    func withSteps<R>(toIndex index: Int, _ body: (UnsafeBufferPointer<Int>) -> R) -> R {
        records.withUnsafeBufferPointer { records in
            var depth = 0
            var current = index
            while records[current].parent >= 0 {
                depth += 1
                current = Int(records[current].parent)
            }
            return withUnsafeTemporaryAllocation(of: Int.self, capacity: max(depth, 1)) { buffer in
                var at = depth
                current = index
                while records[current].parent >= 0 {
                    at -= 1
                    buffer[at] = Int(records[current].childPosition)
                    current = Int(records[current].parent)
                }
                return body(UnsafeBufferPointer(rebasing: buffer[0..<depth]))
            }
        }
    }

    /// The root (the first in preorder); nil only for an empty result.
    public var root: (path: String, kind: NodeKind, rect: Rect)? {
        records.first.map { (rootPath, $0.kind, $0.rect) }
    }

    /// The root's rect (the first in preorder), without building its node (nor copying the path).
    var rootRect: Rect? { records.first?.rect }

    /// The node at `path`: its kind, rect and parent's index (nil for the root).
    public subscript(path: String) -> (kind: NodeKind, rect: Rect, parentIndex: Int?)? {
        index(of: path).map { index in (records[index].kind, records[index].rect, parentIndex(atIndex: index)) }
    }

    public func rect(at path: String) -> Rect? { index(of: path).map { records[$0].rect } }

    /// The preorder index of the node at `path`.
    public func index(of path: String) -> Int? {
        guard !records.isEmpty, path.hasPrefix(rootPath) else { return nil }
        let rest = path.utf8.dropFirst(rootPath.utf8.count)
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
            let end = Int(records[current].subtreeEnd)
            while skipped < childNumber, child < end {
                child = Int(records[child].subtreeEnd)
                skipped += 1
            }
            guard child < end else { return nil }
            current = child
            guard let following = next else { return current }
            byte = following
        }
    }

    /// Puts `subtree`'s rects (a layout of the subtree rooted at index `start`, same shape)
    /// in place of that subtree's rects.
    mutating func replaceRects(from start: Int, with subtree: LayoutResult) {
        let end = min(records.count, start + subtree.records.count)
        guard start >= 0, start < end else { return }
        for index in start..<end { records[index].rect = subtree.records[index - start].rect }
    }

    /// The same layout moved by (dx, dy).
    public func offsetBy(dx: Double, dy: Double) -> LayoutResult {
        var moved = self
        moved.offset(dx: dx, dy: dy)
        return moved
    }

    /// Moves this layout by (dx, dy) in place (no copy of the records when unshared).
    mutating func offset(dx: Double, dy: Double) {
        records.withUnsafeMutableBufferPointer { records in
            for index in records.indices { records[index].rect = records[index].rect.offsetBy(dx: dx, dy: dy) }
        }
    }
}
