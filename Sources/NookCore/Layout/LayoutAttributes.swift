/// What layout needs to know about one node, with props and class utilities merged.
///
/// Precedence: an explicit prop always wins over a class utility for the same thing
/// (`width` over `w-*`/`size-*`, `height` over `h-*`/`size-*`, `padding` over every `p-*`,
/// `spacing` over `gap-*`). Among class utilities the later token wins, edge by edge for
/// padding (`p-2 pt-0` is 8 pt everywhere except the top). Tokens with a `:` are variants the
/// renderer resolves against state, so layout ignores them; unknown tokens are ignored too.
///
/// Values are sanitised so layout can never produce NaN: a NaN or infinite length is treated
/// as absent, a negative one as 0, and a `max_*` below its `min_*` is raised to it.
struct LayoutAttributes: Sendable {
    var fixedWidth: Double?
    var fixedHeight: Double?
    var minWidth: Double?
    var maxWidth: Double?
    var minHeight: Double?
    var maxHeight: Double?
    var padding: EdgeInsets
    /// Explicit stack spacing (prop or `gap-*`); nil means the adaptive default.
    var spacing: Double?

    init(_ node: ViewNode) {
        let props = node.props
        var classWidth: Double?
        var classHeight: Double?
        var classPadding: EdgeInsets?
        var classGap: Double?
        if let classes = props.classes {
            for token in classes.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
                if token.contains(":") { continue }
                switch LayoutUtility.parse(token) {
                case .width(let points)?: classWidth = points
                case .height(let points)?: classHeight = points
                case .size(let points)?: classWidth = points; classHeight = points
                case .padding(let edges, let points)?:
                    var insets = classPadding ?? .zero
                    edges.apply(points, to: &insets)
                    classPadding = insets
                case .gap(let points)?: classGap = points
                case nil: continue
                }
            }
        }
        fixedWidth = Self.length(props.width) ?? classWidth
        fixedHeight = Self.length(props.height) ?? classHeight
        let minWidth = Self.length(props.minWidth)
        let minHeight = Self.length(props.minHeight)
        self.minWidth = minWidth
        self.minHeight = minHeight
        maxWidth = Self.length(props.maxWidth).map { max($0, minWidth ?? 0) }
        maxHeight = Self.length(props.maxHeight).map { max($0, minHeight ?? 0) }
        let insets = props.padding ?? classPadding ?? .zero
        padding = EdgeInsets(
            top: Self.length(insets.top) ?? 0, leading: Self.length(insets.leading) ?? 0,
            bottom: Self.length(insets.bottom) ?? 0, trailing: Self.length(insets.trailing) ?? 0)
        spacing = Self.length(props.spacing) ?? classGap

        // An image is square unless told otherwise: one fixed side sets the other.
        if node.kind == .image {
            if fixedWidth == nil, let height = fixedHeight { fixedWidth = height }
            if fixedHeight == nil, let width = fixedWidth { fixedHeight = width }
        }
    }

    /// A usable length: finite and non-negative, or nil.
    static func length(_ value: Double?) -> Double? {
        guard let value, value.isFinite else { return nil }
        return max(0, value)
    }
}
