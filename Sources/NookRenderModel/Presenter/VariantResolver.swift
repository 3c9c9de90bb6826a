import NookCore

/// A node's drawing style at one instant: its classes at rest, then each resolved variant
/// whose conditions all hold (rule 23). Hover and press come from the pointer over the rect
/// the group node is drawn at; focus, disabled and active also come from the group node's
/// `group_state` (the module's word). Focus also holds while the keyboard focus is on the
/// group node or on a control inside it. Pressed (and active) come from controls only, as a
/// native button publishes its press: while a pointer press holds the group node or a control
/// inside it (`PointerState.pressedControl`) and the pointer is over the group, and for a
/// moment after Enter or Space activated one (`PointerState.keyboardPressed`); a press on an
/// empty part of the group presses nothing.
enum VariantResolver {
    static func style(of node: WireSceneNode, base: ClassStyle, in scene: RenderScene, pointer: PointerState, focus: ControlNode? = nil,
                      rectOf: (WireSceneNode) -> Rect) -> ClassStyle {
        var style = base
        for variant in node.variants
        where variant.conditions.allSatisfy({ holds($0, for: node, in: scene, pointer: pointer, focus: focus, rectOf: rectOf) }) {
            for utility in variant.classes.split(separator: " ") { style.apply(utility: String(utility)) }
        }
        return style
    }

    static func holds(_ condition: ResolvedCondition, for node: WireSceneNode, in scene: RenderScene, pointer: PointerState,
                      focus: ControlNode? = nil, rectOf: (WireSceneNode) -> Rect) -> Bool {
        guard let target = condition.groupPath.map({ scene.node(at: $0) }) ?? node else { return false }
        let over = pointer.location.map { location in
            let rect = rectOf(target)
            return location.x >= rect.minX && location.x <= rect.maxX && location.y >= rect.minY && location.y <= rect.maxY
        } ?? false
        switch condition.state {
        case "hover": return over
        case "pressed": return (over && pointerPressed(target, pointer)) || keyPressed(target, pointer)
        case "active": return (over && pointerPressed(target, pointer)) || keyPressed(target, pointer) || groupState(target, "active")
        case "focus": return groupState(target, "focus") || focus.map { isFocused(target, by: $0) } == true
        case "disabled": return groupState(target, "disabled")
        default: return false
        }
    }

    /// A pointer press holds `node` or a control inside it.
    static func pointerPressed(_ node: WireSceneNode, _ pointer: PointerState) -> Bool {
        pointer.isPressed && pointer.pressedControl.map { isFocused(node, by: $0) } == true
    }

    /// Enter or Space just activated `node` or a control inside it.
    static func keyPressed(_ node: WireSceneNode, _ pointer: PointerState) -> Bool {
        pointer.keyboardPressed.map { isFocused(node, by: $0) } == true
    }

    /// The keyboard focus is on `node` or on a control inside it.
    static func isFocused(_ node: WireSceneNode, by focus: ControlNode) -> Bool {
        focus.slot == node.slot && focus.owner == node.owner && FrameBuilder.path(focus.path, isWithin: node.path)
    }

    static func groupState(_ node: WireSceneNode, _ key: String) -> Bool {
        guard case .dictionary(let states)? = node.props[.groupState], case .bool(let on)? = states[key] else { return false }
        return on
    }
}
