/// Limits on renderers, charged at `Subscribe` and at every plan sent (docs/broker.md,
/// "Limits").
public struct RenderLimits: Hashable, Sendable {
    /// Renderers subscribed at once, across all connections. `Subscribe` beyond it is
    /// `LimitsExceeded`. (A connection is one renderer: subscribing again replaces its
    /// subscription and is never refused.)
    public var maxRenderers: Int = 256
    /// Plans sent to one renderer and not yet acknowledged (the broker pings after every second plan;
    /// the answer acknowledges it). While this many wait, the renderer gets nothing more until
    /// it reads.
    public var maxUnacknowledgedPlans: Int = 4
    /// Seconds a renderer's window may stay full before it counts as stalled: once it reads
    /// again, its next plan is a fresh window of the current scene.
    public var stallTime: Double = 1
    /// Presses one process (all its connections together) may send per second, on average (`Render.Activate` and
    /// `Control.Invoke` together); beyond it and the burst, a press is `LimitsExceeded`.
    public var activationsPerSecond: Double = 20
    /// Presses one process may send at once after a quiet spell.
    public var activationBurst: Int = 40
    /// Bytes of plans (and of the `Subscribe` reply) sent to one connection and not yet
    /// acknowledged. While it has this many unread, it gets no new plan (the latest state
    /// waits, coalesced, and goes out once it reads), and `Subscribe` from it is refused. Below
    /// it a renderer is sent its next plan however big (unless `maxUnreadPlanBytesTotal` is
    /// reached), so one plan may take it past the limit.
    ///
    /// Why bytes as well as plans: dbus-daemon charges what a renderer has not read to nookd,
    /// and stops reading from nookd once that reaches its `max_incoming_bytes`. Four plans of a
    /// 4,000-row panel are 4 MB; 256 renderers that never read held 1 GB, and nookd froze.
    public var maxUnreadPlanBytes: Int = 1 << 20
    /// The same bytes summed over every connection, subscribed or not any more (what a renderer
    /// dropped or unsubscribed has not read still counts until it reads or leaves the bus).
    /// While the sum is this much, renderers with plans unread get no new ones and `Subscribe`
    /// is refused.
    public var maxUnreadPlanBytesTotal: Int = 32 << 20
    /// Seconds a renderer may go without acknowledging anything while it has
    /// `maxUnreadPlanBytes` of plans unread (and so gets no more) before it is dropped:
    /// unsubscribed, its place among `maxRenderers` freed. It may subscribe again once it has
    /// read. (A window full of small plans only waits, however long: it costs little.)
    public var silentRendererTimeout: Double = 30 

    public static let standard = RenderLimits()
}
