import NookCore

/// How a renderer draws a control whose node says `role: button` (an addition to the
/// contract; the SDK's `Button` sets it): a rounded plate behind it, lighter while the
/// pointer is over it and lighter still while it is pressed there, in the control's own
/// foreground colour (white on the black nook). An icon-only button (its subtree holds an
/// image and no text, like the music controls) has no plate at rest, only on hover and press,
/// a little larger than the icon. A node with a background of its own (a `bg-*` class) keeps
/// its own look. The focus ring (`FocusRing`) follows the plate's corners.
public struct ButtonLook: Hashable, Sendable {
    public enum State: String, Hashable, Sendable { case rest, hover, pressed }

    /// The plate's opacity over the foreground colour, for a labelled button.
    public static func labelledAlpha(_ state: State) -> Double {
        switch state {
        case .rest: 0.16
        case .hover: 0.28
        case .pressed: 0.40
        }
    }

    /// The same for an icon-only button: nothing at rest.
    public static func iconAlpha(_ state: State) -> Double {
        switch state {
        case .rest: 0
        case .hover: 0.20
        case .pressed: 0.34
        }
    }

    /// How far an icon-only button's plate reaches past the icon, in points.
    public static let iconOutset = 4.0

    /// The plate's rect and corner radius for a control drawn at `rect`: a capsule for a
    /// labelled button, a circle-like rounded square around an icon.
    public static func plate(for rect: Rect, iconOnly: Bool) -> (rect: Rect, radius: Double) {
        guard iconOnly else { return (rect, max(0, min(rect.height / 2, rect.width / 2, 10))) }
        let grown = Rect(x: rect.x - iconOutset, y: rect.y - iconOutset, width: rect.width + 2 * iconOutset,
                         height: rect.height + 2 * iconOutset)
        return (grown, max(0, min(grown.width, grown.height) / 2))
    }

    /// How long a control activated from the keyboard (Enter, Space) looks pressed: 150 ms,
    /// about a click's press.
    public static let keyboardPressMilliseconds: UInt32 = 150

    /// The state under `pointer` for a control drawn at `rect` (inside `clip`, when clipped):
    /// pressed also while `control` is the one the keyboard just activated.
    public static func state(of rect: Rect, clip: ChromeShape?, pointer: PointerState, control: ControlNode? = nil) -> State {
        if let control, pointer.keyboardPressed == control { return .pressed }
        guard let location = pointer.location, rect.containsPoint(location), clip?.contains(location) ?? true else { return .rest }
        // Pressed only while the press holds this very control (not one begun elsewhere).
        return pointer.isPressed && control != nil && pointer.pressedControl == control ? .pressed : .hover
    }
}
