/// A view read straight off the wire and already validated: what a reader that walks the
/// message itself (NookBus's `PropReader`) hands the registry instead of a `RawNode`, so a good
/// view is never built as a loosely typed tree, validated into a `ViewNode`, then freed.
public struct ReadView: Sendable {
    public var root: ViewNode
    /// `PropValue.node(_:).estimatedWireBytes` of the tree as it came: what the payload limit
    /// charges it, as it charges a view read the general way.
    public var wireBytes: Int
}

/// Which keys of an `a{sv}` argument hold views to read straight into `ReadView`s (a call's
/// slot keys), and the limits those views are read under (the registry's `ViewLimits`).
public struct ViewReading: Sendable {
    public var keys: Set<String>
    public var limits: ViewLimits

    public init(keys: Set<String>, limits: ViewLimits) {
        self.keys = keys
        self.limits = limits
    }
}

/// `ViewValidator`'s checks for good input only, taken a node and a prop at a time in the
/// order a reader of the message meets them. Anything the validator would refuse or comment
/// on (an unknown kind or key, a key twice, a bad value, too many nodes or levels, an unknown
/// symbol, a shared key it does not know) makes a step answer nil or false: the caller then
/// reads the message again the general way, and the validator names the problem as it always
/// has. So a view read here is the `ViewNode` the validator would return, with no diagnostics.
/// `OnePassViewTests` compares the two.
public struct OnePassView {
    let limits: ViewLimits
    private var nodeCount = 0

    /// One view's reading (the limits count per view, as one `validate` call counts them).
    public init(limits: ViewLimits) { self.limits = limits }

    /// A node of kind `name` at `depth` (the root's is 1), or nil where the validator would
    /// refuse it.
    public mutating func node(kind name: String, depth: Int) -> OnePassNode? {
        nodeCount += 1
        guard nodeCount <= limits.maxNodes, depth <= limits.maxDepth, let kind = ViewValidator.kind(named: name) else { return nil }
        return OnePassNode(kind: kind, limits: limits, wireBytes: 16 + name.utf8.count)
    }
}

/// One node of an `OnePassView`: its props as they are read, then its children.
public struct OnePassNode {
    public let kind: NodeKind
    private var props = NodeProps()
    private var reader: OnePassReader
    private var seen: UInt64 = 0
    /// `RawNode.estimatedWireBytes` of what has been read of the node so far.
    private var wireBytes: Int

    init(kind: NodeKind, limits: ViewLimits, wireBytes: Int) {
        self.kind = kind
        reader = OnePassReader(limits: limits)
        self.wireBytes = wireBytes
    }

    /// Reads the prop `name`; false where the validator would refuse it or say something
    /// about it (a key the kind does not read, a key twice, a value out of its domain).
    public mutating func take(_ name: String, _ value: PropValue) -> Bool {
        guard let key = PropKey.named(name), NodePropsReader.reads(kind, key), seen & key.bit == 0 else { return false }
        seen |= key.bit
        guard reader.read(key, value, into: &props) else { return false }
        wireBytes += 9 + name.utf8.count + value.estimatedWireBytes
        return true
    }

    /// The node, with its children (each read by the same `OnePassView`) and the wire bytes of
    /// the whole subtree; nil where the validator would refuse it or say something about it.
    public func finish(children: [ReadView]) -> ReadView? {
        guard holds(childCount: children.count) else { return nil }
        var bytes = wireBytes
        var nodes: [ViewNode] = []
        nodes.reserveCapacity(children.count)
        for child in children {
            nodes.append(child.root)
            bytes += 4 + child.wireBytes
        }
        return ReadView(root: ViewNode(kind: kind, props: props, children: nodes), wireBytes: bytes)
    }

    /// The checks of the node as a whole, its props all taken: a shared key the contract does
    /// not know, sizes out of order, an unknown symbol, children where the kind draws none.
    func holds(childCount: Int) -> Bool {
        guard reader.sharedUnknown.isEmpty, OnePassReader.checksHold(props) else { return false }
        if kind == .image, let symbol = props.symbol, SymbolNames.iconName(for: symbol) == nil { return false }
        return childCount == 0 || kind.isStack || kind == .view
    }
}

extension OnePassView {
    /// Whether the validator would take `view`'s wire form (`view.rawNode`) without a word,
    /// worked out without building it: what the SDK checks before sending a view it built. A
    /// view that does not pass is validated the general way, for the words.
    public mutating func passes(_ view: ViewNode, depth: Int = 1) -> Bool {
        guard var node = node(kind: view.kind.rawValue, depth: depth) else { return false }
        var good = true
        view.props.forEachRawProp { name, value in
            if good, !node.take(name, value) { good = false }
        }
        guard good, node.holds(childCount: view.children.count) else { return false }
        for child in view.children where !passes(child, depth: depth + 1) { return false }
        return true
    }
}
