/// The node kinds of the contract's view tree.
public enum NodeKind: String, Hashable, Sendable, CaseIterable {
    case vstack, hstack, zstack, text, image, shape, progress, spacer, view

    public var isStack: Bool { self == .vstack || self == .hstack || self == .zstack }
}

public enum Alignment: String, Hashable, Sendable, CaseIterable {
    case leading, center, trailing, top, bottom
}

public enum ShapeKind: String, Hashable, Sendable, CaseIterable {
    case rect
    case roundedRect = "rounded_rect"
    case circle, capsule
}

public enum ProgressStyle: String, Hashable, Sendable, CaseIterable {
    case linear, circular
}

public enum NodeRole: String, Hashable, Sendable, CaseIterable {
    case header
    /// An addition: the control is a button, and renderers draw it as one (a rounded plate
    /// with hover and pressed highlights; an icon-only button gets the plate on hover only).
    case button
}

/// How a shared element travels (SPEC rule 5).
public enum SharedStyle: String, Hashable, Sendable, CaseIterable {
    /// Laid out at every in-between frame: artwork, images, shapes.
    case resize
    /// Laid out once at the destination size and scaled: text and numbers.
    case scale
}

/// Which geometry a match carries (SPEC rule 16).
public enum SharedProperties: String, Hashable, Sendable, CaseIterable {
    case frame, position, size
}

public enum SharedAnchor: String, Hashable, Sendable, CaseIterable {
    case center, leading, trailing, top, bottom
    case topLeading = "top_leading"
    case topTrailing = "top_trailing"
    case bottomLeading = "bottom_leading"
    case bottomTrailing = "bottom_trailing"
}

/// A node's `shared` mark: `.nookSharedElement` (namespace `""`) or `.twShared` (a caller
/// namespace). Group-scoped `shared-[id]` classes live in the class string instead.
public struct SharedMark: Hashable, Sendable {
    public var id: String
    public var style: SharedStyle
    /// `""` is the module's nook namespace; anything else names a caller namespace.
    public var namespace: String
    public var properties: SharedProperties
    public var anchor: SharedAnchor
    public var isSource: Bool

    public init(
        id: String, style: SharedStyle = .resize, namespace: String = "",
        properties: SharedProperties = .frame, anchor: SharedAnchor = .center, isSource: Bool = true
    ) {
        self.id = id
        self.style = style
        self.namespace = namespace
        self.properties = properties
        self.anchor = anchor
        self.isSource = isSource
    }

    public var isNookNamespace: Bool { namespace.isEmpty }
}

// `NodeProps`, with its accessors and storage groups, is generated from data/contract.json
// (NodeProps+Groups.swift holds the storage box).

/// A validated view node: what modules build (the SDK's views encode to it) and what layout,
/// matching and planning work on. Its own type, not a `RawNode`, because every prop in it has
/// passed the contract's checks and is typed (`NodeProps`).
public struct ViewNode: Hashable, Sendable {
    public var kind: NodeKind
    public var props: NodeProps
    public var children: [ViewNode]

    public init(kind: NodeKind, props: NodeProps = NodeProps(), children: [ViewNode] = []) {
        self.kind = kind
        self.props = props
        self.children = children
    }

    /// Number of nodes in this subtree, itself included.
    public var nodeCount: Int { children.reduce(1) { $0 + $1.nodeCount } }

    /// Sets the frame to exactly `size` (negative lengths as 0), its own minimum and maximum
    /// lengths dropped: for a subtree laid out again inside a rect that is not its own layout's
    /// (a follower on its source, a resizing element in flight).
    public mutating func fixFrame(to size: Size) {
        props.width = max(0, size.width)
        props.height = max(0, size.height)
        props.minWidth = nil
        props.maxWidth = nil
        props.minHeight = nil
        props.maxHeight = nil
    }
}
