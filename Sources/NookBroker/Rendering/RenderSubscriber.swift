import NookCore

/// What a renderer declared it can do (`Subscribe`'s `capabilities`).
public enum RenderCapability: String, Hashable, Sendable, CaseIterable {
    /// Lays an element out at every in-between frame; without it `resize` becomes `scale`.
    case relayout
    /// Evaluates springs itself; without it every curve carries `samples`.
    case spring
    /// Cross-fades two views inside one moving frame.
    case crossfade
}

/// One renderer subscribed to plans, and what it has been shown.
///
/// Each subscriber is planned for on its own: in its own display's geometry, from the scene it
/// was last sent (not the broker's latest), at most once per frame of its refresh rate.
public struct RenderSubscriber: Hashable, Sendable {
    /// The subscriber's unique connection name; plans are unicast to it.
    public let connection: String
    public var name: String
    public var display: DisplayInfo
    /// Frames per second; plans are coalesced to at most one per frame.
    public var refreshRate: Double
    public var capabilities: Set<RenderCapability>
    /// The destination of the last plan sent: the origin of the next.
    public private(set) var presented: PlannerScene?
    /// The last plan sent and when it started, for interruptions (rule 21).
    public private(set) var inFlight: SentPlan?
    public private(set) var lastSentAt: BrokerTime?
    /// A change waiting for the next frame; the latest one wins.
    public var pending: PlanAction?

    public static let defaultRefreshRate = 60.0

    public init(connection: String, name: String = "", display: DisplayInfo, refreshRate: Double = Self.defaultRefreshRate,
                capabilities: Set<RenderCapability> = Set(RenderCapability.allCases)) {
        self.connection = connection
        self.name = name
        self.display = display
        self.refreshRate = refreshRate.isFinite && refreshRate > 0 ? refreshRate : Self.defaultRefreshRate
        self.capabilities = capabilities
    }

    /// When the next plan may go out: one frame after the last one, or now.
    public func nextSendTime(now: BrokerTime) -> BrokerTime {
        guard let lastSentAt else { return now }
        return max(now, lastSentAt + 1 / refreshRate)
    }

    /// Plans from what this subscriber presents to `state`, records it as sent, and returns
    /// the plan downgraded to what the subscriber can draw.
    public mutating func plan(
        to content: SceneContent, presentation: Presentation, action: PlanAction, settings base: PlannerSettings,
        now: BrokerTime
    ) -> (plan: TransitionPlan, sampleRate: Double?) {
        var settings = base
        settings.display = display
        let destination = PlannerScene(presentation: presentation, content: content, settings: settings)
        // A subscriber that was never sent anything starts from hidden; the planner treats
        // `subscribe` and `display_changed` as fresh windows (rule 19).
        let origin = presented
        let running = inFlight.flatMap { flight -> InFlightPlan? in
            let elapsed = now.seconds - flight.startedAt.seconds
            return elapsed < flight.plan.duration ? InFlightPlan(plan: flight.plan, elapsed: elapsed) : nil
        }
        let plan = TransitionPlanner.plan(
            from: origin ?? PlannerScene(presentation: .hidden, content: SceneContent(), settings: settings),
            to: destination, action: action, settings: settings, inFlight: origin == nil ? nil : running)
        presented = plan.scene
        inFlight = SentPlan(plan: plan, startedAt: now)
        lastSentAt = now
        pending = nil
        return (PlanDowngrade.apply(plan, for: capabilities), capabilities.contains(.spring) ? nil : refreshRate)
    }
}

/// A plan as sent, and when it started playing.
public struct SentPlan: Hashable, Sendable {
    public var plan: TransitionPlan
    public var startedAt: BrokerTime
}
