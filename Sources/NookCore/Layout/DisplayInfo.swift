/// The display a renderer declares when it subscribes (the contract's `display` keys that
/// geometry uses), in points.
public struct DisplayInfo: Hashable, Sendable {
    public var width: Double
    public var height: Double
    /// 0 when the display has no notch; the nook then centres on the top edge all the same.
    public var notchWidth: Double
    public var notchHeight: Double
    /// Pixels per point. Geometry stays in unrounded points (exact and deterministic); the
    /// renderer snaps to its pixel grid.
    public var scale: Double

    public init(width: Double, height: Double, notchWidth: Double = 0, notchHeight: Double = 0, scale: Double = 1) {
        self.width = width
        self.height = height
        self.notchWidth = notchWidth
        self.notchHeight = notchHeight
        self.scale = scale
    }

    /// A copy safe to compute with: non-finite or negative lengths become 0, lengths past
    /// `NumberDomain.length` its bound, the notch is no wider than the display, a bad scale
    /// becomes 1.
    public var sanitized: DisplayInfo {
        func length(_ value: Double) -> Double { value.isFinite ? NumberDomain.length.clamped(value) : 0 }
        let width = length(width)
        let height = length(height)
        return DisplayInfo(
            width: width, height: height,
            notchWidth: min(length(notchWidth), width), notchHeight: min(length(notchHeight), height),
            scale: scale.isFinite && scale > 0 ? scale : 1)
    }
}
