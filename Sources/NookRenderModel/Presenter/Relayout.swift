import NookCore

/// SPEC rule 5's `resize`: a travelling element's subtree laid out again, with NookCore's
/// layout engine, inside each frame's interpolated rect, so its stacks reflow and its text
/// re-wraps as the element grows or shrinks (a `scale` element is laid out once and scaled).
///
/// The subtree is rebuilt as a view once per plan (from the scene's nodes, their classes with
/// the theme's rules already expanded); each frame only lays it out, its root's frame set to
/// the frame's rect. A subtree the validator refuses (nothing the broker sends should be)
/// gives nil, and the element is drawn mapped proportionally as before.
public struct ElementRelayout: Hashable, Sendable {
    /// The element's subtree as a view, its root at `rootPath`.
    public let root: ViewNode
    public let rootPath: String

    /// A subtree given as a view (benchmarks, tests).
    public init(root: ViewNode, rootPath: String) {
        self.root = root
        self.rootPath = rootPath
    }

    init?(subtree: ArraySlice<WireSceneNode>) {
        let subtree = Array(subtree)
        guard let first = subtree.first, let raw = Self.raw(subtree, at: 0).map(\.node),
              let validated = try? ViewValidator().validate(raw, slot: first.path) else { return nil }
        root = validated.root
        rootPath = first.path
    }

    /// The node at `index` of a preorder `nodes` and its descendants as a `RawNode`; returns
    /// the index just past them.
    private static func raw(_ nodes: [WireSceneNode], at index: Int) -> (node: RawNode, end: Int)? {
        let node = nodes[index]
        var props = node.props
        for key in SceneKey.allCases { props[key.name] = nil }
        // Layout reads the classes with the theme's named rules expanded.
        if let expanded = node.props[scene: .expandedClasses] { props[.classes] = expanded }
        var children: [RawNode] = []
        var next = index + 1
        while next < nodes.count, NodePath.parent(of: nodes[next].path) == node.path {
            guard let child = raw(nodes, at: next) else { return nil }
            children.append(child.node)
            next = child.end
        }
        return (RawNode(kind: node.kind, props: props, children: children), next)
    }

    /// Every node's rect with the element laid out to fill `rect`, by path.
    public func rects(in rect: Rect, text: TextMeasurement) -> [String: Rect] {
        var sized = root
        // The element's frame is the frame's rect: its own lengths give way to it.
        sized.fixFrame(to: rect.size)
        let result = LayoutEngine.layout(sized, rootPath: rootPath, in: rect, text: text)
        var out: [String: Rect] = [:]
        // `nodes` writes every path (NookCore keeps none): read it once.
        let nodes = result.nodes
        out.reserveCapacity(nodes.count)
        for node in nodes { out[node.path] = node.rect }
        return out
    }
}
