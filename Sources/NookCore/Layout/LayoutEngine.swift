/// The broker's layout engine: SwiftUI's propose / accept model over `ViewNode` trees.
///
/// Contract
/// - A parent proposes a size (per axis: nil = "your ideal", or a finite length); the child
///   chooses its own size; the parent then places it. A child may choose more than it was
///   offered (a fixed frame, text that cannot get narrower): it then overflows, on purpose.
/// - Every node is a box: its frame (`width`/`height`, `min_*`/`max_*`, or the `w-`/`h-`/
///   `size-` classes) is its outer size, `padding` insets its content inside that box.
/// - Deterministic and pure: the same tree and proposal give bit-identical rects.
/// - Linear for ordinary trees: each node's size for a given proposal is computed once per
///   pass and cached, so the probes stacks make (minimum, maximum, offer) never cascade
///   into exponential re-measurement.
/// - Output: every node's absolute rect, in preorder, keyed by path (root path, then
///   `/<index>` per level). No NaN; sizes are never negative.
///
/// Usage:
/// ```swift
/// let result = LayoutEngine.layout(tree, rootPath: "expanded", proposal: ProposedSize(width: 448, height: nil))
/// let cover = result.rect(at: "expanded/0")
/// ```
public enum LayoutEngine {
    /// Gap between stack children when neither `spacing` nor `gap-*` says otherwise (none is
    /// added next to a spacer: its `min_length` plays that part).
    public static let defaultSpacing = 8.0
    /// A spacer's `min_length` when it has none.
    public static let defaultSpacerMinLength = 8.0
    /// An image's side when it has no frame and no `font_size`.
    public static let defaultImageSide = 20.0
    public static let linearProgressHeight = 4.0
    public static let circularProgressSide = 20.0
    /// A custom `view` with no children and no frame.
    public static let emptyViewSide = 20.0

    /// Lays out `root` for `proposal` with its top-left corner at `origin`.
    ///
    /// - Parameters:
    ///   - root: the tree (validated upstream; anything odd left in it is sanitised).
    ///   - rootPath: the root node's path, usually the slot name (`compact_leading`).
    ///   - proposal: the room the root is offered.
    ///   - origin: where the root's top-left corner goes, in display points.
    ///   - namedRules: `rules.named` from the theme: a class naming a rule lays out as the
    ///     rule's classes (SPEC rule 24).
    /// - Returns: every node's rect, in preorder.
    public static func layout(
        _ root: ViewNode, rootPath: String, proposal: ProposedSize, origin: Point = .zero,
        namedRules: [String: String] = [:]
    ) -> LayoutResult {
        layout(root, rootPath: rootPath, proposal: proposal, origin: origin, rules: NamedLayoutRules(namedRules))
    }

    static func layout(
        _ root: ViewNode, rootPath: String, proposal: ProposedSize, origin: Point = .zero, rules: NamedLayoutRules,
        text: TextMeasurement = .estimate
    ) -> LayoutResult {
        var pass = LayoutPass(root: root, rootPath: rootPath, rules: rules, text: text)
        return pass.run(proposal: proposal, origin: origin)
    }

    /// Lays out `root` offered `rect.size`, centred in `rect` (it may overflow `rect` when it
    /// cannot shrink to fit), measuring text with `text`.
    public static func layout(
        _ root: ViewNode, rootPath: String, in rect: Rect, text: TextMeasurement = .estimate
    ) -> LayoutResult {
        var pass = LayoutPass(root: root, rootPath: rootPath, text: text)
        let proposal = ProposedSize(rect.size)
        let size = pass.measureRoot(proposal)
        let origin = Point(x: rect.x + (rect.width - size.width) / 2, y: rect.y + (rect.height - size.height) / 2)
        return pass.run(proposal: proposal, origin: origin)
    }

    /// Lays out `root` offered `proposal`, centred horizontally in `rect` and either centred
    /// vertically or at its top (`topAligned`).
    public static func layout(
        _ root: ViewNode, rootPath: String, proposal: ProposedSize, in rect: Rect, topAligned: Bool = false
    ) -> LayoutResult {
        layout(root, rootPath: rootPath, proposal: proposal, in: rect, topAligned: topAligned, rules: .none)
    }

    static func layout(
        _ root: ViewNode, rootPath: String, proposal: ProposedSize, in rect: Rect, topAligned: Bool = false,
        rules: NamedLayoutRules, text: TextMeasurement = .estimate
    ) -> LayoutResult {
        var pass = LayoutPass(root: root, rootPath: rootPath, rules: rules, text: text)
        let size = pass.measureRoot(proposal)
        let y = topAligned ? rect.y : rect.y + (rect.height - size.height) / 2
        return pass.run(proposal: proposal, origin: Point(x: rect.x + (rect.width - size.width) / 2, y: y))
    }

    /// The size `root` chooses when offered `proposal`.
    public static func size(of root: ViewNode, proposal: ProposedSize) -> Size {
        var pass = LayoutPass(root: root, rootPath: "")
        return pass.measureRoot(proposal)
    }

    /// Lays out `root` at the origin offered `width` and its ideal height or, when it is
    /// taller than `heightLimit` at its ideal height, offered `width` × `heightLimit` (how
    /// expanded content fits the panel). One pass serves both proposals: it flattens the tree
    /// once and its size cache keeps what the two offers share. Also reports how many sizes
    /// were computed, so tests can pin that nothing is laid out twice.
    static func layoutFitting(
        _ root: ViewNode, rootPath: String, width: Double, heightLimit: Double, rules: NamedLayoutRules = .none,
        text: TextMeasurement = .estimate
    ) -> (result: LayoutResult, measurements: Int) {
        var pass = LayoutPass(root: root, rootPath: rootPath, rules: rules, text: text)
        var proposal = ProposedSize(width: width, height: nil)
        if pass.measureRoot(proposal).height > heightLimit + Geometry.epsilon {
            proposal = ProposedSize(width: width, height: heightLimit)
        }
        let result = pass.run(proposal: proposal, origin: .zero)
        return (result, pass.measurements)
    }

    /// Lays out and also reports how many sizes were actually computed (cache misses), so
    /// tests can pin that measurement stays linear.
    static func layoutCountingMeasurements(
        _ root: ViewNode, rootPath: String, proposal: ProposedSize
    ) -> (result: LayoutResult, measurements: Int) {
        var pass = LayoutPass(root: root, rootPath: rootPath)
        let result = pass.run(proposal: proposal, origin: .zero)
        return (result, pass.measurements)
    }
}
