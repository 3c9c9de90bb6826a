/// Contract 1.1, "Smaller plans": a scene sent as the nodes that changed since a scene the
/// subscriber already holds.
extension PlannerScene {
    /// A node's identity across scenes: (`slot`, `owner`, `path`).
    struct WireNodeKey: Hashable {
        var slot: SlotName
        var owner: String
        var path: String

        init(_ node: SceneNode) {
            slot = node.slot
            owner = node.owner
            path = node.path
        }
    }

    /// The plan's `scene_delta` that turns `base` (sent at `baseSerial`) into this scene:
    /// `base`, `removed` (`slot`, `owner`, `path` of base nodes gone), `upserted` (whole node
    /// entries as in `scene.nodes`, each with the addition `index`, its position in this
    /// scene's `nodes`), plus this scene's `presentation`, `chrome` and `capsules` (`compact`:
    /// only where they differ from the base's; absent means as in the base).
    ///
    /// Applying it: drop the removed and upserted nodes from the base's list, keeping order;
    /// then insert each upserted node at its `index`, in ascending order. For that to give this
    /// scene's order, a node kept from the base must keep its order relative to the other kept
    /// ones, so a node that moved past others is sent as upserted even when unchanged.
    /// - Returns: nil when a scene repeats a node identity (then only a full `scene` is exact).
    func wireDelta(from base: PlannerScene, baseSerial: UInt64, compact: Bool) -> [String: PropValue]? {
        guard let delta = wireDeltaNodes(from: base) else { return nil }
        let upserted: [PropValue] = delta.upserted.map { upsert in
            var entry = wireEntry(for: upsert.node)
            entry["index"] = .uint(UInt64(upsert.index))
            return .dictionary(entry)
        }
        let removed: [PropValue] = delta.removed.map { key in
            .dictionary(["slot": .string(key.slot.rawValue), "owner": .string(key.owner), "path": .string(key.path)])
        }
        // Compact: what the base scene already says is left out (a reader keeps the base's).
        var out = wireFrame(leavingOutWhatMatches: compact ? base : nil)
        out["base"] = .uint(baseSerial)
        out["removed"] = .array(removed)
        out["upserted"] = .array(upserted)
        return out
    }

    /// A `scene_delta`'s nodes: the nodes to upsert with their positions in this scene's
    /// `nodes` (ascending), and the base nodes gone, in the base's order.
    typealias WireDeltaNodes = (upserted: [(index: Int, node: SceneNode)], removed: [WireNodeKey])

    /// What a `scene_delta` from `base` carries (see `wireDeltaNodesByNode(from:)`, whose answer
    /// this is), worked out slot by slot: a slot of this scene whose name and owner the base
    /// holds (at most once each side, in the same order as here) is compared with that slot
    /// only, and, when both views have the same shape, node by node in place
    /// (`InPlaceSlotDiff`), building only the nodes upserted. `nodes` of a scene of a few slots
    /// that mostly stay cost more than the rest of the delta.
    /// - Returns: nil when a scene repeats a node identity (then only a full `scene` is exact).
    func wireDeltaNodes(from base: PlannerScene) -> WireDeltaNodes? {
        // Slot by slot only when node paths mean the same on both sides (suppression alike)
        // and every slot identity is unique; anything else node by node, as specified.
        guard suppressed == base.suppressed, let delta = wireDeltaNodesBySlot(from: base) else {
            return wireDeltaNodesByNode(from: base)
        }
        return delta
    }

