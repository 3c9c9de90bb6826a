/// Limits on renderers, charged at `Subscribe` and at every plan sent (docs/broker.md,
/// "Limits").
public struct RenderLimits: Hashable, Sendable {
    /// Renderers subscribed at once, across all connections. `Subscribe` beyond it is
    /// `LimitsExceeded`. (A connection is one renderer: subscribing again replaces its
    /// subscription and is never refused.)
    public var maxRenderers: Int
    /// Plans sent to one renderer and not yet acknowledged (the broker pings after every second plan;
    /// the answer acknowledges it). While this many wait, the renderer gets nothing more until
    /// it reads.
    public var maxUnacknowledgedPlans: Int
    /// Seconds a renderer's window may stay full before it counts as stalled: once it reads
    /// again, its next plan is a fresh window of the current scene.
    public var stallTime: Double
    /// Presses one connection may send per second, on average (`Render.Activate` and
    /// `Control.Invoke` together); beyond it and the burst, a press is `LimitsExceeded`.
    public var activationsPerSecond: Double
    /// Presses one connection may send at once after a quiet spell.
    public var activationBurst: Int

    public init(
        maxRenderers: Int = 256, maxUnacknowledgedPlans: Int = 4, stallTime: Double = 1,
        activationsPerSecond: Double = 20, activationBurst: Int = 40
    ) {
        self.maxRenderers = maxRenderers
        self.maxUnacknowledgedPlans = maxUnacknowledgedPlans
        self.stallTime = stallTime
        self.activationsPerSecond = activationsPerSecond
        self.activationBurst = activationBurst
    }

    public static let standard = RenderLimits()
}
