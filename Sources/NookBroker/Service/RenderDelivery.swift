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
    /// Plans covered by pings sent and not yet ended, per connection. Kept apart from the
    /// subscription so that subscribing again cannot reset the window of a renderer that does
    /// not read.
    var plansAwaitingAnswer: [String: Int] = [:]
    /// Plans sent to each connection since its last ping (`Broker.plansPerPing`).
    var plansSincePing: [String: Int] = [:]
    /// Bytes of plans (and `Subscribe` replies) each connection has not acknowledged, whether
    /// or not it is still subscribed (`RenderLimits.maxUnreadPlanBytes`).
    var unread = UnreadPlanBytes()
    /// Of those, the bytes sent since the connection's last ping (the rest await an answer).
    var bytesSincePing: [String: Int] = [:]
    /// Subscribers the byte budget holds back (`FrameScheduler.hold`), looked at again when
    /// acknowledgements free bytes.
    var held: Set<String> = []
    /// The timer that looks for renderers to drop (`RenderLimits.silentRendererTimeout`).
    var silenceCheck: BusExecutor.TimerID?
    /// When the bus daemon was last asked what it holds for connections with bytes unread
    /// (`Broker.settleUnreadSoon`), and whether it is being asked now.
    var settledAt: BrokerTime?
    var settling = false
    /// The frame timer, and the time it is set for.
    var timer: BusExecutor.TimerID?
    var timerDue: BrokerTime?
    /// True while a module's call is carried out: changes it queues do not arm the frame
    /// timer, since the call ends by sending the plan or arming it
    /// (`Broker.deliverBeforeTheReplyWhenOneRendererIsDue`).
    var frameTimerHeld = false
    /// Plans made in the current delivery pass, for the renderers still to be served in it
    /// (a pass spans several turns when many renderers are due).
    var shared: [PlanInputs: SharedPlan] = [:]
    /// The pass under way when a frame's plans take more than one turn of the bus thread.
    var pass: DeliveryPass?
    /// Destinations prepared in the pass under way, by display: renderers on the same display
    /// whose plans differ (another origin, a fresh window) still share the destination. Kept
    /// here rather than in `pass`: reading them through the optional pass copied the pass.
    var passDestinations: [DisplayInfo: PlannerScene] = [:]
    private var lastPlanID: UInt64 = 0
    /// Plans made for renderers since the start, a plan shared by several counting once, and
    /// plans sent, counting each renderer (`GetState`'s `plans_made` and `plans_sent`): their
    /// ratio says how well renderers share.
    var plansMade: UInt64 = 0
    var plansSent: UInt64 = 0

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
    /// About what the signal costs the bus daemon to hold: its body and a header.
    let bytes: Int
    /// Whether the modules have heard about its diagnostics (once it first went out).
    var modulesTold: Bool
}

/// One frame's delivery, when it spans several turns of the bus thread (hundreds of renderers
/// due at once). Every renderer served in it is planned from the same snapshot, so renderers
/// with the same inputs keep sharing one plan (and one origin for the next): a change landing
/// between turns would otherwise split them into groups that each need a plan of their own,
/// frame after frame. Changes that land meanwhile are held and queued when the pass ends, so
/// they go out on the next frame and the latest state is never lost.
///
/// A class: the pass is read for every renderer it serves and every call that lands during it,
/// and as a value each read copied its content, settings and lists.
final class DeliveryPass {
    let content: SceneContent
    let presentation: Presentation
    let settings: PlannerSettings
    let marks: [String: ModuleMarks]
    /// When the pass began: the frame every renderer it serves is counted in.
    let startedAt: BrokerTime
    /// The renderers still to be served in this pass, in `FrameScheduler.due` order as it was
    /// when the pass began (sorting once, not at every turn).
    var due: [String]
    /// Changes that landed during the pass, in order, with the subscribers they are for (nil:
    /// every subscriber).
    private(set) var held: [(action: PlanAction, connections: [String]?)] = []

    init(content: SceneContent, presentation: Presentation, settings: PlannerSettings, marks: [String: ModuleMarks], due: [String], at startedAt: BrokerTime) {
        self.content = content
        self.startedAt = startedAt
        self.due = due
        self.presentation = presentation
        self.settings = settings
        self.marks = marks
    }

    /// Holds a change for the end of the pass. A flood during a pass stays one entry: changes
    /// for the same subscribers coalesce as a subscriber's own queue does.
    func hold(_ action: PlanAction, for connections: [String]?) {
        if let last = held.indices.last, held[last].connections == connections {
            held[last].action = held[last].action.coalescing(action)
        } else {
            held.append((action, connections))
        }
    }
}
