/// Rules 15, 16 and 17: a slot that stays on screen while its view changes.
///
/// Contract
/// - Keys: group keys (rule 15, a group known by its position among group nodes or its
///   `identity`), caller namespaces and nook ids, all within this one slot. One source per
///   key and side (rule 9); followers never move.
/// - Animation scopes (rule 17): a node with `animation_value` whose value differs from the
///   node at the same path in the old view animates its whole subtree on the curve of its
///   animation classes (`Theme.animationCurve`, the caller's preset when it names none). The
///   innermost changed scope wins. An update that carries a caller `animation` makes the whole
///   slot such a scope. Outside changed scopes the new geometry applies at once.
/// - Inside a changed scope: shared elements move; nodes at the same path and kind that
///   change rect `move`; new subtrees `insert`, gone ones `remove` (the topmost node only);
///   nodes whose style changed (opacity, colour, non-layout classes) `style`. Outside, style
///   changes still animate on the nearest animation classes, when there are any.
/// - Group state (rule 23): when a group node's `group_state` changes, every node with a
///   variant reading one of the changed states of that group restyles (`style`), like any
///   other style change; nodes reading other states or other groups do not.
/// - `animate: false` (the update's or the root's) animates nothing; Reduce Motion keeps
///   only style changes (rule 18). Every shared pair that did not move is explained.
struct ContentTransition {
    var elements: [ElementMove] = []
    var layout: [LayoutChange] = []
    var diagnostics: [Diagnostic] = []

    let old: PreparedSlot
    let new: PreparedSlot
    /// The two slots' layouts and namespaces, taken out once: the walk reads them per node,
    /// and reading through a slot's shared storage costs an accessor call each time.
    let oldLayout: LayoutResult
    let newLayout: LayoutResult
    let oldSpaces: SlotNamespaces
    let newSpaces: SlotNamespaces
    /// The layouts again, shared by the changes the walk makes: a change names its node, and
    /// its path is written only when read.
    private let oldPaths: LayoutPaths
    private let newPaths: LayoutPaths
    private let theme: Theme
    private let callerAnimation: String?
    /// Curves of changed scopes and animation classes; the walk passes indices into this, not curves.
    private var curves: [Curve] = []
    /// Changed scopes as the subtrees they hold in each view (preorder index ranges: a scope's
    /// path names a node in both views), so asking which holds a node compares integers.
    private var changedScopes: [(old: Range<Int>, new: Range<Int>, curve: Int)] = []
    var unchangedScopes: [String] = []
    /// Group nodes (by path) whose `group_state` changed, with the states that did. Filled in
    /// preorder, so a group is known before the nodes inside it are visited.
    private var changedGroupStates: [String: Set<String>] = [:]
    private var oldCursor = 0
    private var newCursor = 0
    /// The laid-out nodes of each element move, `(from, to)`, in the order of `elements`.
    var endpointNodes: [NodePair] = []
    /// The nodes at the ends of each key with one source a side (old view, new view), known
    /// before the walk: the elements that may move. Empty when nothing can move.
    private var mayMoveOld: [Bool] = []
    private var mayMoveNew: [Bool] = []
    /// Changes other than `style` at those nodes, set aside by the walk with the number of
    /// changes kept before each: most of them go when their element moves, and dropping
    /// them from `layout` afterwards meant moving every change after them. Held as parts,
    /// made into changes only when put back.
    private var held: [HeldChange] = []

    private struct HeldChange {
        var position: Int
        var change: LayoutChangeKind
        var nodes: NodePair
        var fromRect: Rect
        var toRect: Rect
        var curve: Int
    }

    var marks: MarkReader

    /// Takes the two slots apart; `run` then works the transition out.
    init(old: PreparedSlot, new: PreparedSlot, action: PlanAction, theme: Theme, marks: MarkReader) {
        self.marks = marks
        self.old = old
        self.new = new
        oldLayout = old.laidOut.layout
        newLayout = new.laidOut.layout
        oldSpaces = old.namespaces
        newSpaces = new.namespaces
        oldPaths = LayoutPaths(oldLayout)
        newPaths = LayoutPaths(newLayout)
        self.theme = theme
        callerAnimation = action.callerAnimation
    }

