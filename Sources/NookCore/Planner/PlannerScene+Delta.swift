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
    /// only, and a slot laid out and shown as the base's (the same layout, view, variants and
    /// expanded classes) gives the same nodes without building any. `nodes` of a scene of a
    /// few slots that mostly stay cost more than the rest of the delta.
    /// - Returns: nil when a scene repeats a node identity (then only a full `scene` is exact).
    func wireDeltaNodes(from base: PlannerScene) -> WireDeltaNodes? {
        // Slot by slot only when node paths mean the same on both sides (suppression alike)
        // and every slot identity is unique; anything else node by node, as specified.
        guard suppressed == base.suppressed, let matched = Self.matchSlots(slots, base.slots) else {
            return wireDeltaNodesByNode(from: base)
        }
        var upserted: [(index: Int, node: SceneNode)] = []
        var removed: [WireNodeKey] = []
        var offset = 0
        var seenBase = [Bool](repeating: false, count: base.slots.count)
        var baseIndex = 0
        for index in slots.indices {
            let slot = slots[index]
            let count = slot.view.nodeCount
            defer { offset += count }
            guard let at = matched[index] else {
                for (position, node) in slot.sceneNodes.enumerated() { upserted.append((offset + position, node)) }
                continue
            }
            // Base slots before this one that nothing here matched are gone, in base order.
            while baseIndex < at {
                if !seenBase[baseIndex] { for node in base.slots[baseIndex].sceneNodes { removed.append(WireNodeKey(node)) } }
                baseIndex += 1
            }
            seenBase[at] = true
            let was = base.slots[at]
            if slot.showsNodes(as: was) { continue }
            Self.diff(slot.sceneNodes, against: was.sceneNodes, offset: offset, upserted: &upserted, removed: &removed)
        }
        while baseIndex < base.slots.count {
            if !seenBase[baseIndex] { for node in base.slots[baseIndex].sceneNodes { removed.append(WireNodeKey(node)) } }
            baseIndex += 1
        }
        return (upserted, removed)
    }

    /// For each slot of `new`, the position of the slot of `old` with its name and owner, or
    /// nil; nil in all when a side repeats an identity or the matched slots are not in the same
    /// order on both sides (then a kept node could pass another).
    private static func matchSlots(_ new: [PreparedSlot], _ old: [PreparedSlot]) -> [Int?]? {
        func repeats(_ slots: [PreparedSlot]) -> Bool {
            for index in slots.indices {
                for other in slots.indices[..<index]
                where slots[other].laidOut.slot == slots[index].laidOut.slot && slots[other].laidOut.owner == slots[index].laidOut.owner {
                    return true
                }
            }
            return false
        }
        // Scenes hold a handful of slots; a long list goes node by node.
        guard new.count <= 32, old.count <= 32, !repeats(new), !repeats(old) else { return nil }
        var matched: [Int?] = []
        matched.reserveCapacity(new.count)
        var last = -1
        for slot in new {
            let at = old.firstIndex { $0.laidOut.slot == slot.laidOut.slot && $0.laidOut.owner == slot.laidOut.owner }
            if let at {
                guard at > last else { return nil }
                last = at
            }
            matched.append(at)
        }
        return matched
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
