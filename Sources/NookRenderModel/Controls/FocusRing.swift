import NookCore

/// The keyboard focus ring around the focused control, as drawn at one instant: a rounded
/// outline `width` points wide just outside the control's rect, in the chrome's clip.
public struct FocusRing: Hashable, Sendable {
    /// Where the ring's stroke runs: the control's drawn rect grown by `outset`.
    public var rect: Rect
    public var cornerRadius: Double
    public var clip: ChromeShape?
    public var control: ControlNode

    /// How far the ring sits outside the control, and how wide it is, in points.
    public static let outset = 2.0
    public static let width = 2.0
    /// The ring's colour: a blue that reads on the black chrome and on light backgrounds
    /// (GNOME's accent, `#3584E4`).
    public static let color = RGBA(red: 0x35 / 255.0, green: 0x84 / 255.0, blue: 0xE4 / 255.0)

    /// - Parameter cornerRadius: the control's own corner radius (its `rounded-*` background's,
    ///   else the default background radius); the ring's follows it at `outset`.
    public init(around rect: Rect, cornerRadius: Double, clip: ChromeShape?, control: ControlNode) {
        let grown = Rect(x: rect.x - Self.outset, y: rect.y - Self.outset, width: rect.width + 2 * Self.outset,
                         height: rect.height + 2 * Self.outset)
        self.rect = grown
        self.cornerRadius = max(0, min(cornerRadius + Self.outset, grown.width / 2, grown.height / 2))
        self.clip = clip
        self.control = control
    }
}