    /// Works out the transition into `elements`, `layout` and `diagnostics`. Kept out of the
    /// init: an init whose walk captures `self` hands its caller a copy of the whole value.
    mutating func run(action: PlanAction, reduceMotion: Bool, claimed: (old: Set<String>, new: Set<String>)) {
        // Read in place: `.view` copies the root node out of its slot.
        let disabled = !action.animate || new.withRoot { $0.pointee.props.animate } == false

        var rootScope: Int?
        if callerAnimation != nil {
            let curve = scopeCurve(node: 0)
            rootScope = curve
            changedScopes.append((0..<oldLayout.count, 0..<newLayout.count, curve))
        }
        // Sources are paired by key before the walk, so the walk knows which nodes may move.
        let sources = Self.keyedSources(old: oldSpaces, new: newSpaces, claimed: claimed)
        let places = (old: Self.places(of: self.old), new: Self.places(of: self.new))
        if !disabled && !reduceMotion { markMayMove(sources, places: places) }
        let (old, new) = (self.old, self.new)
        old.withRoot { before in
            new.withRoot { after in
                // A scope at the root moves about every node: room for a change per node, made
                // once rather than regrown (a change is a large value) as the walk appends.
                if rootScope != nil || Self.valueChanged(before, after) { layout.reserveCapacity(newLayout.count) }
                if before.pointee.kind == after.pointee.kind {
                    walk(before, after, scope: rootScope, styleClasses: nil)
                } else {
                    remove(before, scope: rootScope, newNode: 0)
                    insert(after, scope: rootScope, oldNode: 0)
                }
            }
        }

        let moved = matchElements(sources, places: places, disabled: disabled, reduceMotion: reduceMotion)
        restoreHeld()
        let followed = trackFollowers(moved: moved)
        // Without followers (whose changes are appended after the walk) every change at a
        // moving node was held and is gone already.
        if disabled || reduceMotion || followed { dropChangesAtEndpoints(disabled: disabled, reduceMotion: reduceMotion) }
    }

    /// Marks the nodes at both ends of every key with one source a side (see `mayMoveOld`).
    private mutating func markMayMove(_ sources: KeyedSources, places: (old: [Int?], new: [Int?])) {
        for index in sources.order.indices where sources.olds.count(ofKey: index) == 1 && sources.news.count(ofKey: index) == 1 {
            guard let from = places.old[sources.olds.head(ofKey: index)], let to = places.new[sources.news.head(ofKey: index)] else { continue }
            if mayMoveOld.isEmpty {
                mayMoveOld = [Bool](repeating: false, count: oldLayout.count)
                mayMoveNew = [Bool](repeating: false, count: newLayout.count)
            }
            mayMoveOld[from] = true
            mayMoveNew[to] = true
        }
    }

    /// Appends the walk's change at `nodes` (on `curves[curve]`), or holds it when its node may
    /// move (`held`). A removal names the old view's node, anything else the new view's.
    @inline(__always)
    private mutating func record(_ kind: LayoutChangeKind, nodes: NodePair, from: Rect, to: Rect, curve: Int) {
        if !mayMoveOld.isEmpty, kind != .style,
           (nodes.old >= 0 && mayMoveOld[nodes.old]) || (nodes.new >= 0 && mayMoveNew[nodes.new]) {
            held.append(HeldChange(position: layout.count, change: kind, nodes: nodes, fromRect: from, toRect: to, curve: curve))
        } else {
            layout.append(change(kind, nodes: nodes, from: from, to: to, curve: curve))
        }
    }

