/// A view already turned into nodes: what result builders produce and modifiers return.
///
/// Usually one node; a `ForEach` or `Group` yields several, and a modifier applies to each of
/// them (as SwiftUI applies a modifier on a group to each child). `EmptyView` and an `if`
/// without `else` whose condition is false yield none.
public struct EncodedView: NookView, Hashable, Sendable {
    public typealias Body = Never

    var pieces: [Piece]

    init() { pieces = [] }
    init(_ node: ViewNode) { pieces = [Piece(node: node)] }
    init(pieces: [Piece]) { self.pieces = pieces }

    /// The nodes, in order.
    public var nodes: [ViewNode] { pieces.map(\.node) }

    public func _encode() -> EncodedView { self }

    /// One node for a slot root; see `NookView.viewNode`.
    var rootNode: ViewNode {
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
