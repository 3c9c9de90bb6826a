import NookCore

/// Pointer presses on controls, as a value: a press on a control holds it; releasing inside a
/// drawn copy of it activates it, releasing anywhere else cancels. Both ends hit-test the
/// `DisplayList` drawn at that instant, so a press during a transition lands on what is under
/// the pointer then. While a press is held the shell keeps `PointerState.isPressed` set, which
/// makes the held control's `pressed`/`group-pressed` variants apply while the pointer is over
/// it (rule 23).
///
/// ```swift
/// var presses = PressTracker()
/// _ = presses.press(at: point, in: list)
/// if case .activate(let target, _) = presses.release(at: point, in: list) { link.activate(target) }
/// ```
public struct PressTracker: Hashable, Sendable {
    public enum State: Hashable, Sendable {
        case idle
        /// Button 1 went down on this control and has not come up.
        case holding(SceneControl)
    }

    /// What the shell does after an event.
    public enum Action: Hashable, Sendable {
        /// Nothing to do for controls: the press or release was not on one (a click on the pill's
        /// background still opens it).
        case none
        /// A press began on this control (redraw: its pressed variants apply).
        case pressed(SceneControl)
        /// Released inside the held control: call `Render.Activate` with this target (the
        /// serial of the scene drawn at release) for the control's `action`.
        case activate(ControlTarget, action: String)
        /// Released outside the held control, or the press was given up: nothing is sent.
        case cancelled(SceneControl)
    }

    public private(set) var state: State = .idle

    public init() {}

    /// The control being held, if any.
    public var held: SceneControl? {
        if case .holding(let control) = state { return control }
        return nil
    }

    /// Button 1 went down at `point` over `list` (the frame on screen now).
    public mutating func press(at point: Point, in list: DisplayList) -> Action {
        guard let hit = list.control(at: point) else {
            state = .idle
            return .none
        }
        state = .holding(hit.control)
        return .pressed(hit.control)
    }

    /// Button 1 came up at `point` over `list` (the frame on screen now).
    public mutating func release(at point: Point, in list: DisplayList) -> Action {
        guard case .holding(let held) = state else { return .none }
        state = .idle
        // The copy drawn now names the scene on screen now (a newer plan may have arrived).
        guard let drawn = list.controls.last(where: { $0.control.node == held.node && $0.contains(point) }) else {
            return .cancelled(held)
        }
        return .activate(drawn.control.target, action: drawn.control.action)
    }

    /// The press is given up without a release (the window lost its pointer grab).
    public mutating func cancel() -> Action {
        guard case .holding(let held) = state else { return .none }
        state = .idle
        return .cancelled(held)
    }
}