    private func change(_ kind: LayoutChangeKind, nodes: NodePair, from: Rect, to: Rect, curve: Int) -> LayoutChange {
        kind == .remove
            ? LayoutChange(node: nodes.old, of: oldPaths, nodes: nodes, change: kind, fromRect: from, toRect: to, curve: curves[curve])
            : LayoutChange(node: nodes.new, of: newPaths, nodes: nodes, change: kind, fromRect: from, toRect: to, curve: curves[curve])
    }

    /// Puts back, in walk order, the held changes whose node did not move after all.
    private mutating func restoreHeld() {
        guard !held.isEmpty else { return }
        let (fromNodes, toNodes) = endpointMarks()
        let kept = held.filter { held in
            let nodes = held.nodes
            return !((nodes.old >= 0 && fromNodes[nodes.old]) || (nodes.new >= 0 && toNodes[nodes.new]))
        }
        held = []
        guard !kept.isEmpty else { return }
        var merged: [LayoutChange] = []
        merged.reserveCapacity(layout.count + kept.count)
        var next = 0
        for held in kept {
            while next < held.position {
                merged.append(layout[next])
                next += 1
            }
            merged.append(change(held.change, nodes: held.nodes, from: held.fromRect, to: held.toRect, curve: held.curve))
        }
        merged.append(contentsOf: layout[next...])
        layout = merged
    }

    /// Moving elements carry their nodes: layout changes other than `style` at either end of a
    /// move go, found by node position (a change's path names the same node in both views).
    private mutating func dropChangesAtEndpoints(disabled: Bool, reduceMotion: Bool) {
        if disabled { return layout.removeAll() }
        if reduceMotion { return Self.removeChanges(from: &layout) { $0.pointee.change != .style } }
        guard !endpointNodes.isEmpty else { return }
        let (fromNodes, toNodes) = endpointMarks()
        Self.removeChanges(from: &layout) { change in
            let nodes = change.pointee.nodes
            return change.pointee.change != .style && ((nodes.old >= 0 && fromNodes[nodes.old]) || (nodes.new >= 0 && toNodes[nodes.new]))
        }
    }

    /// Which nodes of the old and of the new layout, by position, are an end of a move
    /// (`endpointNodes`).
    private func endpointMarks() -> (old: [Bool], new: [Bool]) {
        var marks = (old: [Bool](repeating: false, count: oldLayout.count), new: [Bool](repeating: false, count: newLayout.count))
        for nodes in endpointNodes {
            marks.old[nodes.old] = true
            marks.new[nodes.new] = true
        }
        return marks
    }

    /// `removeAll(where:)` that moves the changes it keeps rather than copying them (the
    /// array's own swaps copy each change, a large value with strings), reading each in place.
    private static func removeChanges(from changes: inout [LayoutChange], where drop: (UnsafePointer<LayoutChange>) -> Bool) {
        let kept = changes.withUnsafeMutableBufferPointer { buffer -> Int in
            var kept = 0
            for index in buffer.indices where !drop(buffer.baseAddress! + index) {
                buffer.swapAt(kept, index)
                kept += 1
            }
            return kept
        }
        changes.removeSubrange(kept...)
    }

    // MARK: Scopes and layout

    /// Whether a changed scope at the new view's node `node` animates (SPEC rule 17 as seed
    /// 001 reads it): when it names an animation class (a preset, `duration-*` or
    /// `delay-*`), when the update carries the caller's `animation`, or when the theme chose a
    /// default for scopes that name none (`rules.view.withoutPreset: preset`). Otherwise it
    /// keeps the caller's transaction, which has no animation: its new geometry applies at
    /// once, as for a value that did not change.
    private func scopeAnimates(node: Int) -> Bool {
        if callerAnimation != nil || theme.scopesWithoutPresetUseTheDefault { return true }
        return newSpaces.withClassList(atNode: node) { $0.map { !$0.pointee.animation.isEmpty } } ?? false
    }

