import NookCore
/// A view already turned into nodes: what result builders produce and modifiers return.
///
/// Usually one node; a `ForEach` or `Group` yields several, and a modifier applies to each of
/// them (as SwiftUI applies a modifier on a group to each child). `EmptyView` and an `if`
/// without `else` whose condition is false yield none.
public struct EncodedView: NookView, Hashable, Sendable {
    public typealias Body = Never

    var pieces: [Piece]
    /// The closures of the controls among the pieces, by (provisional or explicit) action id.
    var actions = ViewActions()

    init() { pieces = [] }
    init(_ node: ViewNode, actions: ViewActions = ViewActions()) {
        pieces = [Piece(node: node)]
        self.actions = actions
    }
    init(pieces: [Piece], actions: ViewActions = ViewActions()) {
        self.pieces = pieces
        self.actions = actions
    }
    /// The views one after the other, with all their closures.
    init(joining parts: [EncodedView]) {
        pieces = parts.flatMap(\.pieces)
        actions = ViewActions.merged(parts.map(\.actions))
    }

    /// The nodes, in order.
    public var nodes: [ViewNode] { pieces.map(\.node) }

    public func _encode() -> EncodedView { self }

    /// The slot root as sent, with control ids derived from their place under `key` (the
    /// slot or view key: `expanded`, `home`), and the closures by those ids.
    func finalizedRoot(key: String) -> (node: ViewNode, actions: ViewActions) {
        actions.finalized(InstanceNamespaces.resolve(rawRootNode), key: key)
    }

    /// One node for a slot root; see `NookView.viewNode`. Control ids are derived under the
    /// key `view`.
    var rootNode: ViewNode { finalizedRoot(key: "view").node }

    private var rawRootNode: ViewNode {
        switch pieces.count {
        case 0: ViewNode(kind: .zstack)
        case 1: pieces[0].node
        default: ViewNode(kind: .vstack, children: nodes)
        }
    }
}

/// One encoded node and how many wrappers the SDK put around the view it was built from.
struct Piece: Hashable, Sendable {
    var node: ViewNode
    /// 0 when `node` is the view itself; n when `node` is the outermost of n single-child
    /// `zstack` wrappers that modifiers added (see `Layers`).
    var wrappers: Int = 0
}
