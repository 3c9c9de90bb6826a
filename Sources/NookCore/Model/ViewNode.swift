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

/// Props every node may carry, plus the kind-specific ones (unused ones stay nil).
///
/// Stored sparsely: `classes` and `text` (on nearly every node) inline, the rest in groups
/// that are allocated only when one of their props is set, so a typical node costs a few
/// words rather than ~40 inline optionals (552 bytes per `ViewNode`). An emptied group is
/// dropped, so equal props always have equal storage and `Hashable` stays structural.
public struct NodeProps: Hashable, Sendable {
    public var classes: String?
    public var text: String?
    private var layout: PropGroupBox<LayoutProps>?
    private var identityGroup: PropGroupBox<IdentityProps>?
    private var textStyle: PropGroupBox<TextStyleProps>?
    private var graphic: PropGroupBox<GraphicProps>?
    private var progress: PropGroupBox<ProgressProps>?

    public init() {}

    /// True when any layout prop is set (frame, padding, spacing, alignment, opacity...):
    /// layout skips merging attributes for the many nodes with none.
    var hasLayoutProps: Bool { layout != nil }

    /// Every layout prop in one read (nil: none set), for code that reads several: each
    /// getter reads the group's box again, with a runtime exclusivity check each time.
    var layoutProps: LayoutProps? { layout?.value }

    public var width: Double? {
        get { layout?.value.width }
        set { PropGroupBox.edit(&layout) { $0.width = newValue } }
    }
    public var height: Double? {
        get { layout?.value.height }
        set { PropGroupBox.edit(&layout) { $0.height = newValue } }
    }
    public var minWidth: Double? {
        get { layout?.value.minWidth }
        set { PropGroupBox.edit(&layout) { $0.minWidth = newValue } }
    }
    public var maxWidth: Double? {
        get { layout?.value.maxWidth }
        set { PropGroupBox.edit(&layout) { $0.maxWidth = newValue } }
    }
    public var minHeight: Double? {
        get { layout?.value.minHeight }
        set { PropGroupBox.edit(&layout) { $0.minHeight = newValue } }
    }
    public var maxHeight: Double? {
        get { layout?.value.maxHeight }
        set { PropGroupBox.edit(&layout) { $0.maxHeight = newValue } }
    }
    public var padding: EdgeInsets? {
        get { layout?.value.padding }
        set { PropGroupBox.edit(&layout) { $0.padding = newValue } }
    }
    public var opacity: Double? {
        get { layout?.value.opacity }
        set { PropGroupBox.edit(&layout) { $0.opacity = newValue } }
    }
    public var spacing: Double? {
        get { layout?.value.spacing }
        set { PropGroupBox.edit(&layout) { $0.spacing = newValue } }
    }
    public var alignment: Alignment? {
        get { layout?.value.alignment }
        set { PropGroupBox.edit(&layout) { $0.alignment = newValue } }
    }
    public var stagger: Bool? {
        get { layout?.value.stagger }
        set { PropGroupBox.edit(&layout) { $0.stagger = newValue } }
    }
    public var minLength: Double? {
        get { layout?.value.minLength }
        set { PropGroupBox.edit(&layout) { $0.minLength = newValue } }
    }

    /// `""` for an anonymous group, a name for `group/<name>`, nil when not a group via props.
    public var group: String? {
        get { identityGroup?.value.group }
        set { PropGroupBox.edit(&identityGroup) { $0.group = newValue } }
    }
    public var groupState: [String: Bool]? {
        get { identityGroup?.value.groupState }
        set { PropGroupBox.edit(&identityGroup) { $0.groupState = newValue } }
    }
    public var identity: String? {
        get { identityGroup?.value.identity }
        set { PropGroupBox.edit(&identityGroup) { $0.identity = newValue } }
    }
    public var role: NodeRole? {
        get { identityGroup?.value.role }
        set { PropGroupBox.edit(&identityGroup) { $0.role = newValue } }
    }
    public var animationValue: String? {
        get { identityGroup?.value.animationValue }
        set { PropGroupBox.edit(&identityGroup) { $0.animationValue = newValue } }
    }
    public var shared: SharedMark? {
        get { identityGroup?.value.shared }
        set { PropGroupBox.edit(&identityGroup) { $0.shared = newValue } }
    }
    /// `animate` b on a view's root (`SetContent`): false asks for the new view without animation.
    public var animate: Bool? {
        get { identityGroup?.value.animate }
        set { PropGroupBox.edit(&identityGroup) { $0.animate = newValue } }
    }
    /// An id (SPEC rule 1): the node is a control, and a press sends this to its module.
    public var action: String? {
        get { identityGroup?.value.action }
        set { PropGroupBox.edit(&identityGroup) { $0.action = newValue } }
    }
    /// The control's accessible name ("Pause"); renderers fall back to the text inside.
    public var actionLabel: String? {
        get { identityGroup?.value.actionLabel }
        set { PropGroupBox.edit(&identityGroup) { $0.actionLabel = newValue } }
    }
    public var name: String? {
        get { identityGroup?.value.name }
        set { PropGroupBox.edit(&identityGroup) { $0.name = newValue } }
    }
    public var params: [String: PropValue]? {
        get { identityGroup?.value.params }
        set { PropGroupBox.edit(&identityGroup) { $0.params = newValue } }
    }

    public var fontSize: Double? {
        get { textStyle?.value.fontSize }
        set { PropGroupBox.edit(&textStyle) { $0.fontSize = newValue } }
    }
    public var fontWeight: String? {
        get { textStyle?.value.fontWeight }
        set { PropGroupBox.edit(&textStyle) { $0.fontWeight = newValue } }
    }
    public var monospacedDigits: Bool? {
        get { textStyle?.value.monospacedDigits }
        set { PropGroupBox.edit(&textStyle) { $0.monospacedDigits = newValue } }
    }
    /// Unix microseconds; the renderer counts down locally.
    public var timerEnd: Int64? {
        get { textStyle?.value.timerEnd }
        set { PropGroupBox.edit(&textStyle) { $0.timerEnd = newValue } }
    }

    public var symbol: String? {
        get { graphic?.value.symbol }
        set { PropGroupBox.edit(&graphic) { $0.symbol = newValue } }
    }
    public var uri: String? {
        get { graphic?.value.uri }
        set { PropGroupBox.edit(&graphic) { $0.uri = newValue } }
    }
    public var shape: ShapeKind? {
        get { graphic?.value.shape }
        set { PropGroupBox.edit(&graphic) { $0.shape = newValue } }
    }
    public var cornerRadius: Double? {
        get { graphic?.value.cornerRadius }
        set { PropGroupBox.edit(&graphic) { $0.cornerRadius = newValue } }
    }
    public var color: String? {
        get { graphic?.value.color }
        set { PropGroupBox.edit(&graphic) { $0.color = newValue } }
    }

    public var value: Double? {
        get { progress?.value.value }
        set { PropGroupBox.edit(&progress) { $0.value = newValue } }
    }
    public var start: Int64? {
        get { progress?.value.start }
        set { PropGroupBox.edit(&progress) { $0.start = newValue } }
    }
    public var end: Int64? {
        get { progress?.value.end }
        set { PropGroupBox.edit(&progress) { $0.end = newValue } }
    }
    public var progressStyle: ProgressStyle? {
        get { progress?.value.progressStyle }
        set { PropGroupBox.edit(&progress) { $0.progressStyle = newValue } }
    }
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