    /// The index in `curves` of the curve for a scope at the new view's node at preorder
    /// index `node`.
    private mutating func scopeCurve(node: Int) -> Int {
        let classes = newSpaces.withClassList(atNode: node) { $0?.pointee.animation } ?? AnimationClasses()
        let resolution = theme.animationCurve(for: classes, callerPreset: callerAnimation)
        for var diagnostic in resolution.diagnostics {
            diagnostic.path = NodePath.prop(newLayout.path(atIndex: node), "classes")
            diagnostic.module = new.owner.module
            diagnostics.append(diagnostic)
        }
        curves.append(resolution.curve)
        return curves.count - 1
    }

    /// Walks both trees in preorder together; `oldCursor` / `newCursor` index the laid-out
    /// nodes. A node's path is the same in both trees (the walk pairs nodes by position); it
    /// is written from the layout only where a path is needed (scopes, group states), and the
    /// changes name their nodes.
    /// Nodes are read in place through pointers: a view node is a large value and this pass
    /// touches every one.
    private mutating func walk(_ beforeNode: UnsafePointer<ViewNode>, _ afterNode: UnsafePointer<ViewNode>,
                               scope: Int?, styleClasses: Int?) {
        let fromRect = oldLayout.rect(atIndex: oldCursor)
        let toRect = newLayout.rect(atIndex: newCursor)
        // Laid-out nodes are in the views' preorder, so these also index each slot's namespaces.
        let (oldIndex, newIndex) = (oldCursor, newCursor)
        oldCursor += 1
        newCursor += 1

        var scope = scope
        if let value = afterNode.pointee.props.animationValue {
            if beforeNode.pointee.props.animationValue != value, scopeAnimates(node: newIndex) {
                let curve = scopeCurve(node: newIndex)
                changedScopes.append((oldIndex..<oldLayout.subtreeEnd(atIndex: oldIndex),
                                      newIndex..<newLayout.subtreeEnd(atIndex: newIndex), curve))
                scope = curve
            } else {
                unchangedScopes.append(newLayout.path(atIndex: newIndex))
            }
        }
        // Most nodes hold no group state on either side: asked before the comparison's call.
        if beforeNode.pointee.props.groupState != nil || afterNode.pointee.props.groupState != nil,
           let states = Self.changedStates(beforeNode.pointee.props.groupState, afterNode.pointee.props.groupState) {
            changedGroupStates[newLayout.path(atIndex: newIndex)] = states
        }
        var styleCurve = styleClasses
        if afterNode.pointee.props.classes != nil,
           let classes = newSpaces.withClassList(atNode: newIndex, { $0.flatMap { $0.pointee.animation.isEmpty ? nil : $0.pointee.animation } }) {
            curves.append(theme.animationCurve(for: classes, callerPreset: callerAnimation).curve)
            styleCurve = curves.count - 1
        }
        if let scope, !fromRect.isClose(to: toRect) {
            record(.move, nodes: NodePair(old: oldIndex, new: newIndex), from: fromRect, to: toRect, curve: scope)
        }
        if let curve = scope ?? styleCurve, styleChanged(beforeNode, afterNode, nodes: (oldIndex, newIndex)) {
            record(.style, nodes: NodePair(old: oldIndex, new: newIndex), from: fromRect, to: toRect, curve: curve)
        }
        // Children are read through their buffers, in place rather than copied.
        beforeNode.pointee.children.withUnsafeBufferPointer { olds in
            afterNode.pointee.children.withUnsafeBufferPointer { news in
                // A buffer with elements always has a base address.
                let common = min(olds.count, news.count)
                for index in 0..<common {
                    let before = olds.baseAddress! + index
                    let after = news.baseAddress! + index
                    if before.pointee.kind == after.pointee.kind {
                        walk(before, after, scope: scope, styleClasses: styleCurve)
                    } else {
                        let (oldNode, newNode) = (oldCursor, newCursor)
                        remove(before, scope: scope, newNode: newNode)
                        insert(after, scope: scope, oldNode: oldNode)
                    }
                }
                for index in common..<olds.count {
                    remove(olds.baseAddress! + index, scope: scope, newNode: -1)
                }
                for index in common..<news.count {
                    insert(news.baseAddress! + index, scope: scope, oldNode: -1)
                }
            }
        }
    }

