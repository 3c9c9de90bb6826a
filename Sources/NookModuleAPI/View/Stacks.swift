import NookCore
/// Children one above the other: a `vstack` node.
///
/// `alignment` places children across the axis (`.leading`, `.center`, `.trailing`);
/// `spacing` is the gap between them (nil: the broker's adaptive default).
public struct VStack: NookView {
    public typealias Body = Never
    let node: ViewNode
    let actions: ViewActions

    public init(alignment: Alignment? = nil, spacing: Double? = nil, @NookViewBuilder content: () -> some NookView) {
        let content = content()._encode()
        node = stackNode(.vstack, alignment: alignment, spacing: spacing, content.nodes)
        actions = content.actions
    }

    public func _encode() -> EncodedView { EncodedView(node, actions: actions) }
}

/// Children side by side: an `hstack` node. `alignment` is `.top`, `.center` or `.bottom`.
public struct HStack: NookView {
    public typealias Body = Never
    let node: ViewNode
    let actions: ViewActions

    public init(alignment: Alignment? = nil, spacing: Double? = nil, @NookViewBuilder content: () -> some NookView) {
        let content = content()._encode()
        node = stackNode(.hstack, alignment: alignment, spacing: spacing, content.nodes)
        actions = content.actions
    }

    public func _encode() -> EncodedView { EncodedView(node, actions: actions) }
}

/// Children on top of each other, later ones in front: a `zstack` node.
public struct ZStack: NookView {
    public typealias Body = Never
    let node: ViewNode
    let actions: ViewActions

    public init(alignment: Alignment? = nil, @NookViewBuilder content: () -> some NookView) {
        let content = content()._encode()
        node = stackNode(.zstack, alignment: alignment, spacing: nil, content.nodes)
        actions = content.actions
    }

    public func _encode() -> EncodedView { EncodedView(node, actions: actions) }
}

private func stackNode(_ kind: NodeKind, alignment: Alignment?, spacing: Double?, _ children: [ViewNode]) -> ViewNode {
    var props = NodeProps()
    props.alignment = alignment
    props.spacing = spacing
    return ViewNode(kind: kind, props: props, children: children)
}
