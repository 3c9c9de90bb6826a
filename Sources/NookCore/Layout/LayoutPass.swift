/// One run of the layout engine over one tree (see `LayoutEngine` for the contract).
///
/// Steps
/// 1. Flatten the tree in preorder: parent and child indices, merged layout attributes
///    (`LayoutAttributes`), and text runs measured once. No path strings: a node is its
///    preorder index, and `LayoutResult` builds a path only when one is asked for.
/// 2. Measure on demand, `measure(node, offer)`: a node's size for an offer is computed once
///    and cached (a linked list of entries per node in one flat array). Before the cache is
///    read, an offer is reduced to what can change the answer (`OfferDependence`): an axis
///    the node's size cannot depend on reads as ideal, an infinite length reads as ideal
///    where it gives the same size, a width at least the node's `widthThreshold` reads as
///    ideal, and a text offered at least its one-line width reads as ideal. So the probes a
///    stack makes of a rigid child (a fixed frame, an image, a one-line text) are answered by
///    one measurement, not one per offer.
///    a. The frame turns the parent's offer into an offer for the content: a fixed length
///       replaces it; `min_*`/`max_*` clamp it; padding is taken off.
///    b. The content chooses its size (stack distribution, overlay, or a leaf's own rule).
///    c. The frame turns the content's size back into the node's size: a fixed length wins;
///       `min_*` lets the node shrink to the offer but not below it; `max_*` lets it grow to
///       the offer but not past it (so a `max_width` wider than the content makes the node
///       flexible up to that width).
/// 3. Place top-down, `place(node, origin, offer)`: the node takes its measured size at
///    `origin`; stacks and overlays position each child inside the node's content box
///    (the node's rect minus padding) as the node's measurement arranged them: a stack's or
///    overlay's cache entry keeps its run length and each child's cache entry
///    (`childEntries`), so placing neither shares out again, nor probes, nor looks anything up.
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

    /// The axes of an offer a node's size can depend on, worked out bottom-up when the tree
    /// is flattened. An axis left out cannot change the node's size (nor any size below it),
    /// so the offer's length on it is read as ideal before the cache is consulted.
    ///
    /// `unboundedWidthIsIdeal`/`unboundedHeightIsIdeal`: an infinite length on that axis gives
    /// the size of an ideal one (text, images, bars across, fixed frames, and stacks and
    /// overlays of such children; not shapes, spacers along, or a `max_*` frame, which take
    /// what they are offered). So a stack's probe at infinity shares the ideal measurement.
    struct OfferDependence: OptionSet {
        let rawValue: UInt8
        static let width = OfferDependence(rawValue: 1)
        static let height = OfferDependence(rawValue: 2)
        static let both: OfferDependence = [.width, .height]
        static let unboundedWidthIsIdeal = OfferDependence(rawValue: 4)
        static let unboundedHeightIsIdeal = OfferDependence(rawValue: 8)
        static let unboundedIsIdeal: OfferDependence = [.unboundedWidthIsIdeal, .unboundedHeightIsIdeal]
        /// Only the axes (what `.both` is compared against).
        var axes: OfferDependence { intersection(.both) }
    }

    /// A node as layout sees it; kept small (no references, no rect: placing writes the
    /// result's records) so the arrays stay compact.
    struct Node {
        var kind: NodeKind
        var dependence: OfferDependence
        var alignment: Alignment?
        /// The axis of the stack this node sits in (what a spacer stretches along).
        var parentAxis: Axis?
        var circular: Bool
        /// Index into `frames`; 0 is the plain frame (no lengths, no padding, default spacing).
        var frame: Int32
        /// Children are `childIndices[firstChild ..< firstChild + childCount]`.
        var firstChild: Int32
        var childCount: Int32
        /// Index of the text's run in `texts`.
        var textRun: Int32
        /// Image side or spacer minimum length.
        var leafLength: Double
        /// A width offer at least this wide gives the size of an ideal width offer, whatever
        /// the height (see `widthThreshold(of:children:)`); infinity when none is known.
        var widthThreshold: Double
        /// Sum of the gaps between a stack's children.
        var spacingTotal: Double
        /// Index of the parent; -1 for the root.
        var parent: Int32
        /// Its index among its parent's children (0 for the root).
        var childPosition: Int32
        /// Index just past the node's last descendant.
        var subtreeEnd: Int32
        /// First entry of the node's list in `cache`; -1 when empty.
        var cacheHead: Int32
    }

    struct CacheEntry {
        var offer: Offer
        var size: Size
        var next: Int32
        /// How this measurement arranged a stack's or overlay's children: where their cache
        /// entries (one per child, in order) start in `childEntries`; -1 for other nodes.
        /// Placing reads them instead of sharing out again or looking each child up.
        var children: Int32
        /// A stack's run length (its children plus spacing) along its axis.
        var run: Double
    }

    private(set) var nodes: [Node] = []
    /// The result, one record per node; `run` makes them and placing writes their rects.
    private var records: [LayoutResult.Record] = []
    /// Merged frame attributes, only for nodes that have any (most nodes share entry 0).
    private var frames: [LayoutAttributes] = []
    /// The root's path; the other paths follow from the tree (`LayoutResult.path(atIndex:)`).
    private let rootPath: String
    private var childIndices: [Int32] = []
    private var texts = TextStore()
    private var cache: [CacheEntry] = []
    /// The children's cache entries of each stack or overlay measurement (see
    /// `CacheEntry.children`).
    private var childEntries: [Int32] = []
    /// What the last `arrange` or `overlaySize` call stored (read right after it, by `addEntry`).
    private var lastChildren: Int32 = -1
    private var lastRun = 0.0
    /// Sizes actually computed (cache misses) during this pass.
    private(set) var measurements = 0
    /// False only in tests: every offer is measured as given, the reference the reduced
    /// offers (`OfferDependence`) are checked against.
    private let reducesOffers: Bool

    /// `rules.named`, read as layout utilities wherever a class names a rule.
    private let rules: NamedLayoutRules
    /// How wide text is; nil: `TextMetrics`' estimate.
    private let measurer: (any TextMeasurer)?
    /// `measurer != nil`, kept apart so the estimate path never touches the existential.
    private let measuresText: Bool

    init(root: borrowing ViewNode, rootPath: String, rules: NamedLayoutRules = .none, text: TextMeasurement = .estimate,
         reducesOffers: Bool = true) {
        self.rules = rules
        // One copy of the existential (each copy is a call through its value witnesses).
        let measurer = text.measurer
        measuresText = measurer != nil
        self.measurer = measurer
        self.reducesOffers = reducesOffers
        self.rootPath = rootPath
        // The tree is read through pointers: a `ViewNode` is large, and copying one per node
        // (which passing them around by value does) used to be the biggest cost of layout.
        withUnsafePointer(to: root) { self.flattenTree($0) }
    }

    private mutating func flattenTree(_ root: UnsafePointer<ViewNode>) {
        var census = Census()
        census.count(root)
        nodes.reserveCapacity(census.nodes)
        // Every array a pass fills is sized up front, so a large tree allocates each once;
        // arrays the tree cannot use are not allocated at all (a compact view is often one
        // node: no children to list or arrange, and a text has no frame).
        if census.nodes > 1 {
            childIndices.reserveCapacity(census.nodes)
            childEntries.reserveCapacity(census.nodes * 2)
        }
        texts.reserve(texts: census.texts, scalars: census.textBytes, measured: measuresText)
        if census.framed > 0 { frames.reserveCapacity(census.framed + 1) }
        cache.reserveCapacity(census.nodes * 3)
        flatten(root, position: 0, parent: -1, parentAxis: nil)
    }

    /// What a tree holds, counted before flattening it: nodes, texts and their UTF-8 bytes
    /// (at least their scalars), and nodes that may have a frame (layout props or classes).
    private struct Census {
        var nodes = 0
        var texts = 0
        var textBytes = 0
        var framed = 0

        mutating func count(_ node: UnsafePointer<ViewNode>) {
            nodes += 1
            if node.pointee.kind == .text {
                texts += 1
                textBytes += node.pointee.props.text?.utf8.count ?? TextMetrics.timerPlaceholder.utf8.count
            }
            // Props are read in place: copying them would cost more than the count saves. Any
            // layout prop counts (an overestimate only reserves a little more).
            if node.pointee.props.classes != nil || node.pointee.props.hasLayoutProps { framed += 1 }
            // Leaves (most nodes) skip the buffer access, which retains the array.
            guard !node.pointee.children.isEmpty else { return }
            node.pointee.children.withUnsafeBufferPointer { children in
                for index in children.indices { count(children.baseAddress! + index) }
            }
        }
    }

    // MARK: 1. Flatten

    @discardableResult
    private mutating func flatten(_ pointer: UnsafePointer<ViewNode>, position: Int, parent: Int, parentAxis: Axis?) -> Int {
        let index = nodes.count
        let kind = pointer.pointee.kind
        var textRun: Int32 = -1
        var leafLength = 0.0
        switch kind {
        case .text:
            // The text style's props in one read of their group.
            let style = pointer.pointee.props.textStyleProps
            let fontSize = LayoutAttributes.length(style?.fontSize) ?? TextMetrics.defaultFontSize
            let given = pointer.pointee.props.text
            let isTimer = given == nil && style?.timerEnd != nil
            let text = given ?? (isTimer ? TextMetrics.timerPlaceholder : "")
            let weight = style?.fontWeight
            let monospacedDigits = isTimer || style?.monospacedDigits == true
            let measured = measuresText
                ? measurer!.measure(text, in: TextFont(size: fontSize, weight: TextFont.cssWeight(weight), monospacedDigits: monospacedDigits))
                : nil
            textRun = Int32(texts.add(
                text: text, fontSize: fontSize, weight: weight, monospacedDigits: monospacedDigits, lineLimit: style?.lineLimit,
                measured: measured))
        case .image:
            leafLength = LayoutAttributes.length(pointer.pointee.props.fontSize) ?? LayoutEngine.defaultImageSide
        case .spacer:
            leafLength = LayoutAttributes.length(pointer.pointee.props.minLength) ?? LayoutEngine.defaultSpacerMinLength
        default:
            break
        }
        // Most nodes have neither classes nor layout props: they share the plain frame, and
        // their alignment (a layout prop) is nil.
        var frame: Int32 = 0
        var alignment: Alignment? = nil
        if pointer.pointee.props.classes != nil || pointer.pointee.props.hasLayoutProps {
            let attributes = LayoutAttributes(pointer, rules: rules)
            if !attributes.isPlain {
                if frames.isEmpty { frames.append(.plain) }
                frames.append(attributes)
                frame = Int32(frames.count - 1)
            }
            alignment = pointer.pointee.props.alignment
        }
        var node = Node(
            kind: kind, dependence: .both, alignment: alignment, parentAxis: parentAxis,
            circular: kind == .progress && pointer.pointee.props.progressStyle == .circular, frame: frame,
            firstChild: 0, childCount: 0, textRun: textRun, leafLength: leafLength, widthThreshold: .infinity,
            spacingTotal: 0, parent: Int32(parent), childPosition: Int32(position), subtreeEnd: Int32(index + 1),
            cacheHead: -1)
        let childCount = pointer.pointee.children.count
        guard childCount > 0 else {
            // A leaf is finished before it is stored: one append, no writes back.
            node.dependence = dependence(of: node, children: .unboundedIsIdeal)
            node.widthThreshold = widthThreshold(of: node, children: -.infinity)
            nodes.append(node)
            return index
        }
        nodes.append(node)

        let axis: Axis? = kind == .hstack ? .horizontal : kind == .vstack ? .vertical : nil
        // The node's list of children is reserved first and filled in once they are
        // flattened (the children's own lists follow it in `childIndices`).
        let firstChild = childIndices.count
        for _ in 0..<childCount { childIndices.append(0) }
        pointer.pointee.children.withUnsafeBufferPointer { children in
            for offset in children.indices {
                flatten(children.baseAddress! + offset, position: offset, parent: index, parentAxis: axis)
            }
        }
        node.subtreeEnd = Int32(nodes.count)
        node.firstChild = Int32(firstChild)
        node.childCount = Int32(childCount)
        // The children are the first node after this one and each next one past the last's
        // subtree. Their dependences: the union of their axes, the intersection of their
        // unbounded-is-ideal bits, and the largest width threshold.
        var axes: OfferDependence = []
        var unbounded = OfferDependence.unboundedIsIdeal
        var childrenThreshold = -Double.infinity
        nodes.withUnsafeBufferPointer { nodes in
            childIndices.withUnsafeMutableBufferPointer { childIndices in
                var child = index + 1
                for position in firstChild..<(firstChild + childCount) {
                    childIndices[position] = Int32(child)
                    let dependence = nodes[child].dependence
                    axes.formUnion(dependence.axes)
                    unbounded.formIntersection(dependence)
                    childrenThreshold = max(childrenThreshold, nodes[child].widthThreshold)
                    child = Int(nodes[child].subtreeEnd)
                }
            }
        }
        node.dependence = dependence(of: node, children: axes.union(unbounded))
        node.widthThreshold = widthThreshold(of: node, children: childrenThreshold)
        nodes.withUnsafeMutableBufferPointer { $0[index] = node }
        if axis != nil {
            var total = 0.0
            for gap in 0..<(childCount - 1) { total += spacing(after: gap, in: index) }
            nodes.withUnsafeMutableBufferPointer { $0[index].spacingTotal = total }
        }
        return index
    }

    /// The axes `node`'s size can depend on, and where an unbounded offer reads as
    /// ideal; `children` holds the union of its children's axes and the intersection of their
    /// unbounded-is-ideal bits. Stacks and overlays depend on what their children depend on:
    /// a child's offer along an axis is made from the parent's offer and the children's sizes
    /// along that axis only; an unbounded offer reaches every child unbounded (a stack offered
    /// infinity along its axis gives each child that offer, as it gives an ideal one).
    @inline(__always)
    private func dependence(of node: Node, children: OfferDependence) -> OfferDependence {
        var content: OfferDependence
        switch node.kind {
        case .hstack, .vstack, .zstack: content = children
        case .view: content = node.childCount == 0 ? .unboundedIsIdeal : children
        case .text: content = [.both, .unboundedIsIdeal]
        case .shape: content = .both
        case .image: content = .unboundedIsIdeal
        case .progress: content = node.circular ? .unboundedIsIdeal : [.width, .unboundedHeightIsIdeal]
        case .spacer:
            switch node.parentAxis {
            case .horizontal?: content = [.width, .unboundedHeightIsIdeal]
            case .vertical?: content = [.height, .unboundedWidthIsIdeal]
            case nil: content = .both
            }
        }
        guard node.frame != 0 else { return content }
        // A fixed length replaces the offer on its axis; `min_*`/`max_*` read the offer, and a
        // `max_*` frame grows to an unbounded offer (up to its maximum) where an ideal one
        // keeps the content's size.
        return frames.withUnsafeBufferPointer { frames in
            Self.dependence(framed: frames.baseAddress! + Int(node.frame), content: content)
        }
    }

    private static func dependence(framed frame: UnsafePointer<LayoutAttributes>, content: OfferDependence) -> OfferDependence {
        let frame = frame.pointee
        var result: OfferDependence = []
        if frame.fixedWidth != nil {
            result.insert(.unboundedWidthIsIdeal)
        } else {
            if frame.minWidth != nil || frame.maxWidth != nil || content.contains(.width) { result.insert(.width) }
            if frame.maxWidth == nil, content.contains(.unboundedWidthIsIdeal) { result.insert(.unboundedWidthIsIdeal) }
        }
        if frame.fixedHeight != nil {
            result.insert(.unboundedHeightIsIdeal)
        } else {
            if frame.minHeight != nil || frame.maxHeight != nil || content.contains(.height) { result.insert(.height) }
            if frame.maxHeight == nil, content.contains(.unboundedHeightIsIdeal) { result.insert(.unboundedHeightIsIdeal) }
        }
        return result
    }

    /// The width from which `node`'s size is that of an ideal width offer, for every
    /// height; `children` is the largest of its children's. Text: its one-line width (it only
    /// wraps below it). A vstack or overlay gives each child its own width offer, and children
    /// that answer as if offered their ideal width make every probe and share the same as for
    /// an ideal offer: the largest of its children's. An hstack shares the width out (its
    /// children's offers are not the stack's), and shapes and bars take what they are offered:
    /// none (infinity). A frame that reads the width (min/max, horizontal padding) has none;
    /// a fixed width, or no width dependence at all, means any offer.
    @inline(__always)
    private func widthThreshold(of node: Node, children: Double) -> Double {
        guard node.dependence.contains(.width) else { return -.infinity }
        if node.frame != 0 {
            let answer: Double? = frames.withUnsafeBufferPointer { frames in
                let frame = frames.baseAddress! + Int(node.frame)
                if frame.pointee.fixedWidth != nil { return -.infinity }
                if frame.pointee.minWidth != nil || frame.pointee.maxWidth != nil || frame.pointee.padding.leading != 0
                    || frame.pointee.padding.trailing != 0 {
                    return .infinity
                }
                return nil
            }
            if let answer { return answer }
        }
        switch node.kind {
        case .vstack, .zstack, .view: return children
        case .text: return texts.unwrappedWidth(run: Int(node.textRun))
        case .image: return -.infinity
        case .hstack, .shape, .progress, .spacer: return .infinity
        }
    }

    /// `offer` reduced to what can change node `index`'s size (see `OfferDependence`).
    @inline(__always)
    private func reduced(_ offer: Offer, for index: Int) -> Offer {
        var offer = offer
        nodes.withUnsafeBufferPointer { nodes in
            let dependence = nodes[index].dependence
            if !dependence.contains(.width) || offer.width.isInfinite && dependence.contains(.unboundedWidthIsIdeal)
                || nodes[index].widthThreshold < .infinity && offer.width >= nodes[index].widthThreshold {
                offer.width = Offer.ideal
            }
            if !dependence.contains(.height) || offer.height.isInfinite && dependence.contains(.unboundedHeightIsIdeal) {
                offer.height = Offer.ideal
            }
            if dependence.contains(.both), nodes[index].textRun >= 0, nodes[index].frame == 0 {
                (offer.width, offer.height) = texts.reduced(run: Int(nodes[index].textRun), width: offer.width, height: offer.height)
            }
        }
        return offer
    }

    private func child(_ slot: Int, of index: Int) -> Int {
        childIndex(nodes.withUnsafeBufferPointer { Int($0[index].firstChild) } + slot)
    }

    /// The gap between a stack's child `gap` and the next one.
    private func spacing(after gap: Int, in stack: Int) -> Double {
        nodes.withUnsafeBufferPointer { nodes in
            let frame = Int(nodes[stack].frame)
            if frame != 0, let explicit = frames.withUnsafeBufferPointer({ $0[frame].spacing }) { return explicit }
            let left = childIndex(Int(nodes[stack].firstChild) + gap)
            let right = childIndex(Int(nodes[stack].firstChild) + gap + 1)
            return nodes[left].kind == .spacer || nodes[right].kind == .spacer ? 0 : LayoutEngine.defaultSpacing
        }
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

    private mutating func measure(_ index: Int, _ given: Offer) -> Size {
        let entry = entry(index, given)
        return cache.withUnsafeBufferPointer { $0[entry].size }
    }

    /// The cache entry holding node `index`'s size for `given`, computed on a miss.
    @inline(__always)
    private mutating func entry(_ index: Int, _ given: Offer) -> Int {
        let offer = reducesOffers ? reduced(given, for: index) : given
        // Probes hit the cache far more often than they miss: the walk reads both arrays in
        // place, without bounds checks or uniqueness checks.
        let cached = nodes.withUnsafeBufferPointer { nodes in
            cache.withUnsafeBufferPointer { cache in
                var entry = Int(nodes[index].cacheHead)
                while entry >= 0, cache[entry].offer != offer { entry = Int(cache[entry].next) }
                return entry
            }
        }
        return cached >= 0 ? cached : addEntry(index, offer)
    }

    /// Measures node `index` for `offer` (already reduced) and caches the size. The size
    /// computation (`computeSize`, `contentSize`) is inlined here: one call per miss, not three.
    @inline(never)
    private mutating func addEntry(_ index: Int, _ offer: Offer) -> Int {
        measurements += 1
        let size = computeSize(index, offer)
        let entry = cache.count
        nodes.withUnsafeMutableBufferPointer { nodes in
            // A stack's or overlay's arrangement is the last thing its size computation stored.
            let kind = nodes[index].kind
            let arranged = nodes[index].childCount > 0 && (kind == .hstack || kind == .vstack || kind == .zstack || kind == .view)
            cache.append(CacheEntry(
                offer: offer, size: size, next: nodes[index].cacheHead, children: arranged ? lastChildren : -1,
                run: arranged ? lastRun : 0))
            nodes[index].cacheHead = Int32(entry)
        }
        return entry
    }

    /// How many sizes node `index` has cached (tests pin that a rigid node is measured once).
    func cacheEntries(ofNode index: Int) -> Int {
        var count = 0
        var entry = Int(nodes[index].cacheHead)
        while entry >= 0 {
            count += 1
            entry = Int(cache[entry].next)
        }
        return count
    }

    /// For every stack or overlay measurement, whether the child entries it recorded are the
    /// ones looking each child up with the offer it gets would find (what placing relied on
    /// before it read them); tests pin it. Only looks: a lookup that misses counts as false.
    func arrangedEntriesMatchLookups() -> Bool {
        for entryIndex in cache.indices where cache[entryIndex].children >= 0 {
            guard let node = nodes.firstIndex(where: { node in
                var entry = Int(node.cacheHead)
                while entry >= 0, entry != entryIndex { entry = Int(cache[entry].next) }
                return entry == entryIndex
            }) else { return false }
            var inner = cache[entryIndex].offer
            if nodes[node].frame != 0 { inner = contentOffer(frames[Int(nodes[node].frame)], inner) }
            let kind = nodes[node].kind
            let along = kind == .hstack ? inner.width : inner.height
            let run = Int(cache[entryIndex].children)
            let shares = (kind == .hstack || kind == .vstack) && !Self.offersEveryChildTheSame(along)
            for slot in 0..<Int(nodes[node].childCount) {
                let child = child(slot, of: node)
                let recorded = Int(childEntries[run + slot])
                var entry = Int(nodes[child].cacheHead)
                if shares {
                    // Each child's share is not kept: the entry must at least be the child's own.
                    while entry >= 0, entry != recorded { entry = Int(cache[entry].next) }
                } else {
                    var offer = inner
                    if kind == .hstack { offer.width = along } else if kind == .vstack { offer.height = along }
                    let reducedOffer = reducesOffers ? reduced(offer, for: child) : offer
                    while entry >= 0, cache[entry].offer != reducedOffer { entry = Int(cache[entry].next) }
                }
                if entry < 0 || entry != recorded { return false }
            }
        }
        return true
    }

    @inline(__always)
    private mutating func computeSize(_ index: Int, _ offer: Offer) -> Size {
        let frameIndex = Int(nodes[index].frame)
        if frameIndex == 0 { return contentSize(index, offer) }
        // The attributes are read in place (a copy of them is larger than the work here).
        let content = contentSize(index, frames.withUnsafeBufferPointer { contentOffer($0[frameIndex], offer) })
        return frames.withUnsafeBufferPointer { frames in
            let a = frames.baseAddress! + frameIndex
            return Size(
                width: Self.outerLength(content.width + a.pointee.padding.horizontal, offered: offer.width,
                                        fixed: a.pointee.fixedWidth, min: a.pointee.minWidth, max: a.pointee.maxWidth),
                height: Self.outerLength(content.height + a.pointee.padding.vertical, offered: offer.height,
                                         fixed: a.pointee.fixedHeight, min: a.pointee.minHeight, max: a.pointee.maxHeight))
        }
    }

    /// Step 2a: the offer the node's content gets.
    private func contentOffer(_ a: LayoutAttributes, _ offer: Offer) -> Offer {
        Offer(
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
    @inline(__always)
    private mutating func contentSize(_ index: Int, _ offer: Offer) -> Size {
        // The fields are read in place, not the whole `Node` copied.
        let (kind, childCount, textRun, leafLength, circular, parentAxis) = nodes.withUnsafeBufferPointer {
            ($0[index].kind, $0[index].childCount, $0[index].textRun, $0[index].leafLength, $0[index].circular, $0[index].parentAxis)
        }
        switch kind {
        case .hstack:
            return arrange(index, offer, axis: .horizontal)
        case .vstack:
            return arrange(index, offer, axis: .vertical)
        case .zstack:
            return overlaySize(index, offer)
        case .view:
            if childCount == 0 { return Size(width: LayoutEngine.emptyViewSide, height: LayoutEngine.emptyViewSide) }
            return overlaySize(index, offer)
        case .text:
            return texts.size(of: Int(textRun), width: offer.width, height: offer.height)
        case .image:
            return Size(width: leafLength, height: leafLength)
        case .shape:
            return Size(width: max(0, offer.width), height: max(0, offer.height))
        case .progress:
            if circular { return Size(width: LayoutEngine.circularProgressSide, height: LayoutEngine.circularProgressSide) }
            return Size(width: max(0, offer.width), height: LayoutEngine.linearProgressHeight)
        case .spacer:
            let minimum = leafLength
            let along = { (offered: Double) in offered < 0 ? minimum : max(minimum, offered) }
            switch parentAxis {
            case .horizontal?: return Size(width: along(offer.width), height: 0)
            case .vertical?: return Size(width: 0, height: along(offer.height))
            case nil: return Size(width: along(offer.width), height: along(offer.height))
            }
        }
    }

    /// A zstack (or a custom view's children): every child gets the same offer; the overlay
    /// is as big as its biggest child on each axis.
    private mutating func overlaySize(_ index: Int, _ offer: Offer) -> Size {
        var width = 0.0
        var height = 0.0
        let count = Int(nodes[index].childCount)
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: count) { entries in
            for slot in 0..<count {
                let childEntry = entry(child(slot, of: index), offer)
                let size = cache.withUnsafeBufferPointer { $0[childEntry].size }
                entries[slot] = Int32(childEntry)
                width = max(width, size.width)
                height = max(height, size.height)
            }
            keepArrangement(run: 0, entries: UnsafeBufferPointer(entries))
        }
        return Size(width: width, height: height)
    }

    /// Stack distribution (see the type's comment). Stores the arrangement for placing
    /// (`lastRun`, `lastChildren`): the run's length along the axis and the cache entry each
    /// child was given.
    private mutating func arrange(_ index: Int, _ offer: Offer, axis: Axis) -> Size {
        let (count, firstChild, spacingTotal) = nodes.withUnsafeBufferPointer {
            (Int($0[index].childCount), Int($0[index].firstChild), $0[index].spacingTotal)
        }
        guard count > 0 else {
            lastChildren = -1
            return .zero
        }
        let horizontal = axis == .horizontal
        let along = horizontal ? offer.width : offer.height
        let across = horizontal ? offer.height : offer.width
        func make(_ length: Double) -> Offer {
            horizontal ? Offer(width: length, height: across) : Offer(width: across, height: length)
        }
        func main(_ size: Size) -> Double { horizontal ? size.width : size.height }
        func cross(_ size: Size) -> Double { horizontal ? size.height : size.width }

        var length = spacingTotal
        var thickness = 0.0
        if Self.offersEveryChildTheSame(along) {
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: count) { entries in
                for slot in 0..<count {
                    let childEntry = entry(childIndex(firstChild + slot), make(along))
                    let size = cache.withUnsafeBufferPointer { $0[childEntry].size }
                    entries[slot] = Int32(childEntry)
                    length += main(size)
                    thickness = max(thickness, cross(size))
                }
                keepArrangement(run: length, entries: UnsafeBufferPointer(entries))
            }
            return horizontal ? Size(width: length, height: thickness) : Size(width: thickness, height: length)
        }

        // Per child: minimum, flexibility and the offer it gets, in space that lives only as
        // long as this call (on the stack for the usual handful of children): nested stacks
        // measured meanwhile need no room in any shared array.
        let alongAxis: OfferDependence = horizontal ? .width : .height
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 3 * count) { slots in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: count) { order in
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * count) { entries in
                let minimums = slots.baseAddress!
                let flexibilities = minimums + count
                // Each child's thickness at its minimum: a child offered 0 (no room left) is
                // that size again, so it needs no second lookup.
                let thicknessesAtMinimum = minimums + 2 * count
                // Each child's entry at its minimum, and the one it is finally given.
                let minimumEntries = entries.baseAddress!
                let givenEntries = minimumEntries + count
                var sumOfMinimums = 0.0
                for slot in 0..<count {
                    let child = childIndex(firstChild + slot)
                    let minimumEntry = entry(child, make(0))
                    let minimumSize = cache.withUnsafeBufferPointer { $0[minimumEntry].size }
                    minimumEntries[slot] = Int32(minimumEntry)
                    let low = main(minimumSize)
                    thicknessesAtMinimum[slot] = cross(minimumSize)
                    // A child whose size cannot depend on the stack's axis is rigid along it:
                    // its maximum is its minimum, one probe answers both.
                    let rigid = reducesOffers && !nodes.withUnsafeBufferPointer { $0[child].dependence.contains(alongAxis) }
                    let high = rigid ? low : main(measure(child, make(.infinity)))
                    let flex = high - low
                    minimums[slot] = low
                    flexibilities[slot] = flex.isNaN ? .infinity : flex
                    sumOfMinimums += low
                    order[slot] = slot
                }
                Self.sortByFlexibility(order, flexibilities)
                var remaining = along - spacingTotal - sumOfMinimums
                var left = Double(count)
                for slot in order {
                    let minimum = minimums[slot]
                    let share = remaining > 0 ? remaining / left : 0
                    let childOffer = share > 0 ? minimum + share : 0
                    let size: Size
                    if childOffer == 0 {
                        size = horizontal ? Size(width: minimum, height: thicknessesAtMinimum[slot]) : Size(width: thicknessesAtMinimum[slot], height: minimum)
                        givenEntries[slot] = minimumEntries[slot]
                    } else {
                        let givenEntry = entry(childIndex(firstChild + slot), make(childOffer))
                        size = cache.withUnsafeBufferPointer { $0[givenEntry].size }
                        givenEntries[slot] = Int32(givenEntry)
                    }
                    remaining -= main(size) - minimum
                    left -= 1
                    length += main(size)
                    thickness = max(thickness, cross(size))
                }
                keepArrangement(run: length, entries: UnsafeBufferPointer(start: givenEntries, count: count))
            }
            }
        }
        return horizontal ? Size(width: length, height: thickness) : Size(width: thickness, height: length)
    }

    /// Stores an arrangement just measured, for placing: the run's length along the axis
    /// (`lastRun`) and the cache entry each child was given (`lastChildren`).
    private mutating func keepArrangement(run: Double, entries: UnsafeBufferPointer<Int32>) {
        lastChildren = Int32(childEntries.count)
        lastRun = run
        childEntries.append(contentsOf: entries)
    }

    /// Ideal, unbounded, or nothing to share: every child of a stack gets the stack's offer
    /// along its axis (otherwise each is offered its minimum plus a share).
    private static func offersEveryChildTheSame(_ along: Double) -> Bool {
        along < 0 || along.isInfinite || along == 0
    }

    /// The node at `childIndices[position]`.
    @inline(__always)
    private func childIndex(_ position: Int) -> Int {
        childIndices.withUnsafeBufferPointer { Int($0[position]) }
    }

    /// Stable sort of child slots by flexibility (least first), ties in document order.
    private static func sortByFlexibility(_ order: UnsafeMutableBufferPointer<Int>, _ flexibilities: UnsafeMutablePointer<Double>) {
        if order.count <= 16 {
            // Insertion sort: stable and allocation-free for the usual handful of children.
            var position = 1
            while position < order.count {
                let slot = order[position]
                var hole = position
                while hole > 0, flexibilities[order[hole - 1]] > flexibilities[slot] {
                    order[hole] = order[hole - 1]
                    hole -= 1
                }
                order[hole] = slot
                position += 1
            }
        } else {
            var order = order
            order.sort { flexibilities[$0] != flexibilities[$1] ? flexibilities[$0] < flexibilities[$1] : $0 < $1 }
        }
    }

    // MARK: 3. Place

    mutating func run(proposal: ProposedSize, origin: Point) -> LayoutResult {
        // The records are made before placing (which writes their rects in place). Each
        // record also holds its node's subtree end (one array, not two). Appended into
        // reserved room: `Array(unsafeUninitializedCapacity:)` is not specialized and looks
        // the array's metadata up at run time, which cost more than a small tree's appends.
        let count = nodes.count
        records.removeAll(keepingCapacity: true)
        records.reserveCapacity(count)
        nodes.withUnsafeBufferPointer { nodes in
            for index in 0..<count {
                records.append(LayoutResult.Record(
                    kind: nodes[index].kind, rect: .zero, parent: nodes[index].parent, childPosition: nodes[index].childPosition,
                    subtreeEnd: nodes[index].subtreeEnd))
            }
        }
        place(0, at: origin, entry: entry(0, Self.offer(proposal)))
        return LayoutResult(rootPath: rootPath, records: records)
    }

    /// Places node `index` at `origin` with the size of its cache entry `entry`, and its
    /// children at the entries that measurement gave them (`CacheEntry.children`).
    private mutating func place(_ index: Int, at origin: Point, entry: Int) {
        let (offer, size, children, run) = cache.withUnsafeBufferPointer {
            ($0[entry].offer, $0[entry].size, Int($0[entry].children), $0[entry].run)
        }
        records.withUnsafeMutableBufferPointer { $0[index].rect = Rect(origin: origin, size: size) }
        let (kind, count, alignment, frame) = nodes.withUnsafeBufferPointer { nodes in
            (nodes[index].kind, Int(nodes[index].childCount), nodes[index].alignment, Int(nodes[index].frame))
        }
        guard count > 0 else { return }
        var padding = EdgeInsets.zero
        var inner = offer
        if frame != 0 {
            frames.withUnsafeBufferPointer { frames in
                let frame = frames.baseAddress! + frame
                padding = frame.pointee.padding
                inner = contentOffer(frame.pointee, offer)
            }
        }
        let box = Rect(
            x: origin.x + padding.leading, y: origin.y + padding.top,
            width: max(0, size.width - padding.horizontal), height: max(0, size.height - padding.vertical))

        switch kind {
        case .hstack, .vstack:
            let horizontal = kind == .hstack
            var cursor = horizontal ? box.x + (box.width - run) / 2 : box.y + (box.height - run) / 2
            for slot in 0..<count {
                let child = child(slot, of: index)
                let childEntry = Int(childEntries.withUnsafeBufferPointer { $0[children + slot] })
                let childSize = cache.withUnsafeBufferPointer { $0[childEntry].size }
                if horizontal {
                    let y = Self.align(childSize.height, in: box.y, box.height, alignment, start: .top, end: .bottom)
                    place(child, at: Point(x: cursor, y: y), entry: childEntry)
                    cursor += childSize.width
                } else {
                    let x = Self.align(childSize.width, in: box.x, box.width, alignment, start: .leading, end: .trailing)
                    place(child, at: Point(x: x, y: cursor), entry: childEntry)
                    cursor += childSize.height
                }
                if slot < count - 1 { cursor += spacing(after: slot, in: index) }
            }
        default:
            // Overlays (zstack, custom view) and, defensively, children of leaves: each child
            // gets the content's offer and is aligned in the content box.
            for slot in 0..<count {
                let child = child(slot, of: index)
                let childEntry = children >= 0
                    ? Int(childEntries.withUnsafeBufferPointer { $0[children + slot] })
                    : self.entry(child, inner)
                let childSize = cache.withUnsafeBufferPointer { $0[childEntry].size }
                let childOrigin = Point(
                    x: Self.align(childSize.width, in: box.x, box.width, alignment, start: .leading, end: .trailing),
                    y: Self.align(childSize.height, in: box.y, box.height, alignment, start: .top, end: .bottom))
                place(child, at: childOrigin, entry: childEntry)
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
