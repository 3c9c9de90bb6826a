/// One run of the layout engine over one tree (see `LayoutEngine` for the contract).
///
/// Steps
/// 1. Flatten the tree in preorder: paths, parent and child indices, merged layout
///    attributes (`LayoutAttributes`), and text runs measured once.
/// 2. Measure on demand, `measure(node, offer)`: a node's size for an offer is computed once
///    and cached (a linked list of entries per node in one flat array).
///    a. The frame turns the parent's offer into an offer for the content: a fixed length
///       replaces it; `min_*`/`max_*` clamp it; padding is taken off.
///    b. The content chooses its size (stack distribution, overlay, or a leaf's own rule).
///    c. The frame turns the content's size back into the node's size: a fixed length wins;
///       `min_*` lets the node shrink to the offer but not below it; `max_*` lets it grow to
///       the offer but not past it (so a `max_width` wider than the content makes the node
///       flexible up to that width).
/// 3. Place top-down, `place(node, origin, offer)`: the node takes its measured size at
///    `origin`; stacks and overlays position each child inside the node's content box
///    (the node's rect minus padding) and recurse with the same offer they measured with,
///    so placing only ever hits the cache.
///
/// Stacks (h/v), for a finite offer along their axis:
/// - each child is probed at 0 (its minimum) and at infinity (its maximum) along the axis,
///   with the stack's own offer across it; flexibility = maximum - minimum;
/// - the room left after spacing and every child's minimum is shared out, least flexible child
///   first (ties: document order): each child is offered its minimum plus an equal share of
///   what is left, and whatever it takes beyond its minimum is no longer left for the others;
/// - when nothing is left to share a child is offered 0 and so settles at its minimum;
/// - with an ideal (nil) offer every child gets an ideal offer.
/// The stack is as long as its children plus spacing and as thick as its thickest child; the
/// run of children is centred along the axis in the content box and aligned across it by
/// `alignment` (vstack: leading/center/trailing; hstack: top/center/bottom; default centre).
struct LayoutPass {
    enum Axis { case horizontal, vertical }

    /// An offer with "ideal" encoded as -1, so the cache compares plain numbers.
    struct Offer: Equatable {
        var width: Double
        var height: Double
        static let ideal = -1.0
    }

    struct Node {
        var kind: NodeKind
        var attributes: LayoutAttributes
        var alignment: Alignment?
        /// Children are `childIndices[firstChild ..< firstChild + childCount]`.
        var firstChild: Int
        var childCount: Int
        /// The axis of the stack this node sits in (what a spacer stretches along).
        var parentAxis: Axis?
        /// Index into `runs` for text nodes.
        var textRun: Int
        /// Image side or spacer minimum length.
        var leafLength: Double
        var circular: Bool
        /// Sum of the gaps between a stack's children.
        var spacingTotal: Double
    }

    struct CacheEntry {
        var offer: Offer
        var size: Size
        var next: Int
    }

    private(set) var nodes: [Node] = []
    private var paths: [String] = []
    private var parents: [Int] = []
    private var childIndices: [Int] = []
    private var runs: [TextRun] = []
    private var cacheHead: [Int] = []
    private var cache: [CacheEntry] = []
    private var rects: [Rect] = []
    /// Sizes actually computed (cache misses) during this pass.
    private(set) var measurements = 0

    init(root: ViewNode, rootPath: String) {
        let count = root.nodeCount
        nodes.reserveCapacity(count)
        paths.reserveCapacity(count)
        parents.reserveCapacity(count)
        childIndices.reserveCapacity(count)
        flatten(root, path: rootPath, parent: -1, parentAxis: nil)
        cacheHead = Array(repeating: -1, count: nodes.count)
        cache.reserveCapacity(nodes.count * 4)
        rects = Array(repeating: .zero, count: nodes.count)
    }

    // MARK: 1. Flatten

