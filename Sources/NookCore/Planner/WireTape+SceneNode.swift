extension WireTape {
    /// One entry of a scene's `nodes` (or a delta's `upserted`, with `index`), as
    /// `WireTape.merging(scene.wireEntry(for: node), into: [])` writes it, without building
    /// the dictionary: every key the entry can hold is written here by hand in wire order
    /// (`sceneNodeKeys`), the props read straight from `NodeProps`. Hashing the node's keys
    /// into a dictionary and sorting them back out cost ten times what the tokens do.
    /// `WireTapeSceneNodeTests` holds it to the dictionary's tape on random and full nodes.
    mutating func appendSceneNode(_ node: SceneNode, index: Int?, suppressed: Bool) {
        let props = node.props
        if let value = props.action { append(.string(key: "action", value)) }
        if let value = props.actionLabel { append(.string(key: "action_label", value)) }
        if let value = props.alignment { append(.string(key: "alignment", value.rawValue)) }
        if let value = props.animate { append(.bool(key: "animate", value)) }
        if let value = props.animationValue { append(.string(key: "animation_value", value)) }
        if let value = props.classes { append(.string(key: "classes", value)) }
        if let value = props.color { append(.string(key: "color", value)) }
        if let value = props.cornerRadius { append(.double(key: "corner_radius", value)) }
        // `NodeProps.rawProps` gives the 64-bit integers as `x`, which the tape writes as a value.
        if let value = props.end { append(.value(key: "end", .int(value))) }
        if let value = node.expandedClasses { append(.string(key: "expanded_classes", value)) }
        if let value = props.fontSize { append(.double(key: "font_size", value)) }
        if let value = props.fontWeight { append(.string(key: "font_weight", value)) }
        if let value = props.group { append(.string(key: "group", value)) }
        if let states = props.groupState {
            append(.vardict(key: "group_state"))
            for (key, state) in states.sorted(by: { $0.key < $1.key }) { append(.bool(key: key, state)) }
            append(.end)
        }
        if let value = props.height { append(.double(key: "height", value)) }
        if let value = props.identity { append(.string(key: "identity", value)) }
        if let index { append(.uint(key: "index", UInt64(index))) }
        append(.string(key: "kind", node.kind.rawValue))
        if let value = props.maxHeight { append(.double(key: "max_height", value)) }
        if let value = props.maxWidth { append(.double(key: "max_width", value)) }
        if let value = props.minHeight { append(.double(key: "min_height", value)) }
        if let value = props.minLength { append(.double(key: "min_length", value)) }
        if let value = props.minWidth { append(.double(key: "min_width", value)) }
        if let value = props.monospacedDigits { append(.bool(key: "monospaced_digits", value)) }
        if let value = props.name { append(.string(key: "name", value)) }
        if let value = props.opacity { append(.double(key: "opacity", value)) }
        append(.string(key: "owner", node.owner))
        if let padding = props.padding {
            // Four doubles, so `(dddd)` as every four-double structure is written.
            append(.rect(key: "padding", Rect(x: padding.top, y: padding.leading, width: padding.bottom, height: padding.trailing)))
        }
        if let params = props.params { appendEntry("params", .dictionary(params)) }
        append(.string(key: "path", node.path))
        append(.rect(key: "rect", node.rect))
        if let value = props.role { append(.string(key: "role", value.rawValue)) }
        if let value = props.shape { append(.string(key: "shape", value.rawValue)) }
        if let shared = props.shared {
            append(.vardict(key: "shared"))
            append(.string(key: "anchor", shared.anchor.rawValue))
            append(.string(key: "id", shared.id))
            append(.bool(key: "is_source", shared.isSource))
            append(.string(key: "namespace", shared.namespace))
            append(.string(key: "properties", shared.properties.rawValue))
            append(.string(key: "style", shared.style.rawValue))
            append(.end)
        }
        append(.string(key: "slot", node.slot.rawValue))
        if let value = props.spacing { append(.double(key: "spacing", value)) }
        if let value = props.stagger { append(.bool(key: "stagger", value)) }
        if let value = props.start { append(.value(key: "start", .int(value))) }
        if let value = props.progressStyle { append(.string(key: "style", value.rawValue)) }
        // Contract 1.1: only on suppressed nodes, so other scenes keep their exact keys.
        if suppressed { append(.bool(key: "suppressed", true)) }
        if let value = props.symbol { append(.string(key: "symbol", value)) }
        if let value = props.text { append(.string(key: "text", value)) }
        if let value = props.timerEnd { append(.value(key: "timer_end", .int(value))) }
        if let value = props.uri { append(.string(key: "uri", value)) }
        if let value = props.value { append(.double(key: "value", value)) }
        if node.variants.isEmpty {
            // An empty array is typed `av`, as the dictionary form's is.
            append(.array(key: "variants", of: .variant))
            append(.end)
        } else {
            appendEntry("variants", .array(node.variants.map { .dictionary($0.wireDictionary) }))
        }
        if let value = props.width { append(.double(key: "width", value)) }
    }
}
