import NookCore

/// What `renderer.json` says about where the nook goes and how it looks (docs/renderer.md,
/// "Configuration"). Pure data: the renderer applies it; `RendererConfig.parse` reads it.
public struct RendererConfig: Hashable, Sendable {
    /// The layer-shell layer: `top` lets fullscreen windows cover the nook, `overlay` never does;
    /// `auto` is `top`, and `overlay` only while a critical peek is shown (one of an activity
    /// whose relevance is at least `criticalRelevance`), so only that shows over a fullscreen window.
    public enum Layer: String, Hashable, Sendable { case auto, top, overlay }

    /// The relevance from which a peek counts as critical (what nook-notifications gives a
    /// critical notification).
    public static let criticalRelevance = 100.0

    /// Which monitor the nook is on.
    public enum Output: Hashable, Sendable {
        /// The primary monitor, else the first.
        case primary
        /// The monitor under the pointer when the renderer places its window.
        case focused
        /// A monitor by connector (`DP-1`) or model name, as GDK reports it.
        case named(String)
    }

    /// The notch declared to the broker.
    public enum Notch: Hashable, Sendable {
        /// Linux outputs report no notch: declare none (0x0).
        case auto
        case size(Size)

        /// `auto`, or `WxH` in points with each side 0...10000 (`0x0` is no notch).
        public init?(text: String) {
            if text == "auto" { self = .auto; return }
            let parts = text.split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]),
                  (0...Self.maximum).contains(width), (0...Self.maximum).contains(height) else { return nil }
            self = .size(Size(width: width, height: height))
        }

        public static let maximum = 10_000.0

        /// The size declared in `Subscribe` and `DisplayChanged`.
        public var size: Size {
            switch self {
            case .auto: Size(width: 0, height: 0)
            case .size(let size): size
            }
        }
    }

    /// Reduce Motion: follow the desktop's animation setting, or set it.
    public enum ReduceMotion: Hashable, Sendable {
        case auto
        case fixed(Bool)

        /// What the broker's `ReduceMotion` should be, given whether the desktop enables
        /// animations (GtkSettings `gtk-enable-animations`).
        public func value(desktopAnimations: Bool) -> Bool {
            switch self {
            case .auto: !desktopAnimations
            case .fixed(let on): on
            }
        }
    }

    public var layer: Layer = .auto
    public var output: Output = .primary
    /// Points between the top of the output (or of the area panels leave) and the nook.
    public var marginTop = 0
    /// -1: over panels; 0: below panels' exclusive zones; 1...1000: reserve that many points;
    /// nil (`auto`, the default): below panels, reserving the resting pill's height under them
    /// while a pill is shown, so windows start below it.
    public var exclusiveZone: Int? = nil
    public var notch: Notch = .auto
    /// What the file said that was taken but does nothing (the retired `font` key), one line
    /// each, for the log.
    public var notes: [String] = []
    /// The chrome's fill.
    public var chromeColor = RGBA.black
    /// Text and symbols without a colour of their own.
    public var textColor = RGBA.white
    public var reduceMotion: ReduceMotion = .auto

    public init() {}

    public static let defaults = RendererConfig()
}