    @discardableResult
    private mutating func flatten(_ node: ViewNode, path: String, parent: Int, parentAxis: Axis?) -> Int {
        let index = nodes.count
        let props = node.props
        var textRun = -1
        var leafLength = 0.0
        switch node.kind {
        case .text:
            let fontSize = LayoutAttributes.length(props.fontSize) ?? TextMetrics.defaultFontSize
            let isTimer = props.text == nil && props.timerEnd != nil
            runs.append(TextRun(
                text: props.text ?? (isTimer ? TextMetrics.timerPlaceholder : ""), fontSize: fontSize,
                weight: props.fontWeight, monospacedDigits: isTimer || props.monospacedDigits == true))
            textRun = runs.count - 1
        case .image:
            leafLength = LayoutAttributes.length(props.fontSize) ?? LayoutEngine.defaultImageSide
        case .spacer:
            leafLength = LayoutAttributes.length(props.minLength) ?? LayoutEngine.defaultSpacerMinLength
        default:
            break
        }
        nodes.append(Node(
            kind: node.kind, attributes: LayoutAttributes(node), alignment: props.alignment,
            firstChild: 0, childCount: 0, parentAxis: parentAxis, textRun: textRun, leafLength: leafLength,
            circular: props.progressStyle == .circular, spacingTotal: 0))
        paths.append(path)
        parents.append(parent)
        guard !node.children.isEmpty else { return index }

        let axis: Axis? = node.kind == .hstack ? .horizontal : node.kind == .vstack ? .vertical : nil
        var children: [Int] = []
        children.reserveCapacity(node.children.count)
        for (offset, child) in node.children.enumerated() {
            children.append(flatten(child, path: path + "/" + String(offset), parent: index, parentAxis: axis))
        }
        nodes[index].firstChild = childIndices.count
        nodes[index].childCount = children.count
        childIndices.append(contentsOf: children)
        if axis != nil {
            var total = 0.0
            for gap in 0..<(children.count - 1) { total += spacing(after: gap, in: index) }
            nodes[index].spacingTotal = total
        }
        return index
    }

    /// The gap between a stack's child `gap` and the next one.
    private func spacing(after gap: Int, in stack: Int) -> Double {
        let node = nodes[stack]
        if let explicit = node.attributes.spacing { return explicit }
        let left = childIndices[node.firstChild + gap]
        let right = childIndices[node.firstChild + gap + 1]
        return nodes[left].kind == .spacer || nodes[right].kind == .spacer ? 0 : LayoutEngine.defaultSpacing
    }

    // MARK: 2. Measure

    mutating func measureRoot(_ proposal: ProposedSize) -> Size {
        measure(0, Self.offer(proposal))
    }

    /// A root offer: NaN and infinity mean "ideal" (a result must stay finite), negatives 0.
    static func offer(_ proposal: ProposedSize) -> Offer {
        func encode(_ value: Double?) -> Double {
            guard let value, value.isFinite else { return Offer.ideal }
            return max(0, value)
        }
        return Offer(width: encode(proposal.width), height: encode(proposal.height))
    }

    private mutating func measure(_ index: Int, _ offer: Offer) -> Size {
        var entry = cacheHead[index]
        while entry >= 0 {
            if cache[entry].offer == offer { return cache[entry].size }
            entry = cache[entry].next
        }
        measurements += 1
        let size = computeSize(index, offer)
        cache.append(CacheEntry(offer: offer, size: size, next: cacheHead[index]))
        cacheHead[index] = cache.count - 1
        return size
    }

    private mutating func computeSize(_ index: Int, _ offer: Offer) -> Size {
        let a = nodes[index].attributes
        let inner = contentOffer(index, offer)
        let content = contentSize(index, inner)
        return Size(
            width: Self.outerLength(content.width + a.padding.horizontal, offered: offer.width,
                                    fixed: a.fixedWidth, min: a.minWidth, max: a.maxWidth),
            height: Self.outerLength(content.height + a.padding.vertical, offered: offer.height,
                                     fixed: a.fixedHeight, min: a.minHeight, max: a.maxHeight))
    }

    /// Step 2a: the offer the node's content gets.
    private func contentOffer(_ index: Int, _ offer: Offer) -> Offer {
        let a = nodes[index].attributes
        return Offer(
            width: Self.innerLength(offer.width, fixed: a.fixedWidth, min: a.minWidth, max: a.maxWidth, padding: a.padding.horizontal),
            height: Self.innerLength(offer.height, fixed: a.fixedHeight, min: a.minHeight, max: a.maxHeight, padding: a.padding.vertical))
    }

    static func innerLength(_ offered: Double, fixed: Double?, min low: Double?, max high: Double?, padding: Double) -> Double {
        if let fixed { return max(0, fixed - padding) }
        if offered < 0 { return Offer.ideal }
        var length = offered
        if let low { length = max(length, low) }
        if let high { length = min(length, high) }
        return length.isInfinite ? length : max(0, length - padding)
    }

