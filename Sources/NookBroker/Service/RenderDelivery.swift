import NookBus
import NookCore

/// The broker's bookkeeping for getting plans to renderers (Broker+Delivery.swift): when each
/// is due (`FrameScheduler`), the one frame timer, peer tracking and acknowledgement pings.
/// Touched only on the bus thread, as part of the `Broker` actor's state.
struct RenderDelivery {
    let limits: RenderLimits
    var scheduler: FrameScheduler
    /// Subscribed renderers whose departure from the bus is watched. One match rule per
    /// connection, however often it subscribes and unsubscribes.
    var tracking: [String: PeerTracking] = [:]
    /// Pings sent and not yet ended, per connection. Kept apart from the subscription so that
    /// subscribing again cannot reset the window of a renderer that does not read.
    var pingsInFlight: [String: Int] = [:]
    /// The frame timer, and the time it is set for.
    var timer: BusExecutor.TimerID?
    var timerDue: BrokerTime?
    /// Plans made in the current delivery pass, for the renderers still to be served in it
    /// (a pass spans several turns when many renderers are due). Emptied by every change.
    var shared: [PlanInputs: SharedPlan] = [:]
    private var lastPlanID: UInt64 = 0

    enum PeerTracking {
        /// The match is being added (an `await` on the bus); the task that adds it settles it.
        case installing
        case installed(MatchToken)
    }

    init(limits: RenderLimits) {
        self.limits = limits
        scheduler = FrameScheduler(window: limits.maxUnacknowledgedPlans, stallTime: limits.stallTime)
    }

    /// A new id for a plan about to be sent (`RenderSubscriber.lastPlanID`).
    mutating func nextPlanID() -> UInt64 {
        lastPlanID += 1
        return lastPlanID
    }
}

/// One plan planned and encoded for every subscriber with the same `PlanInputs` in one
/// delivery pass.
struct SharedPlan {
    let id: UInt64
    let plan: TransitionPlan
    /// When it was planned: every renderer it goes to records this as its start, so they keep
    /// sharing their next plans too.
    let plannedAt: BrokerTime
    let signal: PreparedSignal
}
