import NookCore

/// What a renderer draws at one instant: the chrome, then items in painter's order. Produced
/// by `PlanPresenter.frame(at:)` from the plans received so far; a toolkit only paints it.
/// Rects are in display points, relative to the top-left of the display.
///
/// ## Painting the chrome
/// Paint `chromeLayers` in order, each shape filled black at its own `opacity`, before the
/// items. Outside a Reduce Motion dissolve that is just `chrome`, opaque. During one (the
/// plan's `chrome.cross_fade`, rule 18) `chrome` is the destination shape and `fadingChrome`
/// the source shape, and the model has already chosen their opacities so that nothing is
/// ever half-transparent where they overlap: the larger shape (by area) carries the
/// dissolve (the destination at `p`, the source at `1 - p`) and the smaller one stays
/// opaque; `chromeLayers` puts the less opaque shape first, so the opaque one is painted on
/// top of it. Nook shapes are nested (all hang from the top edge, centred), so the overlap is
/// the smaller shape and the dissolve shows only in the ring between the two.
public struct DisplayList: Hashable, Sendable {
    /// The nook's black shape (the destination during a dissolve), or nil while hidden.
    public var chrome: ChromeShape?
    /// During a Reduce Motion dissolve, the shape the chrome dissolves from; else nil.
    public var fadingChrome: ChromeShape?
    /// Everything inside (and, for capsules, beside) the chrome, back to front.
    public var items: [DrawItem]
    /// Every node carrying `action` drawn in this list, back to front, at its rect of this
    /// instant: what `control(at:)` hit-tests (stacks draw no item, so controls are listed
    /// apart from `items`).
    public var controls: [DrawnControl]
    /// The focused control's ring, painted after the items; nil when nothing has keyboard focus.
    public var focusRing: FocusRing?
    /// What the pointer reaches besides controls, back to front (`ReachTarget`).
    public var targets: [ReachTarget]

    public init(chrome: ChromeShape? = nil, fadingChrome: ChromeShape? = nil, items: [DrawItem] = [],
                controls: [DrawnControl] = [], focusRing: FocusRing? = nil, targets: [ReachTarget] = []) {
        self.chrome = chrome
        self.fadingChrome = fadingChrome
        self.items = items
        self.controls = controls
        self.focusRing = focusRing
        self.targets = targets
    }

    /// The chrome shapes to fill black, in painting order (see "Painting the chrome").
    public var chromeLayers: [ChromeShape] {
        switch (fadingChrome, chrome) {
        case (nil, nil): []
        case (let only?, nil), (nil, let only?): [only]
        case (let fading?, let destination?): fading.opacity <= destination.opacity ? [fading, destination] : [destination, fading]
        }
    }
}

/// The chrome: a rounded rect (bottom corners rounded, top flush with the display edge).
public struct ChromeShape: Hashable, Sendable {
    public var rect: Rect
    public var radius: Double
    /// 0...1; below 1 only during a Reduce Motion dissolve. Clips ignore it.
    public var opacity: Double

    public init(rect: Rect, radius: Double, opacity: Double = 1) {
        self.rect = rect
        self.radius = radius
        self.opacity = opacity
    }
}

/// An RGBA colour, components 0...1.
public struct RGBA: Hashable, Sendable {
    public var red: Double, green: Double, blue: Double, alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    public static let white = RGBA(red: 1, green: 1, blue: 1)
    public static let black = RGBA(red: 0, green: 0, blue: 0)
}

/// One thing to paint.
public struct DrawItem: Hashable, Sendable {
    /// The scene path of the node (`home/0`), for logs and tests.
    public var path: String
    /// The shared-element key when this item is a moving shared element, else nil.
    public var sharedKey: String?
    public var content: DrawContent
    /// Where to draw, already interpolated for this instant.
    public var rect: Rect
    /// 0...1: slot fades, cross-fades and `opacity` props multiplied together.
    public var opacity: Double = 1
    /// When set, clip to this rounded rect (the chrome's, for `clip: chrome`).
    public var clip: ChromeShape?
    /// A `scale` style element is laid out at its destination size and drawn scaled into
    /// `rect`: the toolkit lays text out in `layoutSize` and scales to `rect.size`. Nil: draw
    /// at `rect`'s own size.
    public var layoutSize: Size?
}

/// What an item is. Stacks and spacers draw nothing, so they never appear.
public enum DrawContent: Hashable, Sendable {
    /// Text, already resolved for this instant (a `timer_end` countdown is formatted here).
    case text(String, TextStyle)
    /// An icon-theme name (`media-playback-start`) or a `file://` URI.
    case image(source: String, tint: RGBA?)
    case shape(ShapeKind, fill: RGBA, cornerRadius: Double)
    /// `fraction` 0...1 of a linear bar or a circular ring.
    case progress(fraction: Double, style: ProgressStyle, tint: RGBA)
    /// A custom view by name (`CoverArt`, `EqualizerBars`), with its props as strings.
    case custom(name: String, properties: [String: String])
}

public struct TextStyle: Hashable, Sendable {
    public var size: Double
    /// CSS-like weight, 100...900.
    public var weight: Int
    public var color: RGBA
    public var monospacedDigits: Bool
    public var alignment: Alignment
    /// The `italic` class: the family's italic (or oblique) face.
    public var italic: Bool
    /// The `underline` class: a single underline.
    public var underline: Bool
    /// `line_limit`: at most this many lines, the last ellipsized (nil: as many as the box holds).
    public var lineLimit: Int?

    public init(size: Double = 13, weight: Int = 400, color: RGBA = .white, monospacedDigits: Bool = false,
                alignment: Alignment = .leading, italic: Bool = false, underline: Bool = false, lineLimit: Int? = nil) {
        self.size = size
        self.weight = weight
        self.color = color
        self.monospacedDigits = monospacedDigits
        self.alignment = alignment
        self.italic = italic
        self.underline = underline
        self.lineLimit = lineLimit
    }
}

/// What the pointer does over the chrome, for parent-state variants (`group-hover`, ...).
public struct PointerState: Hashable, Sendable {
    /// The pointer's position in display points, or nil when it is not over the window.
    public var location: Point?
    /// Button 1 is down (wherever it went down).
    public var isPressed: Bool
    /// The control button 1 went down on and holds (`PressTracker.held`): only a press on a
    /// control is a press of the groups around it (seed 001: buttons publish their press
    /// state), and only its own button looks pressed. nil when the press began elsewhere.
    public var pressedControl: ControlNode?
    /// The control Enter or Space just activated from the keyboard: for a moment
    /// (`ButtonLook.keyboardPressMilliseconds`) it and the groups around it look pressed, as
    /// under a pointer press, wherever the pointer is.
    public var keyboardPressed: ControlNode?

    public init(location: Point? = nil, isPressed: Bool = false, pressedControl: ControlNode? = nil, keyboardPressed: ControlNode? = nil) {
        self.location = location
        self.isPressed = isPressed
        self.pressedControl = pressedControl
        self.keyboardPressed = keyboardPressed
    }
}
