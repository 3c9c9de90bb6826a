import NookCore

/// A node as `Render.Activate` names it: its slot, owner and path, the same in every plan
/// whose scene still holds it.
public struct ControlNode: Hashable, Sendable {
    public var slot: String
    public var owner: String
    public var path: String
}

/// What `Render.Activate` sends: the node, and the serial of the plan whose scene the
/// renderer drew it from (the broker resolves the node in that scene, so a press on what is
/// still on screen lands even when a newer plan is on its way).
public struct ControlTarget: Hashable, Sendable {
    public var serial: UInt64
    public var node: ControlNode

    /// `Activate`'s `a{sv}` argument: `serial` t, `slot` s, `owner` s, `path` s.
    public var activateArgument: [String: PropValue] {
        ["serial": .uint(serial), "slot": .string(node.slot), "owner": .string(node.owner), "path": .string(node.path)]
    }
}

/// A node carrying `action` (contract 1.1, "Touch"): something a person can press.
public struct SceneControl: Hashable, Sendable {
    public var target: ControlTarget
    /// The node's `action`: which of the module's actions it invokes.
    public var action: String
    /// The accessible name: `action_label`, else the text inside the control, else `action`.
    public var label: String

    public var node: ControlNode { target.node }
}

/// A control as drawn at one instant: where it is and what clips it. Hit testing uses this,
/// never the scene's resting rect, so a press mid-transition lands on what is under the pointer.
public struct DrawnControl: Hashable, Sendable {
    public var control: SceneControl
    /// The node's rect at this instant (moved, scaled, as painted).
    public var rect: Rect
    /// The chrome's outline when the node is clipped to it (as its items are), else nil.
    public var clip: ChromeShape?

    /// True when `point` is inside the drawn rect and, when clipped, inside the chrome's outline.
    public func contains(_ point: Point) -> Bool {
        rect.width > 0 && rect.height > 0 && rect.containsPoint(point) && (clip?.contains(point) ?? true)
    }
}

extension WireSceneNode {
    /// The node's `action`, when it is a control that can be pressed now: a suppressed pill
    /// copy (rule 10) cannot be, since it is not drawn.
    var action: String? {
        guard let action = NodeContent.string(props[.action]), !action.isEmpty, NodeContent.bool(props[scene: .suppressed]) != true else {
            return nil
        }
        return action
    }
}

extension RenderScene {
    /// The control at `node` (its `action` and accessible name), or nil when it carries none.
    func control(_ node: WireSceneNode, serial: UInt64) -> SceneControl? {
        guard let action = node.action else { return nil }
        let target = ControlTarget(serial: serial, node: ControlNode(slot: node.slot, owner: node.owner, path: node.path))
        return SceneControl(target: target, action: action, label: accessibleLabel(of: node) ?? action)
    }

    /// `action_label`, else the texts inside the node (itself included), in reading order.
    func accessibleLabel(of node: WireSceneNode) -> String? {
        if let label = NodeContent.string(node.props[.actionLabel]), !label.isEmpty { return label }
        let texts = subtree(at: node.path).compactMap { $0.kind == "text" ? NodeContent.string($0.props[.text]) : nil }
            .filter { !$0.isEmpty }
        return texts.isEmpty ? nil : texts.joined(separator: " ")
    }
}

extension Rect {
    /// `point` lies inside, edges included.
    func containsPoint(_ point: Point) -> Bool {
        point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }
}

extension ChromeShape {
    /// `point` lies inside the chrome's outline: its rect, less the rounded bottom corners
    /// (the top edge is flush with the display, as the painter draws it).
    public func contains(_ point: Point) -> Bool {
        guard rect.containsPoint(point) else { return false }
        let radius = max(0, min(radius, rect.width / 2, rect.height))
        guard radius > 0, point.y > rect.maxY - radius else { return true }
        let centreX = point.x < rect.minX + radius ? rect.minX + radius : (point.x > rect.maxX - radius ? rect.maxX - radius : point.x)
        let dx = point.x - centreX, dy = point.y - (rect.maxY - radius)
        return dx * dx + dy * dy <= radius * radius
    }
}
