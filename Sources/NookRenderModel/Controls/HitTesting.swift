import NookCore

extension DisplayList {
    /// The control a press at `point` lands on: the topmost (last painted) control whose rect,
    /// as drawn in this list, holds the point, inside its clip. Controls at opacity 0 and
    /// nodes not drawn (suppressed pill copies, hidden sources) are not in `controls`, so they
    /// are never hit. Nil when no control is there.
    public func control(at point: Point) -> DrawnControl? {
        controls.last { $0.contains(point) }
    }

    /// True when `point` is inside a drawn copy of `node` (a control may be drawn twice during
    /// a cross-fade; either counts).
    public func contains(_ point: Point, within node: ControlNode) -> Bool {
        controls.contains { $0.control.node == node && $0.contains(point) }
    }
}
