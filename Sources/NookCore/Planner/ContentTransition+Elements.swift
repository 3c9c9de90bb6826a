/// Rule 15's shared elements within one slot that stays (see `ContentTransition`'s contract):
/// sources are matched by key, move (or are explained), and followers keep their place
/// relative to the source that moved.
extension ContentTransition {

    /// Which key moved as which element: `element[keyIndex[key]]` is the index in
    /// `elements` of that key's move, or -1. Kept as the index table matching already built,
    /// so no key is hashed again.
    struct MovedKeys {
        var keyIndex: [SharedKey: Int] = [:]
        var element: [Int] = []

        func move(of key: SharedKey) -> Int? {
            guard let index = keyIndex[key], element[index] >= 0 else { return nil }
            return element[index]
        }
    }

    /// Each side's sources by key: the keys in a fixed order (the new view's in preorder, then
    /// those only the old view has), each hashed once, with each side's sources chained per
    /// key through `SourceLists` (positions in the slot's elements), so no array is made per key.
    struct KeyedSources {
        var indexOfKey: [SharedKey: Int] = [:]
        var order: [SharedKey] = []
        var olds: SourceLists
        var news: SourceLists
    }

    /// The sources of both slots by key (claimed paths left out).
    static func keyedSources(old oldSpaces: SlotNamespaces, new newSpaces: SlotNamespaces,
                             claimed: (old: Set<String>, new: Set<String>)) -> KeyedSources {
        let oldElements = oldSpaces.elements
        let newElements = newSpaces.elements
        var sources = KeyedSources(olds: SourceLists(elements: oldElements.count), news: SourceLists(elements: newElements.count))
        // Sized once: a large view has thousands of keys, and regrowing rehashes them all.
        // Not for none: reserving even 0 allocates storage for an empty dictionary.
        if !newElements.isEmpty {
            sources.indexOfKey.reserveCapacity(newElements.count)
            sources.order.reserveCapacity(newElements.count)
            sources.olds.chains.reserveCapacity(newElements.count)
            sources.news.chains.reserveCapacity(newElements.count)
        }
        // Most plans claim nothing in a staying slot: an empty set need not hash every path.
        let (claimsOld, claimsNew) = (!claimed.old.isEmpty, !claimed.new.isEmpty)
        // Elements are read in place by position: iterating the array copies each one.
        for position in newElements.indices
        where newElements[position].isSource && !(claimsNew && claimed.new.contains(newElements[position].path)) {
            let index = Self.index(of: newElements[position].key, in: &sources)
            sources.news.append(position, toKey: index)
        }
        for position in oldElements.indices
        where oldElements[position].isSource && !(claimsOld && claimed.old.contains(oldElements[position].path)) {
            let index = Self.index(of: oldElements[position].key, in: &sources)
            sources.olds.append(position, toKey: index)
        }
        return sources
    }