    /// True when `after` has an animation value that `before` does not share (a changed scope).
    private static func valueChanged(_ before: UnsafePointer<ViewNode>, _ after: UnsafePointer<ViewNode>) -> Bool {
        guard let value = after.pointee.props.animationValue else { return false }
        return before.pointee.props.animationValue != value
    }

    /// A subtree only in the old view: one `remove` for its root inside a changed scope.
    /// `newNode` is the new view's node at the same path (another kind), or -1.
    private mutating func remove(_ node: UnsafePointer<ViewNode>, scope: Int?, newNode: Int) {
        if let scope {
            let rect = oldLayout.rect(atIndex: oldCursor)
            record(.remove, nodes: NodePair(old: oldCursor, new: newNode), from: rect, to: rect, curve: scope)
        }
        oldCursor += node.pointee.nodeCount
    }

    /// A subtree only in the new view: one `insert` for its root inside a changed scope.
    /// `oldNode` is the old view's node at the same path (another kind), or -1.
    private mutating func insert(_ node: UnsafePointer<ViewNode>, scope: Int?, oldNode: Int) {
        if let scope {
            let rect = newLayout.rect(atIndex: newCursor)
            record(.insert, nodes: NodePair(old: oldNode, new: newCursor), from: rect, to: rect, curve: scope)
        }
        newCursor += node.pointee.nodeCount
    }

    /// Opacity, colour, the classes renderers draw with (passthrough and variants), or the
    /// state of a group one of its variants reads.
    /// `nodes` are the two nodes' preorder indices in their views (they share a path).
    private func styleChanged(_ before: UnsafePointer<ViewNode>, _ after: UnsafePointer<ViewNode>,
                              nodes: (old: Int, new: Int)) -> Bool {
        if before.pointee.props.opacity != after.pointee.props.opacity || before.pointee.props.color != after.pointee.props.color {
            return true
        }
        if !changedGroupStates.isEmpty, let variants = newSpaces.variants[newLayout.path(atIndex: nodes.new)], variants.contains(where: { variant in
            variant.conditions.contains { condition in
                condition.groupPath.flatMap { changedGroupStates[$0] }?.contains(condition.state) == true
            }
        }) {
            return true
        }
        guard before.pointee.props.classes != after.pointee.props.classes else { return false }
        return oldSpaces.withClassList(atNode: nodes.old) { a in
            newSpaces.withClassList(atNode: nodes.new) { b in
                a?.pointee.passthrough != b?.pointee.passthrough || a?.pointee.variants != b?.pointee.variants
            }
        }
    }

    /// The states whose value differs between two `group_state`s (an absent state reads as
    /// false), or nil when none does.
    private static func changedStates(_ before: [String: Bool]?, _ after: [String: Bool]?) -> Set<String>? {
        guard before != after else { return nil }
        let old = before ?? [:]
        let new = after ?? [:]
        let changed = Set(old.keys).union(new.keys).filter { (old[$0] ?? false) != (new[$0] ?? false) }
        return changed.isEmpty ? nil : changed
    }

    /// The curve of the innermost changed scope holding the new view's node at preorder
    /// index `node` (its subtree starts last), or nil.
    func scope(ofNew node: Int) -> Curve? { innermostScope(containing: node) { $0.new } }

    /// As `scope(ofNew:)`, for the previous view's node at `node`.
    func scope(ofOld node: Int) -> Curve? { innermostScope(containing: node) { $0.old } }

    private func innermostScope(containing node: Int, _ side: ((old: Range<Int>, new: Range<Int>, curve: Int)) -> Range<Int>) -> Curve? {
        var best: (start: Int, curve: Int)?
        for scope in changedScopes where side(scope).contains(node) {
            if best == nil || side(scope).lowerBound > best!.start { best = (side(scope).lowerBound, scope.curve) }
        }
        return best.map { curves[$0.curve] }
    }
}
