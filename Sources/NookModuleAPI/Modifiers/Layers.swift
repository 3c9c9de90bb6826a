import NookCore
/// How modifiers turn into props, and when they need a wrapper node (SPEC rule 24).
///
/// A modifier applies to the view as built so far. The contract has one node per view with a
/// fixed box model (content, then padding, then frame; see docs/layout.md) and marks,
/// classes and scopes that cover the node's whole subtree. So a modifier is written onto the
/// same node when that gives the same result as wrapping, and otherwise onto a new `zstack`
/// with the view as its only child (a `zstack` adds nothing of its own: it is as big as its
/// child and centres it, which is what a SwiftUI frame does).
///
/// Layers, inside out: content, padding, frame, appearance (opacity, other classes), marks,
/// animation scope. A modifier merges unless the node already has something in a layer that
/// would have to be *inside* it, or the same thing on the same axis:
///
/// | adding | wraps when the node already has |
/// |---|---|
/// | padding (`.padding`, `p-*`) | a frame, appearance classes, a mark, an animation scope, or class padding |
/// | frame on an axis (`.frame`, `w-*`, `h-*`, `size-*`) | a frame on that axis, appearance classes, a mark, an animation scope, an off-centre `alignment` |
/// | opacity | a mark, an animation scope |
/// | appearance classes (anything not below) | opacity, a mark, an animation scope |
/// | `shared` (`.nookSharedElement`, `.twShared`) | a `shared` mark, an animation scope |
/// | `shared-[id]`, `shared-*` options | a `shared-[id]` class, an animation scope |
/// | a group | a group |
/// | an animation scope (`animate-*`, `duration-*`, `delay-*`, `value:`) | an animation scope |
///
/// Padding on padding adds up and opacity on opacity multiplies, as nesting would. Identity,
/// role, group state and stagger never wrap. So `.twShared` before `.frame` marks the inner
/// view and the frame goes on a wrapper (the broker interpolates the inner view's size),
/// while `.tw(...)` before `.twShared` puts the mark on the styled node itself.
struct Layers: Equatable {
    var paddingProp = false
    var paddingClass = false
    var frameWidth = false
    var frameHeight = false
    var opacity = false
    /// Classes that are neither layout, marks, groups nor animation: backgrounds, variants...
    var appearance = false
    var mark = false
    var classMark = false
    var group = false
    var animation = false
    /// A container that aligns its children off-centre: a frame on it would move them within
    /// the frame, where a SwiftUI frame moves the container as a whole.
    var alignedContent = false

    init() {}

    /// What a node already carries.
    init(_ props: NodeProps) {
        if let classes = props.classes { self = Layers(classes: classes) }
        paddingProp = props.padding != nil
        frameWidth = frameWidth || props.width != nil || props.minWidth != nil || props.maxWidth != nil
        frameHeight = frameHeight || props.height != nil || props.minHeight != nil || props.maxHeight != nil
        opacity = props.opacity != nil
        mark = props.shared != nil
        group = group || props.group != nil
        animation = animation || props.animationValue != nil
        alignedContent = props.alignment != nil && props.alignment != .center
    }

    /// What a class string carries. Anything the parser could not place (a malformed class, a
    /// named rule only the theme knows) counts as appearance, the cautious choice.
    init(classes: String) {
        let list = ClassList(parsing: classes)
        for utility in list.layout {
            switch utility {
            case .width: frameWidth = true
            case .height: frameHeight = true
            case .size: frameWidth = true; frameHeight = true
            case .padding: paddingClass = true
            case .gap: break
            }
        }
        appearance = !list.passthrough.isEmpty || !list.variants.isEmpty || !list.diagnostics.isEmpty
        classMark = list.shared != nil || list.sharedProperties != nil || list.sharedRole != nil
        group = list.group != nil
        animation = !list.animation.isEmpty
    }

    /// True when `addition` can go onto a node carrying `self` with the same meaning as a wrapper.
    func accepts(_ addition: Layers) -> Bool {
        let covering = mark || classMark || animation
        if addition.paddingProp && (paddingClass || frameWidth || frameHeight || appearance || covering) { return false }
        if addition.paddingClass && (paddingProp || paddingClass || frameWidth || frameHeight || appearance || covering) {
            return false
        }
        if addition.frameWidth && (frameWidth || appearance || covering || alignedContent) { return false }
        if addition.frameHeight && (frameHeight || appearance || covering || alignedContent) { return false }
        if addition.opacity && covering { return false }
        if addition.appearance && (opacity || covering) { return false }
        if addition.mark && (mark || animation) { return false }
        if addition.classMark && (classMark || animation) { return false }
        if addition.group && group { return false }
        if addition.animation && animation { return false }
        return true
    }
}

extension EncodedView {
    /// Applies a modifier to each piece: onto its node when `adding` merges, else onto a new
    /// `zstack` wrapper around it (always when `forceWrap`).
    func modified(adding: Layers, forceWrap: Bool = false, _ apply: (inout NodeProps) -> Void) -> EncodedView {
        EncodedView(
            pieces: pieces.map { piece in
                var piece = piece
                if forceWrap || !Layers(piece.node.props).accepts(adding) {
                    piece = Piece(node: ViewNode(kind: .zstack, children: [piece.node]), wrappers: piece.wrappers + 1)
                }
                apply(&piece.node.props)
                return piece
            }, actions: actions)
    }

    /// Applies `apply` to a node of each piece chosen by `target` among the wrapper chain
    /// (outermost first, ending with the view itself), never adding a wrapper.
    func modifiedInPlace(target: ([ViewNode]) -> Int, _ apply: (inout ViewNode) -> Void) -> EncodedView {
        EncodedView(
            pieces: pieces.map { piece in
                var piece = piece
                var chain = [piece.node]
                for _ in 0..<piece.wrappers { chain.append(chain[chain.count - 1].children[0]) }
                let depth = target(chain)
                piece.node = Self.rewrite(piece.node, depth: depth, apply)
                return piece
            }, actions: actions)
    }

    private static func rewrite(_ node: ViewNode, depth: Int, _ apply: (inout ViewNode) -> Void) -> ViewNode {
        var node = node
        if depth == 0 {
            apply(&node)
        } else {
            node.children[0] = rewrite(node.children[0], depth: depth - 1, apply)
        }
        return node
    }
}

extension NodeProps {
    /// Appends classes to the node's class string.
    mutating func appendClasses(_ more: String) {
        let trimmed = more.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        guard !trimmed.isEmpty else { return }
        classes = classes.map { $0.isEmpty ? trimmed : $0 + " " + trimmed } ?? trimmed
    }
}
