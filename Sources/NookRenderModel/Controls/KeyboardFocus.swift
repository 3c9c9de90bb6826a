import NookCore

/// Keyboard focus among the expanded nook's controls, as a value. Tab and Shift+Tab move it
/// through `PlanPresenter.controlsAtRest` (reading order), wrapping at the ends; Enter or
/// Space activates the focused control; Escape asks to close the nook. Outside `expanded`
/// nothing takes focus. The focused control gets `focus`/`group-focus` variants and the
/// ring (pass `focused` to `PlanPresenter.frame(at:unixTime:pointer:focus:)`).
public struct KeyboardFocus: Hashable, Sendable {
    public enum Key: Hashable, Sendable {
        /// Tab.
        case next
        /// Shift+Tab.
        case previous
        /// Enter or Space.
        case activate
        /// Escape.
        case close
    }

    /// What the shell does after a key.
    public enum Action: Hashable, Sendable {
        /// The key means nothing now (not expanded, or no control focused): let it pass.
        case none
        /// The focus moved to this control (redraw; announce it).
        case focused(SceneControl)
        /// Call `Render.Activate` with this target for the control's `action`.
        case activate(ControlTarget, action: String)
        /// Ask the broker to close the nook (`Control.Close`).
        case close
    }

    /// The control with keyboard focus, if any.
    public private(set) var focused: ControlNode?

    public init() {}

    /// The presentation to use keys in.
    public static let presentation = Presentation.expanded

    /// Handles `key` with the scene's controls at rest (`controlsAtRest`) and the current
    /// presentation.
    public mutating func handle(_ key: Key, controls: [SceneControl], presentation: Presentation) -> Action {
        refresh(controls: controls, presentation: presentation)
        guard presentation == Self.presentation else { return .none }
        switch key {
        case .next, .previous:
            guard !controls.isEmpty else { return .none }
            let current = focused.flatMap { node in controls.firstIndex { $0.node == node } }
            let index = controls.ringIndex(from: current, forward: key == .next)
            focused = controls[index].node
            return .focused(controls[index])
        case .activate:
            guard let node = focused, let control = controls.first(where: { $0.node == node }) else { return .none }
            return .activate(control.target, action: control.action)
        case .close:
            focused = nil
            return .close
        }
    }

    /// Drops the focus when its control is gone from the scene or the nook is no longer
    /// expanded. Returns true when the focus changed.
    @discardableResult
    public mutating func refresh(controls: [SceneControl], presentation: Presentation) -> Bool {
        guard let node = focused, presentation != Self.presentation || !controls.contains(where: { $0.node == node }) else {
            return false
        }
        focused = nil
        return true
    }
}

extension Array {
    /// Where Tab (`forward`) or Shift+Tab moves a focus at `current` among these elements, kept
    /// in a ring: from no focus to the first or the last, past either end round to the other.
    func ringIndex(from current: Int?, forward: Bool) -> Int {
        switch (forward, current) {
        case (true, nil): 0
        case (true, let at?): (at + 1) % count
        case (false, nil): count - 1
        case (false, let at?): (at + count - 1) % count
        }
    }
}