    /// Step 2c: the node's size from its content's.
    static func outerLength(_ natural: Double, offered: Double, fixed: Double?, min low: Double?, max high: Double?) -> Double {
        if let fixed { return fixed }
        var length = natural
        let offer = offered < 0 ? natural : offered
        if let low { length = max(low, min(length, offer)) }
        if let high { length = min(high, max(length, offer)) }
        return max(0, length)
    }

    /// Step 2b: what the content chooses.
    private mutating func contentSize(_ index: Int, _ offer: Offer) -> Size {
        let node = nodes[index]
        switch node.kind {
        case .hstack:
            return arrange(index, offer, axis: .horizontal, record: false).size
        case .vstack:
            return arrange(index, offer, axis: .vertical, record: false).size
        case .zstack:
            return overlaySize(index, offer)
        case .view:
            if node.childCount == 0 { return Size(width: LayoutEngine.emptyViewSide, height: LayoutEngine.emptyViewSide) }
            return overlaySize(index, offer)
        case .text:
            return runs[node.textRun].size(for: ProposedSize(
                width: offer.width < 0 ? nil : offer.width, height: offer.height < 0 ? nil : offer.height))
        case .image:
            return Size(width: node.leafLength, height: node.leafLength)
        case .shape:
            return Size(width: max(0, offer.width), height: max(0, offer.height))
        case .progress:
            if node.circular { return Size(width: LayoutEngine.circularProgressSide, height: LayoutEngine.circularProgressSide) }
            return Size(width: max(0, offer.width), height: LayoutEngine.linearProgressHeight)
        case .spacer:
            let minimum = node.leafLength
            let along = { (offered: Double) in offered < 0 ? minimum : max(minimum, offered) }
            switch node.parentAxis {
            case .horizontal?: return Size(width: along(offer.width), height: 0)
            case .vertical?: return Size(width: 0, height: along(offer.height))
            case nil: return Size(width: along(offer.width), height: along(offer.height))
            }
        }
    }

    /// A zstack (or a custom view's children): every child gets the same offer; the overlay
    /// is as big as its biggest child on each axis.
    private mutating func overlaySize(_ index: Int, _ offer: Offer) -> Size {
        let node = nodes[index]
        var width = 0.0
        var height = 0.0
        for slot in node.firstChild..<(node.firstChild + node.childCount) {
            let size = measure(childIndices[slot], offer)
            width = max(width, size.width)
            height = max(height, size.height)
        }
        return Size(width: width, height: height)
    }

    struct Arrangement {
        var size: Size
        /// Per child, when recorded: the offer along the axis and the size chosen.
        var offers: [Double] = []
        var sizes: [Size] = []
    }

    /// Stack distribution (see the type's comment).
    private mutating func arrange(_ index: Int, _ offer: Offer, axis: Axis, record: Bool) -> Arrangement {
        let node = nodes[index]
        let count = node.childCount
        guard count > 0 else { return Arrangement(size: .zero) }
        let horizontal = axis == .horizontal
        let along = horizontal ? offer.width : offer.height
        let across = horizontal ? offer.height : offer.width
        func make(_ length: Double) -> Offer {
            horizontal ? Offer(width: length, height: across) : Offer(width: across, height: length)
        }
        func main(_ size: Size) -> Double { horizontal ? size.width : size.height }
        func cross(_ size: Size) -> Double { horizontal ? size.height : size.width }

        var result = Arrangement(size: .zero)
        if record {
            result.offers = Array(repeating: 0, count: count)
            result.sizes = Array(repeating: .zero, count: count)
        }
        var length = node.spacingTotal
        var thickness = 0.0
        let first = node.firstChild

        if along < 0 || along.isInfinite || along == 0 {
            // Ideal, unbounded, or nothing to share: every child gets the same offer.
            for slot in 0..<count {
                let size = measure(childIndices[first + slot], make(along))
                length += main(size)
                thickness = max(thickness, cross(size))
                if record { result.offers[slot] = along; result.sizes[slot] = size }
            }
        } else {
            var minimums = Array(repeating: 0.0, count: count)
            var flexibility = Array(repeating: 0.0, count: count)
            var sumOfMinimums = 0.0
            for slot in 0..<count {
                let child = childIndices[first + slot]
                let low = main(measure(child, make(0)))
                let high = main(measure(child, make(.infinity)))
                minimums[slot] = low
                let flex = high - low
                flexibility[slot] = flex.isNaN ? .infinity : flex
                sumOfMinimums += low
            }
            let order = (0..<count).sorted {
                flexibility[$0] != flexibility[$1] ? flexibility[$0] < flexibility[$1] : $0 < $1
            }
            var remaining = along - node.spacingTotal - sumOfMinimums
            var left = Double(count)
            for slot in order {
                let share = remaining > 0 ? remaining / left : 0
                let childOffer = share > 0 ? minimums[slot] + share : 0
                let size = measure(childIndices[first + slot], make(childOffer))
                remaining -= main(size) - minimums[slot]
                left -= 1
                length += main(size)
                thickness = max(thickness, cross(size))
                if record { result.offers[slot] = childOffer; result.sizes[slot] = size }
            }
        }
        result.size = horizontal ? Size(width: length, height: thickness) : Size(width: thickness, height: length)
        return result
    }

