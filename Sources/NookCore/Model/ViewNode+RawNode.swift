extension ViewNode {
    /// The wire-shaped form of this tree: the inverse of `ViewValidator.validate`.
    ///
    /// Only props that are set are written, with the contract's keys and types, so validating
    /// the result gives back an equal `ViewNode` (the SDK builds views this way and the codec
    /// sends them). Default `shared` options are written too, so the mark reads fully on the wire.
    public var rawNode: RawNode {
        RawNode(kind: kind.rawValue, props: props.rawProps, children: children.map(\.rawNode))
    }
}

extension NodeProps {
    /// The props as contract keys and D-Bus-shaped values.
    public var rawProps: [String: PropValue] { rawProps(reservingRoomFor: 0) }

    /// `rawProps` in a dictionary with room for `extra` more keys besides a node's usual
    /// few, so a caller that adds its own keys (a scene node's `slot`, `path`, ...) does not
    /// make it grow and rehash every key.
    func rawProps(reservingRoomFor extra: Int) -> [String: PropValue] {
        var out = [String: PropValue](minimumCapacity: 6 + extra)
        func put(_ key: String, _ value: Double?) { if let value { out[key] = .double(value) } }
        func put(_ key: String, _ value: String?) { if let value { out[key] = .string(value) } }
        func put(_ key: String, _ value: Bool?) { if let value { out[key] = .bool(value) } }
        func put(_ key: String, _ value: Int64?) { if let value { out[key] = .int(value) } }
        func put<E: RawRepresentable>(_ key: String, _ value: E?) where E.RawValue == String {
            if let value { out[key] = .string(value.rawValue) }
        }

        put("width", width)
        put("height", height)
        put("min_width", minWidth)
        put("max_width", maxWidth)
        put("min_height", minHeight)
        put("max_height", maxHeight)
        if let padding {
            out["padding"] = .structure([
                .double(padding.top), .double(padding.leading), .double(padding.bottom), .double(padding.trailing),
            ])
        }
        put("opacity", opacity)
        put("classes", classes)
        put("group", group)
        if let groupState { out["group_state"] = .dictionary(groupState.mapValues(PropValue.bool)) }
        put("identity", identity)
        put("role", role)
        put("animation_value", animationValue)
        if let shared {
            out["shared"] = .dictionary([
                "id": .string(shared.id), "style": .string(shared.style.rawValue),
                "namespace": .string(shared.namespace), "properties": .string(shared.properties.rawValue),
                "anchor": .string(shared.anchor.rawValue), "is_source": .bool(shared.isSource),
            ])
        }
        put("animate", animate)
        put("action", action)
        put("action_label", actionLabel)
        put("spacing", spacing)
        put("alignment", alignment)
        put("stagger", stagger)
        put("text", text)
        put("font_size", fontSize)
        put("font_weight", fontWeight)
        put("monospaced_digits", monospacedDigits)
        put("timer_end", timerEnd)
        put("symbol", symbol)
        put("uri", uri)
        put("shape", shape)
        put("corner_radius", cornerRadius)
        put("color", color)
        put("value", value)
        put("start", start)
        put("end", end)
        put("style", progressStyle)
        put("min_length", minLength)
        put("name", name)
        if let params { out["params"] = .dictionary(params) }
        return out
    }
}
