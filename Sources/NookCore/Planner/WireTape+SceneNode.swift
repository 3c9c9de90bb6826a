/// How `appendSceneNode` (generated from data/contract.json: every key of a scene node's entry
/// in wire order, the props read straight from `NodeProps`) writes each value. Hashing the
/// node's keys into a dictionary and sorting them back out cost ten times what the tokens do.
extension WireWriter {
    mutating func appendProp(_ key: String, _ value: Double) { append(.double(key: key, value)) }
    mutating func appendProp(_ key: String, _ value: String) { append(.string(key: key, value)) }
    mutating func appendProp(_ key: String, _ value: Bool) { append(.bool(key: key, value)) }
    /// `NodeProps.rawProps` gives the 64-bit integers as `x`, which the tape writes as a value.
    mutating func appendProp(_ key: String, _ value: Int64) { append(.value(key: key, .int(value))) }
    mutating func appendProp(_ key: String, _ value: Int) { append(.value(key: key, .int(Int64(value)))) }
    mutating func appendProp<E: RawRepresentable>(_ key: String, _ value: E) where E.RawValue == String {
        append(.string(key: key, value.rawValue))
    }
    mutating func appendProp(_ key: String, _ value: [String: PropValue]) { appendEntry(key, .dictionary(value)) }

    mutating func appendProp(_ key: String, _ states: [String: Bool]) {
        append(.vardict(key: key))
        for (state, flag) in states.sorted(by: { $0.key < $1.key }) { append(.bool(key: state, flag)) }
        append(.end)
    }

    mutating func appendProp(_ key: String, _ padding: EdgeInsets) {
        // Four doubles, so `(dddd)` as every four-double structure is written.
        append(.rect(key: key, Rect(x: padding.top, y: padding.leading, width: padding.bottom, height: padding.trailing)))
    }

    mutating func appendProp(_ key: String, _ shared: SharedMark) {
        append(.vardict(key: key))
        append(.string(key: "anchor", shared.anchor.rawValue))
        append(.string(key: "id", shared.id))
        append(.bool(key: "is_source", shared.isSource))
        append(.string(key: "namespace", shared.namespace))
        append(.string(key: "properties", shared.properties.rawValue))
        append(.string(key: "style", shared.style.rawValue))
        append(.end)
    }

    /// A scene key of `node`'s entry (data/contract.json's `sceneKeys`).
    @inline(__always)
    mutating func appendSceneKey(_ key: SceneKey, of node: SceneNode, index: Int?, suppressed: Bool) {
        switch key {
        case .expandedClasses:
            if let value = node.expandedClasses { append(.string(key: "expanded_classes", value)) }
        case .index:
            if let index { append(.uint(key: "index", UInt64(index))) }
        case .kind: append(.string(key: "kind", node.kind.rawValue))
        case .owner: append(.string(key: "owner", node.owner))
        case .path: append(.string(key: "path", node.path))
        case .rect: append(.rect(key: "rect", node.rect))
        case .slot: append(.string(key: "slot", node.slot.rawValue))
        case .suppressed:
            // Contract 1.1: only on suppressed nodes, so other scenes keep their exact keys.
            if suppressed { append(.bool(key: "suppressed", true)) }
        case .variants:
            if node.variants.isEmpty {
                // An empty array is typed `av`, as the dictionary form's is.
                append(.array(key: "variants", of: .variant))
                append(.end)
            } else {
                appendEntry("variants", .array(node.variants.map { .dictionary($0.wireDictionary) }))
            }
        }
    }
}