    // MARK: 3. Place

    mutating func run(proposal: ProposedSize, origin: Point) -> LayoutResult {
        place(0, at: origin, Self.offer(proposal))
        var laidOut: [LaidOutNode] = []
        laidOut.reserveCapacity(nodes.count)
        for index in nodes.indices {
            laidOut.append(LaidOutNode(
                path: paths[index], kind: nodes[index].kind, rect: rects[index],
                parentIndex: parents[index] < 0 ? nil : parents[index]))
        }
        return LayoutResult(nodes: laidOut)
    }

    private mutating func place(_ index: Int, at origin: Point, _ offer: Offer) {
        let size = measure(index, offer)
        rects[index] = Rect(origin: origin, size: size)
        let node = nodes[index]
        guard node.childCount > 0 else { return }
        let padding = node.attributes.padding
        let box = Rect(
            x: origin.x + padding.leading, y: origin.y + padding.top,
            width: max(0, size.width - padding.horizontal), height: max(0, size.height - padding.vertical))
        let inner = contentOffer(index, offer)

        switch node.kind {
        case .hstack, .vstack:
            let horizontal = node.kind == .hstack
            let arrangement = arrange(index, inner, axis: horizontal ? .horizontal : .vertical, record: true)
            let run = horizontal ? arrangement.size.width : arrangement.size.height
            var cursor = horizontal ? box.x + (box.width - run) / 2 : box.y + (box.height - run) / 2
            for slot in 0..<node.childCount {
                let child = childIndices[node.firstChild + slot]
                let childSize = arrangement.sizes[slot]
                let childOrigin: Point
                let childOffer: Offer
                if horizontal {
                    childOrigin = Point(x: cursor, y: Self.align(childSize.height, in: box.y, box.height, node.alignment, start: .top, end: .bottom))
                    childOffer = Offer(width: arrangement.offers[slot], height: inner.height)
                    cursor += childSize.width
                } else {
                    childOrigin = Point(x: Self.align(childSize.width, in: box.x, box.width, node.alignment, start: .leading, end: .trailing), y: cursor)
                    childOffer = Offer(width: inner.width, height: arrangement.offers[slot])
                    cursor += childSize.height
                }
                place(child, at: childOrigin, childOffer)
                if slot < node.childCount - 1 { cursor += spacing(after: slot, in: index) }
            }
        default:
            // Overlays (zstack, custom view) and, defensively, children of leaves: each child
            // gets the content's offer and is aligned in the content box.
            for slot in node.firstChild..<(node.firstChild + node.childCount) {
                let child = childIndices[slot]
                let childSize = measure(child, inner)
                let childOrigin = Point(
                    x: Self.align(childSize.width, in: box.x, box.width, node.alignment, start: .leading, end: .trailing),
                    y: Self.align(childSize.height, in: box.y, box.height, node.alignment, start: .top, end: .bottom))
                place(child, at: childOrigin, inner)
            }
        }
    }

    /// Position of a `length` in the span `[start, start + span]` for an alignment; alignment
    /// values for the other axis count as centre.
    static func align(_ length: Double, in origin: Double, _ span: Double, _ alignment: Alignment?, start: Alignment, end: Alignment) -> Double {
        switch alignment {
        case start?: origin
        case end?: origin + span - length
        default: origin + (span - length) / 2
        }
    }
}
