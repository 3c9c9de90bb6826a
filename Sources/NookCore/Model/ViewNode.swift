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

/// Props every node may carry, plus the kind-specific ones (unused ones stay nil).
public struct NodeProps: Hashable, Sendable {
    // Frame and spacing.
    public var width: Double?
    public var height: Double?
    public var minWidth: Double?
    public var maxWidth: Double?
    public var minHeight: Double?
    public var maxHeight: Double?
    public var padding: EdgeInsets?
    public var opacity: Double?
    // Classes, groups, identity and motion.
    public var classes: String?
    /// `""` for an anonymous group, a name for `group/<name>`, nil when not a group via props.
    public var group: String?
    public var groupState: [String: Bool]?
    public var identity: String?
    public var role: NodeRole?
    public var animationValue: String?
    public var shared: SharedMark?
    // Stacks.
    public var spacing: Double?
    public var alignment: Alignment?
    public var stagger: Bool?
    // Text.
    public var text: String?
    public var fontSize: Double?
    public var fontWeight: String?
    public var monospacedDigits: Bool?
    /// Unix microseconds; the renderer counts down locally.
    public var timerEnd: Int64?
    // Image.
    public var symbol: String?
    public var uri: String?
    // Shape.
    public var shape: ShapeKind?
    public var cornerRadius: Double?
    public var color: String?
    // Progress.
    public var value: Double?
    public var start: Int64?
    public var end: Int64?
    public var progressStyle: ProgressStyle?
    // Spacer.
    public var minLength: Double?
    // Custom view.
    public var name: String?
    public var params: [String: PropValue]?
    // Updates.
    /// `animate` b on a view's root (`SetContent`): false asks for the new view without animation.
    public var animate: Bool?
    // Controls (contract 1.1, Touch).
    /// An id (SPEC rule 1): the node is a control, and a press sends this to its module.
    public var action: String?
    /// The control's accessible name ("Pause"); renderers fall back to the text inside.
    public var actionLabel: String?

    public init() {}
}

/// A validated view node: what layout, matching and planning work on.
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
}
