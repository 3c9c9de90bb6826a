/// Limits on renderers, charged at `Subscribe` and at every plan sent (docs/broker.md,
/// "Limits").
public struct RenderLimits: Hashable, Sendable {
    /// Renderers subscribed at once, across all connections. `Subscribe` beyond it is
    /// `LimitsExceeded`. (A connection is one renderer: subscribing again replaces its
    /// subscription and is never refused.)
    public var maxRenderers: Int
    /// Plans sent to one renderer and not yet acknowledged (the broker pings after each plan;
    /// the answer acknowledges it). While this many wait, the renderer gets nothing more until
    /// it reads.
    public var maxUnacknowledgedPlans: Int
    /// Seconds a renderer's window may stay full before it counts as stalled: once it reads
    /// again, its next plan is a fresh window of the current scene.
    public var stallTime: Double

    public init(maxRenderers: Int = 256, maxUnacknowledgedPlans: Int = 4, stallTime: Double = 1) {
        self.maxRenderers = maxRenderers
        self.maxUnacknowledgedPlans = maxUnacknowledgedPlans
        self.stallTime = stallTime
    }

    public static let standard = RenderLimits()
}