    /// `wireDeltaNodes` slot by slot; nil when a side repeats a slot identity or the matched
    /// slots are not in the same order on both sides (then a kept node could pass another).
    private func wireDeltaNodesBySlot(from base: PlannerScene) -> WireDeltaNodes? {
        let slots = slots, baseSlots = base.slots
        // Scenes hold a handful of slots; a long list goes node by node.
        guard slots.count <= 32, baseSlots.count <= 32, !Self.repeatsIdentity(slots), !Self.repeatsIdentity(baseSlots) else {
            return nil
        }
        var upserted: [(index: Int, node: SceneNode)] = []
        var removed: [WireNodeKey] = []
        var offset = 0
        // Base slots before this one are matched or gone (matches keep their order).
        var baseIndex = 0
        for slot in slots {
            let name = slot.laidOut.slot, owner = slot.laidOut.owner
            func isSlot(_ other: PreparedSlot) -> Bool { other.laidOut.slot == name && other.laidOut.owner == owner }
            guard let at = baseSlots[baseIndex...].firstIndex(where: isSlot) else {
                if baseSlots[..<baseIndex].contains(where: isSlot) { return nil }
                let nodes = slot.sceneNodes
                for (position, node) in nodes.enumerated() { upserted.append((offset + position, node)) }
                offset += nodes.count
                continue
            }
            // Base slots between the last match and this one that nothing here matches are gone, in base order.
            for gone in baseSlots[baseIndex..<at] { for node in gone.sceneNodes { removed.append(WireNodeKey(node)) } }
            baseIndex = at + 1
            let was = baseSlots[at]
            // The slot's node count is its view's, which the walk or `sceneNodes` counts.
            if let count = InPlaceSlotDiff.run(slot, against: was, offset: offset, into: &upserted) {
                offset += count
                continue
            }
            let nodes = slot.sceneNodes
            Self.diff(nodes, against: was.sceneNodes, offset: offset, upserted: &upserted, removed: &removed)
            offset += nodes.count
        }
        for gone in baseSlots[baseIndex...] { for node in gone.sceneNodes { removed.append(WireNodeKey(node)) } }
        return (upserted, removed)
    }

    /// True when two of `slots` have the same name and owner.
    private static func repeatsIdentity(_ slots: [PreparedSlot]) -> Bool {
        for index in slots.indices {
            for other in slots.indices[..<index]
            where slots[other].laidOut.slot == slots[index].laidOut.slot && slots[other].laidOut.owner == slots[index].laidOut.owner {
                return true
            }
        }
        return false
    }

    /// `wireDeltaNodesByNode`'s rule for one slot against the base's slot of the same name and
    /// owner (so a node's identity is its path): `offset` is the slot's first position in this
    /// scene's `nodes`.
    private static func diff(_ nodes: [SceneNode], against baseNodes: [SceneNode], offset: Int,
                             upserted: inout [(index: Int, node: SceneNode)], removed: inout [WireNodeKey]) {
        var found = [Bool](repeating: false, count: baseNodes.count)
        var positions: [String: Int] = [:]
        let hashes = baseNodes.count > 16
        if hashes {
            positions.reserveCapacity(baseNodes.count)
            for (position, node) in baseNodes.enumerated() { positions[node.path] = position }
        }
        var lastKept = -1
        for (index, node) in nodes.enumerated() {
            let position = hashes ? positions[node.path] : baseNodes.firstIndex { $0.path == node.path }
            if let position {
                found[position] = true
                if position > lastKept, baseNodes[position] == node {
                    lastKept = position
                    continue
                }
            }
            upserted.append((offset + index, node))
        }
        for position in baseNodes.indices where !found[position] { removed.append(WireNodeKey(baseNodes[position])) }
    }

    /// What a `scene_delta` from `base` carries, node by node over both scenes' `nodes`: the
    /// definition `wireDeltaNodes(from:)` follows (and tests hold it to).
    /// - Returns: nil when a scene repeats a node identity (then only a full `scene` is exact).
    func wireDeltaNodesByNode(from base: PlannerScene) -> WireDeltaNodes? {
        let baseNodes = base.nodes
        var basePositions: [WireNodeKey: Int] = [:]
        basePositions.reserveCapacity(baseNodes.count)
        for (position, node) in baseNodes.enumerated() {
            guard basePositions.updateValue(position, forKey: WireNodeKey(node)) == nil else { return nil }
        }
        let nodes = nodes
        var upserted: [(index: Int, node: SceneNode)] = []
        var present: Set<WireNodeKey> = []
        present.reserveCapacity(basePositions.count)
        var lastKept = -1
        for (index, node) in nodes.enumerated() {
            let key = WireNodeKey(node)
            guard present.insert(key).inserted else { return nil }
            if let position = basePositions[key], position > lastKept, baseNodes[position] == node,
               base.suppressed.contains(node.path) == suppressed.contains(node.path) {
                lastKept = position
                continue
            }
            upserted.append((index, node))
        }
        var removed: [WireNodeKey] = []
        for node in baseNodes {
            let key = WireNodeKey(node)
            if !present.contains(key) { removed.append(key) }
        }
        return (upserted, removed)
    }
}

