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
        let upserted: [PropValue] = delta.upserted.map { index in
            var entry = wireEntry(for: delta.nodes[index])
            entry["index"] = .uint(UInt64(index))
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

    /// What a `scene_delta` from `base` carries: this scene's `nodes`, the positions in them of
    /// the nodes to upsert (ascending), and the base nodes gone, in the base's order.
    /// - Returns: nil when a scene repeats a node identity (then only a full `scene` is exact).
    func wireDeltaNodes(from base: PlannerScene) -> (nodes: [SceneNode], upserted: [Int], removed: [WireNodeKey])? {
        let baseNodes = base.nodes
        var basePositions: [WireNodeKey: Int] = [:]
        basePositions.reserveCapacity(baseNodes.count)
        for (position, node) in baseNodes.enumerated() {
            guard basePositions.updateValue(position, forKey: WireNodeKey(node)) == nil else { return nil }
        }
        let nodes = nodes
        var upserted: [Int] = []
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
            upserted.append(index)
        }
        var removed: [WireNodeKey] = []
        for node in baseNodes {
            let key = WireNodeKey(node)
            if !present.contains(key) { removed.append(key) }
        }
        return (nodes, upserted, removed)
    }
}