    /// Matches the slot's sources by key; returns which keys moved. `places` are the slots'
    /// element nodes (`places(of:)`).
    mutating func matchElements(_ sources: KeyedSources, places: (old: [Int?], new: [Int?]), disabled: Bool,
                                reduceMotion: Bool) -> MovedKeys {
        let oldElements = oldSpaces.elements
        let newElements = newSpaces.elements
        let (order, olds, news) = (sources.order, sources.olds, sources.news)
        var moved = [Int](repeating: -1, count: order.count)
        let module = new.owner.module
        let activity = new.owner.activity ?? ""
        // Room for a move per key, made once: a move is a large value, and regrowing copies them all.
        elements.reserveCapacity(elements.count + order.count)
        endpointNodes.reserveCapacity(endpointNodes.count + order.count)
        for (index, key) in order.enumerated() {
            // The usual key has one source a side: read it in place rather than gathering copies.
            if olds.count(ofKey: index) == 1, news.count(ofKey: index) == 1 {
                if matchPair(key, from: olds.head(ofKey: index), to: news.head(ofKey: index), places: places,
                             disabled: disabled, reduceMotion: reduceMotion) {
                    moved[index] = elements.count - 1
                }
                continue
            }
            let a = olds.positions(ofKey: index).map { oldElements[$0] }
            let b = news.positions(ofKey: index).map { newElements[$0] }
            if a.count > 1 || b.count > 1 {
                for (side, label) in [(a, "previous"), (b, "new")] where side.count > 1 {
                    diagnostics.append(
                        Diagnostic(
                            .duplicateSource, .warning,
                            "\(key.key) has \(side.count) sources in the \(label) view (\(side.map(\.path).joined(separator: ", "))); that key does not move. Mark the extra copies as followers: " + DuplicateSourceAdvice.text,
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
            // At most one source a side and not one each: the key is on one side only.
            let only = a.first ?? b.first!
            let gone = a.isEmpty ? "previous" : "new"
            diagnostics.append(
                Diagnostic(
                    .noCounterpart, .info, "\(key.key) at \(only.path) has no counterpart in the \(gone) view",
                    path: only.path, module: module, activity: activity, id: only.id))
        }
        return MovedKeys(keyIndex: sources.indexOfKey, element: moved)
    }

    /// One side's sources per key, as chains through the slot's element positions.
    struct SourceLists {
        /// Per key: its first and last source position (-1 when none) and how many it has.
        struct Chain {
            var head = -1
            var tail = -1
            var count = 0
        }

        /// One entry per key (one append a key, rather than one per field).
        var chains: [Chain] = []
        /// Per element position: the next source position with the same key, or -1.
        var next: [Int]

        init(elements: Int) { next = [Int](repeating: -1, count: elements) }

        /// How many sources key `key` has, and its first one's position (-1 when none).
        func count(ofKey key: Int) -> Int { chains[key].count }
        func head(ofKey key: Int) -> Int { chains[key].head }

        mutating func addKey() { chains.append(Chain()) }

        mutating func append(_ position: Int, toKey key: Int) {
            if chains[key].head < 0 { chains[key].head = position } else { next[chains[key].tail] = position }
            chains[key].tail = position
            chains[key].count += 1
        }

        func positions(ofKey key: Int) -> [Int] {
            var out: [Int] = []
            var position = chains[key].head
            while position >= 0 {
                out.append(position)
                position = next[position]
            }
            return out
        }
    }

    /// One key with one source on each side (`from` and `to` index the slots' elements): it
    /// moves, or a diagnostic says why it stays.
    /// Returns true when it appended the key's move to `elements`.
    private mutating func matchPair(_ key: SharedKey, from fromElement: Int, to toElement: Int, places: (old: [Int?], new: [Int?]),
                                    disabled: Bool, reduceMotion: Bool) -> Bool {
        // The fields used, read in place (an element is a large value; most pairs only
        // need their paths).
        let fromPath = oldSpaces.elements[fromElement].path
        let toPath = newSpaces.elements[toElement].path
        let module = new.owner.module
        let activity = new.owner.activity ?? ""
        guard let fromNode = places.old[fromElement], let toNode = places.new[toElement] else { return false }
        let fromRect = oldLayout.rect(atIndex: fromNode)
        let toRect = newLayout.rect(atIndex: toNode)
        if fromPath == toPath && fromRect.isClose(to: toRect) { return false }
        let stillReason: (DiagnosticCode, String)?
        let curve = scope(ofNew: toNode) ?? scope(ofOld: fromNode)
        if disabled {
            stillReason = (.animationDisabled, "the update was sent with animate: false; it takes its new geometry at once")
        } else if reduceMotion {
            stillReason = (.reduceMotion, "Reduce Motion is on; it takes its new geometry at once")
        } else if curve == nil {
            stillReason =
                unchangedScopes.contains(where: { PathPrefix.contains($0, toPath) })
                ? (.valueUnchanged, "its animation scope's value did not change; the new geometry applies at once")
                : (.noAnimationScope, "no animation scope with a changed value and no caller animation hold it; the new geometry applies at once")
        } else {
            stillReason = nil
        }
        if let (code, why) = stillReason {
            diagnostics.append(Diagnostic(code, .info, "\(key.key) at \(toPath): \(why)", path: toPath, module: module, activity: activity,
                                          id: newSpaces.elements[toElement].id))
            return false
        }
        // Nook ids report their key after suffixing (rule 8), as surface moves do.
        let reported = key.namespace == .nook
            ? SurfaceMatching.answerKeys(newSpaces.elements[toElement], owner: new.owner, marks: &marks).canonical : key.key
        let (properties, anchor) = (newSpaces.elements[toElement].properties, newSpaces.elements[toElement].anchor)
        elements.append(
            ElementMove(
                fromPath: fromPath, toPath: toPath, key: reported, namespace: key.namespace, module: module,
                activity: activity, id: newSpaces.elements[toElement].id, fromSlot: old.name, toSlot: new.name,
                fromRect: RectMath.start(from: fromRect, to: toRect, properties: properties, anchor: anchor),
                toRect: toRect, style: newSpaces.elements[toElement].style,
                crossFade: !SameView.matches((oldLayout, old.rootStorage), fromNode, (newLayout, new.rootStorage), toNode),
                hideSource: false, clip: .none, properties: properties, anchor: anchor, curve: curve!))
        endpointNodes.append(NodePair(old: fromNode, new: toNode))
        return true
    }

    /// Followers ride their source (`FollowerTracking`): a follower whose source moves gets
    /// that move's curve, from where the source's move starts to its tracked rect, and its
    /// subtree comes along; one whose source does not move takes its new geometry at once.
    /// Returns false when the new view has no followers (nothing was done).
    @discardableResult
    mutating func trackFollowers(moved: MovedKeys) -> Bool {
        let pairs = FollowerTracking.pairs(in: newSpaces)
        guard !pairs.isEmpty else { return false }
        for (follower, _) in pairs {
            let laid = newLayout
            guard let start = laid.index(of: follower.path), new.node(at: follower.path) != nil else { continue }
            let end = laid.subtreeEnd(atIndex: start)
            self.layout.removeAll { change in change.change == .move && PathPrefix.contains(follower.path, change.path) }
            guard let index = moved.move(of: follower.key) else { continue }
            let move = elements[index]
            let toRoot = laid.rect(atIndex: start)
            let ownBefore = oldLayout.rect(at: follower.path) ?? toRoot
            let fromRoot = FollowerTracking.rect(following: move.fromRect, own: ownBefore, follower: follower)
            for node in start..<end {
                // Followers are few: their subtrees' paths are built here, for the layout entries.
                let path = laid.path(atIndex: node)
                let rect = laid.rect(atIndex: node)
                let oldNode = oldLayout.index(of: path)
                let from = node == start
                    ? fromRoot : oldNode.map { oldLayout.rect(atIndex: $0) } ?? Self.map(rect, from: toRoot, into: fromRoot)
                self.layout.append(LayoutChange(path: path, nodes: NodePair(old: oldNode ?? -1, new: node), change: .move,
                                                fromRect: from, toRect: rect, curve: move.curve))
            }
        }
        return true
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
    private static func index(of key: SharedKey, in sources: inout KeyedSources) -> Int {
        let next = sources.order.count
        let index = read(&sources.indexOfKey[key, default: next])
        if index == next {
            sources.order.append(key)
            sources.olds.addKey()
            sources.news.addKey()
        }
        return index
    }

    /// Reads a value through an inout access (`dictionary[key, default: d]` accessed this way
    /// stores `d` when the key is absent, in the same lookup).
    private static func read(_ value: inout Int) -> Int { value }

    /// The laid-out index of every marked node of `slot`, by index in its elements: the
    /// node index resolution recorded, or for an element made by hand the node at its path;
    /// nil for an element whose node was not found.
    static func places(of slot: PreparedSlot) -> [Int?] {
        let layout = slot.laidOut.layout
        return slot.namespaces.elements.map { element in place(of: element, in: layout) }
    }

    /// The laid-out index of `element`'s node in `layout` (see `places(of:)`).
    static func place(of element: SharedElement, in layout: LayoutResult) -> Int? {
        element.node >= 0 ? (element.node < layout.count ? element.node : nil) : layout.index(of: element.path)
    }
}