/// `PlannerScene.diff`'s answer for one slot against the base's slot of the same name and
/// owner, when both views have the same shape: then each node's path is that of the base
/// node at the same position, so nothing is removed, no kept node passes another, and a node
/// is upserted exactly when its scene node differs from that base node. What a scene node is
/// made of (kind, rect, props, variants, expanded classes) is compared in place, and a scene
/// node built only for what is upserted: building both slots' nodes to compare them cost
/// more than the rest of a small scene's delta.
private struct InPlaceSlotDiff: ~Copyable {
    // Not copyable: the walk mutates it through closures, and a copyable one was copied
    // (every reference in it retained) on the way in and out.
    let slot: SlotName
    let owner: String
    let root: String
    let layout: LayoutResult, baseLayout: LayoutResult
    let variants: [String: [ResolvedVariant]], baseVariants: [String: [ResolvedVariant]]
    let expanded: [String: String], baseExpanded: [String: String]
    /// Whether any node may have variants or expanded classes, looked up by path.
    let lookups: Bool
    /// The slot's first position in the scene's `nodes`.
    let offset: Int
    /// The preorder position of the next node, and the child positions down to it.
    var index = 0
    var steps: [Int] = []

    private init(_ new: PreparedSlot, against was: PreparedSlot, offset: Int) {
        slot = new.laidOut.slot
        owner = new.laidOut.owner
        layout = new.laidOut.layout
        baseLayout = was.laidOut.layout
        root = layout.rootPath
        variants = new.namespaces.variants
        baseVariants = was.namespaces.variants
        expanded = new.namespaces.expandedClasses
        baseExpanded = was.namespaces.expandedClasses
        lookups = !(variants.isEmpty && baseVariants.isEmpty && expanded.isEmpty && baseExpanded.isEmpty)
        self.offset = offset
    }

    /// Appends the upserted nodes of `new` against `was`, and gives `new`'s node count; nil,
    /// with `upserted` as it was, when the shapes (or root paths) differ.
    static func run(_ new: PreparedSlot, against was: PreparedSlot, offset: Int,
                    into upserted: inout [(index: Int, node: SceneNode)]) -> Int? {
        var diff = InPlaceSlotDiff(new, against: was, offset: offset)
        guard diff.root == diff.baseLayout.rootPath else { return nil }
        let first = upserted.count
        let (view, baseView) = (new.rootStorage, was.rootStorage)
        let matched = view.withUnsafeBufferPointer { view in
            baseView.withUnsafeBufferPointer { baseView in diff.walk(view.baseAddress!, baseView.baseAddress!, into: &upserted) }
        }
        guard matched else {
            upserted.removeSubrange(first...)
            return nil
        }
        return diff.index
    }

    private mutating func walk(_ node: UnsafePointer<ViewNode>, _ baseNode: UnsafePointer<ViewNode>,
                               into upserted: inout [(index: Int, node: SceneNode)]) -> Bool {
        let at = index
        index += 1
        guard at < layout.count, at < baseLayout.count, node.pointee.children.count == baseNode.pointee.children.count else {
            return false
        }
        let rect = layout.rect(atIndex: at)
        var same = node.pointee.kind == baseNode.pointee.kind && rect == baseLayout.rect(atIndex: at)
            && node.pointee.props == baseNode.pointee.props
        var path: String?
        var nodeVariants: [ResolvedVariant] = []
        var nodeExpanded: String?
        if lookups {
            // As `PreparedSlot.collect` reads them.
            let nodePath = NodePath.descendant(of: root, steps: steps)
            path = nodePath
            nodeVariants = variants.isEmpty ? [] : variants[nodePath] ?? []
            nodeExpanded = expanded.isEmpty ? nil : expanded[nodePath]
            same = same && nodeVariants == (baseVariants.isEmpty ? [] : baseVariants[nodePath] ?? [])
                && nodeExpanded == (baseExpanded.isEmpty ? nil : baseExpanded[nodePath])
        }
        if !same {
            upserted.append((offset + at, SceneNode(
                slot: slot, owner: owner, path: path ?? NodePath.descendant(of: root, steps: steps), kind: node.pointee.kind,
                rect: rect, props: node.pointee.props, variants: nodeVariants, expandedClasses: nodeExpanded)))
        }
        return node.pointee.children.withUnsafeBufferPointer { children in
            baseNode.pointee.children.withUnsafeBufferPointer { baseChildren in
                for child in children.indices {
                    steps.append(child)
                    guard walk(children.baseAddress! + child, baseChildren.baseAddress! + child, into: &upserted) else { return false }
                    steps.removeLast()
                }
                return true
            }
        }
    }
}
