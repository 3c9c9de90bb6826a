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

    private let old: PreparedSlot
    private let new: PreparedSlot
    private let theme: Theme
    private let callerAnimation: String?
    /// Curves of changed scopes and animation classes; the walk passes indices into this, not curves.
    private var curves: [Curve] = []
    private var changedScopes: [(path: String, curve: Int)] = []
    private var unchangedScopes: [String] = []
    /// Group nodes (by path) whose `group_state` changed, with the states that did. Filled in
    /// preorder, so a group is known before the nodes inside it are visited.
    private var changedGroupStates: [String: Set<String>] = [:]
    private var oldCursor = 0
    private var newCursor = 0

    private var marks: MarkReader

    init(old: PreparedSlot, new: PreparedSlot, action: PlanAction, theme: Theme, reduceMotion: Bool,
         claimed: (old: Set<String>, new: Set<String>), marks: MarkReader) {
        self.marks = marks
        self.old = old
        self.new = new
        self.theme = theme
        callerAnimation = action.callerAnimation
        let disabled = !action.animate || new.view.props.animate == false

        var rootScope: Int?
        if callerAnimation != nil {
            let curve = scopeCurve(at: new.rootPath)
            rootScope = curve
            changedScopes.append((new.rootPath, curve))
        }
        let (old, new) = (self.old, self.new)
        old.withRoot { before in
            new.withRoot { after in
                if before.pointee.kind == after.pointee.kind {
                    walk(before, after, scope: rootScope, styleClasses: nil)
                } else {
                    remove(before, scope: rootScope)
                    insert(after, scope: rootScope)
                }
            }
        }

        let moved = matchElements(disabled: disabled, reduceMotion: reduceMotion, claimed: claimed)
        trackFollowers(moved: moved)
        // Filled in a loop: `flatMap` would build a two-element array per element.
        var endpoints = Set<String>(minimumCapacity: elements.count * 2)
        for element in elements {
            endpoints.insert(element.fromPath)
            endpoints.insert(element.toPath)
        }
        layout.removeAll { change in
            if disabled { return true }
            if reduceMotion && change.change != .style { return true }
            return change.change != .style && endpoints.contains(change.path)
        }
    }

    // MARK: Scopes and layout

    /// The index in `curves` of the curve for a scope at `path`.
    private mutating func scopeCurve(at path: String) -> Int {
        let classes = new.namespaces.classes[path]?.animation ?? AnimationClasses()
        let resolution = theme.animationCurve(for: classes, callerPreset: callerAnimation)
        for var diagnostic in resolution.diagnostics {
            diagnostic.path = NodePath.prop(path, "classes")
            diagnostic.module = new.owner.module
            diagnostics.append(diagnostic)
        }
        curves.append(resolution.curve)
        return curves.count - 1
    }

    /// Walks both trees in preorder together; `oldCursor` / `newCursor` index the laid-out
    /// nodes, whose paths are reused rather than built again. Nodes are read in place through
    /// pointers: a view node is a large value and this pass touches every one.
    private mutating func walk(_ beforeNode: UnsafePointer<ViewNode>, _ afterNode: UnsafePointer<ViewNode>, scope: Int?,
                               styleClasses: Int?) {
        // Fields are read one by one: binding a whole laid-out node would retain and release its path.
        let fromRect = old.laidOut.layout.nodes[oldCursor].rect
        let toRect = new.laidOut.layout.nodes[newCursor].rect
        let path = new.laidOut.layout.nodes[newCursor].path
        oldCursor += 1
        newCursor += 1

        var scope = scope
        if let value = afterNode.pointee.props.animationValue {
            if beforeNode.pointee.props.animationValue != value {
                let curve = scopeCurve(at: path)
                changedScopes.append((path, curve))
                scope = curve
            } else {
                unchangedScopes.append(path)
            }
        }
        if let states = Self.changedStates(beforeNode.pointee.props.groupState, afterNode.pointee.props.groupState) {
            changedGroupStates[path] = states
        }
        var styleCurve = styleClasses
        if afterNode.pointee.props.classes != nil, let classes = new.namespaces.classes[path]?.animation, !classes.isEmpty {
            curves.append(theme.animationCurve(for: classes, callerPreset: callerAnimation).curve)
            styleCurve = curves.count - 1
        }
        if let scope, !fromRect.isClose(to: toRect) {
            layout.append(LayoutChange(path: path, change: .move, fromRect: fromRect, toRect: toRect, curve: curves[scope]))
        }
        if let curve = scope ?? styleCurve, styleChanged(beforeNode, afterNode, path: path) {
            layout.append(LayoutChange(path: path, change: .style, fromRect: fromRect, toRect: toRect, curve: curves[curve]))
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
                        remove(before, scope: scope)
                        insert(after, scope: scope)
                    }
                }
                for index in common..<olds.count { remove(olds.baseAddress! + index, scope: scope) }
                for index in common..<news.count { insert(news.baseAddress! + index, scope: scope) }
            }
        }
    }

    /// A subtree only in the old view: one `remove` for its root inside a changed scope.
    private mutating func remove(_ node: UnsafePointer<ViewNode>, scope: Int?) {
        let laid = old.laidOut.layout.nodes[oldCursor]
        if let scope { layout.append(LayoutChange(path: laid.path, change: .remove, fromRect: laid.rect, toRect: laid.rect, curve: curves[scope])) }
        oldCursor += node.pointee.nodeCount
    }

    /// A subtree only in the new view: one `insert` for its root inside a changed scope.
    private mutating func insert(_ node: UnsafePointer<ViewNode>, scope: Int?) {
        let laid = new.laidOut.layout.nodes[newCursor]
        if let scope { layout.append(LayoutChange(path: laid.path, change: .insert, fromRect: laid.rect, toRect: laid.rect, curve: curves[scope])) }
        newCursor += node.pointee.nodeCount
    }

    /// Opacity, colour, the classes renderers draw with (passthrough and variants), or the
    /// state of a group one of its variants reads.
    private func styleChanged(_ before: UnsafePointer<ViewNode>, _ after: UnsafePointer<ViewNode>, path: String) -> Bool {
        if before.pointee.props.opacity != after.pointee.props.opacity || before.pointee.props.color != after.pointee.props.color {
            return true
        }
        if !changedGroupStates.isEmpty, let variants = new.namespaces.variants[path], variants.contains(where: { variant in
            variant.conditions.contains { condition in
                condition.groupPath.flatMap { changedGroupStates[$0] }?.contains(condition.state) == true
            }
        }) {
            return true
        }
        guard before.pointee.props.classes != after.pointee.props.classes else { return false }
        let a = old.namespaces.classes[path]
        let b = new.namespaces.classes[path]
        return a?.passthrough != b?.passthrough || a?.variants != b?.variants
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

    private func scope(of path: String) -> Curve? {
        var best: (length: Int, curve: Int)?
        for scope in changedScopes where PathPrefix.contains(scope.path, path) {
            if best == nil || scope.path.utf8.count > best!.length { best = (scope.path.utf8.count, scope.curve) }
        }
        return best.map { curves[$0.curve] }
    }

    // MARK: Shared elements

    /// Returns the index in `elements` of each key's move.
    private mutating func matchElements(disabled: Bool, reduceMotion: Bool, claimed: (old: Set<String>, new: Set<String>))
        -> [SharedKey: Int]
    {
        var moved: [SharedKey: Int] = [:]
        // Keys in a fixed order: the new view's in preorder, then those only the old view has.
        // Each key is hashed once per element: it gets an index into `order`, and the sources
        // on each side are kept as indices into the slot's elements.
        let oldElements = old.namespaces.elements
        let newElements = new.namespaces.elements
        var indexOfKey: [SharedKey: Int] = [:]
        var order: [SharedKey] = []
        var olds: [[Int]] = []
        var news: [[Int]] = []
        // Sized once: a large view has thousands of keys, and regrowing rehashes them all.
        indexOfKey.reserveCapacity(newElements.count)
        order.reserveCapacity(newElements.count)
        olds.reserveCapacity(newElements.count)
        news.reserveCapacity(newElements.count)
        for (position, element) in newElements.enumerated() where element.isSource && !claimed.new.contains(element.path) {
            let index = Self.index(of: element.key, in: &indexOfKey, order: &order, olds: &olds, news: &news)
            news[index].append(position)
        }
        for (position, element) in oldElements.enumerated() where element.isSource && !claimed.old.contains(element.path) {
            let index = Self.index(of: element.key, in: &indexOfKey, order: &order, olds: &olds, news: &news)
            olds[index].append(position)
        }
        let module = new.owner.module
        let activity = new.owner.activity ?? ""
        let oldPlaces = Self.places(of: old)
        let newPlaces = Self.places(of: new)
        // Built on the first cross-fade check: lets a node be found by its laid-out index.
        var childPositions: (old: [Int], new: [Int])?
        for (index, key) in order.enumerated() {
            let a = olds[index].map { oldElements[$0] }
            let b = news[index].map { newElements[$0] }
            if a.count > 1 || b.count > 1 {
                for (side, label) in [(a, "previous"), (b, "new")] where side.count > 1 {
                    diagnostics.append(
                        Diagnostic(
                            .duplicateSource, .warning,
                            "\(key.key) has \(side.count) sources in the \(label) view (\(side.map(\.path).joined(separator: ", "))); that key does not move. Mark the extra copies as followers",
                            path: side[0].path, module: module, activity: activity, id: side[0].id))
                }
                for (side, other) in [(a, b), (b, a)] where side.count == 1 && other.count > 1 {
                    diagnostics.append(
                        Diagnostic(
                            .duplicateSource, .info,
                            "\(key.key) at \(side[0].path) does not move: the key has more than one source in the other view",
                            path: side[0].path, module: module, activity: activity, id: side[0].id))
                }
                continue
            }
            guard let from = a.first, let to = b.first else {
                let only = a.first ?? b.first!
                let gone = a.isEmpty ? "previous" : "new"
                diagnostics.append(
                    Diagnostic(
                        .noCounterpart, .info, "\(key.key) at \(only.path) has no counterpart in the \(gone) view",
                        path: only.path, module: module, activity: activity, id: only.id))
                continue
            }
            guard let fromNode = oldPlaces[olds[index][0]], let toNode = newPlaces[news[index][0]] else { continue }
            let fromRect = old.laidOut.layout.nodes[fromNode].rect
            let toRect = new.laidOut.layout.nodes[toNode].rect
            if from.path == to.path && fromRect.isClose(to: toRect) { continue }
            let stillReason: (DiagnosticCode, String)?
            let curve = scope(of: to.path) ?? scope(of: from.path)
            if disabled {
                stillReason = (.animationDisabled, "the update was sent with animate: false; it takes its new geometry at once")
            } else if reduceMotion {
                stillReason = (.reduceMotion, "Reduce Motion is on; it takes its new geometry at once")
            } else if curve == nil {
                stillReason =
                    unchangedScopes.contains(where: { PathPrefix.contains($0, to.path) })
                    ? (.valueUnchanged, "its animation scope's value did not change; the new geometry applies at once")
                    : (.noAnimationScope, "no animation scope with a changed value and no caller animation hold it; the new geometry applies at once")
            } else {
                stillReason = nil
            }
            if let (code, why) = stillReason {
                diagnostics.append(Diagnostic(code, .info, "\(key.key) at \(to.path): \(why)", path: to.path, module: module, activity: activity, id: to.id))
                continue
            }
            // Nook ids report their key after suffixing (rule 8), as surface moves do.
            let reported = key.namespace == .nook ? SurfaceMatching.answerKeys(to, owner: new.owner, marks: &marks).canonical : key.key
            elements.append(
                ElementMove(
                    fromPath: from.path, toPath: to.path, key: reported, namespace: key.namespace, module: module,
                    activity: new.owner.activity ?? "", id: to.id, fromSlot: old.name, toSlot: new.name,
                    fromRect: RectMath.start(from: fromRect, to: toRect, properties: to.properties, anchor: to.anchor),
                    toRect: toRect, style: to.style,
                    crossFade: !Self.sameView(old, fromNode, new, toNode, positions: &childPositions),
                    hideSource: false, clip: .none, properties: to.properties, anchor: to.anchor, curve: curve!))
            moved[key] = elements.count - 1
        }
        return moved
    }

    /// Followers ride their source (`FollowerTracking`): a follower whose source moves gets
    /// that move's curve, from where the source's move starts to its tracked rect, and its
    /// subtree comes along; one whose source does not move takes its new geometry at once.
    private mutating func trackFollowers(moved: [SharedKey: Int]) {
        let pairs = FollowerTracking.pairs(in: new.namespaces)
        guard !pairs.isEmpty else { return }
        for (follower, _) in pairs {
            guard let start = new.laidOut.layout.index(of: follower.path), let count = new.node(at: follower.path)?.nodeCount
            else { continue }
            let nodes = new.laidOut.layout.nodes[start..<min(start + count, new.laidOut.layout.nodes.count)]
            layout.removeAll { change in change.change == .move && PathPrefix.contains(follower.path, change.path) }
            guard let index = moved[follower.key] else { continue }
            let move = elements[index]
            let toRoot = nodes[start].rect
            let ownBefore = old.laidOut.layout.rect(at: follower.path) ?? toRoot
            let fromRoot = FollowerTracking.rect(following: move.fromRect, own: ownBefore, follower: follower)
            for node in nodes {
                let from = node.path == follower.path
                    ? fromRoot : old.laidOut.layout.rect(at: node.path) ?? Self.map(node.rect, from: toRoot, into: fromRoot)
                layout.append(LayoutChange(path: node.path, change: .move, fromRect: from, toRect: node.rect, curve: move.curve))
            }
        }
    }

    /// `rect`, placed in `outer` as it is in `inner`, scaled with it.
    private static func map(_ rect: Rect, from inner: Rect, into outer: Rect) -> Rect {
        let sx = inner.width > Geometry.epsilon ? outer.width / inner.width : 1
        let sy = inner.height > Geometry.epsilon ? outer.height / inner.height : 1
        return Rect(x: outer.x + (rect.x - inner.x) * sx, y: outer.y + (rect.y - inner.y) * sy,
                    width: rect.width * sx, height: rect.height * sy)
    }

    /// The index of `key` in `order`, adding it (with no sources yet) when it is new; the key
    /// is hashed once.
    private static func index(of key: SharedKey, in indexOfKey: inout [SharedKey: Int], order: inout [SharedKey],
                              olds: inout [[Int]], news: inout [[Int]]) -> Int {
        let next = order.count
        let index = read(&indexOfKey[key, default: next])
        if index == next {
            order.append(key)
            olds.append([])
            news.append([])
        }
        return index
    }

    /// Reads a value through an inout access (`dictionary[key, default: d]` accessed this way
    /// stores `d` when the key is absent, in the same lookup).
    private static func read(_ value: inout Int) -> Int { value }

    /// `SameView.matches` for the laid-out nodes at `fromNode` in `old` and `toNode` in `new`,
    /// found through their parents' indices rather than by parsing their paths.
    private static func sameView(_ old: PreparedSlot, _ fromNode: Int, _ new: PreparedSlot, _ toNode: Int,
                                 positions: inout (old: [Int], new: [Int])?) -> Bool {
        if positions == nil {
            positions = (old.laidOut.layout.childPositions(), new.laidOut.layout.childPositions())
        }
        let fromSteps = old.steps(toIndex: fromNode, childPositions: positions!.old)
        let toSteps = new.steps(toIndex: toNode, childPositions: positions!.new)
        // The views are read in place through their arrays; neither slot is captured (copied).
        let (oldRoot, newRoot) = (old.rootStorage, new.rootStorage)
        return oldRoot.withUnsafeBufferPointer { before in
            newRoot.withUnsafeBufferPointer { after in
                // As `SameView.matches` by path: false when either node is missing.
                PreparedSlot.descend(before.baseAddress!, by: fromSteps[...]) { a in
                    PreparedSlot.descend(after.baseAddress!, by: toSteps[...]) { b in SameView.matches(a, b) } ?? false
                } ?? false
            }
        }
    }

    /// The laid-out index of every marked node of `slot`, by index in its elements, found in
    /// one pass over the laid-out nodes (both they and the marked nodes are in preorder, so one
    /// cursor suffices); nil for an element whose node was not found.
    private static func places(of slot: PreparedSlot) -> [Int?] {
        let elements = slot.namespaces.elements
        guard !elements.isEmpty else { return [] }
        var out = [Int?](repeating: nil, count: elements.count)
        var next = 0
        slot.laidOut.layout.nodes.withUnsafeBufferPointer { nodes in
            for index in nodes.indices {
                guard next < elements.count else { return }
                while next < elements.count && elements[next].path == nodes[index].path {
                    out[next] = index
                    next += 1
                }
            }
        }
        return out
    }
}
