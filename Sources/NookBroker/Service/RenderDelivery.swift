import NookBus
import NookCore

/// What the broker holds to carry out render delivery (Broker+Delivery.swift): the decisions
/// are `machine`'s (`DeliveryMachine`); here are the timers it asks for, peer tracking, and
/// the plans made in the pass under way. Touched only on the bus thread, as part of the
/// `Broker` actor's state.
struct RenderDelivery {
    var machine: DeliveryMachine
    var limits: RenderLimits { machine.limits }
    /// Subscribed renderers whose departure from the bus is watched. One match rule per
    /// connection, however often it subscribes and unsubscribes.
    var tracking: [String: PeerTracking] = [:]
    /// The frame timer (`DeliveryMachine.timerDue` says when it fires).
    var timer: BusExecutor.TimerID?
    /// The timer that looks for renderers to drop (`RenderLimits.silentRendererTimeout`).
    var silenceCheck: BusExecutor.TimerID?
    /// Plans made in the current delivery pass, for the renderers still to be served in it
    /// (a pass spans several turns when many renderers are due).
    var shared: [PlanInputs: SharedPlan] = [:]
    /// What the pass under way plans from (`DeliveryMachine.pass` says whom it serves).
    var snapshot: PassSnapshot?
    /// Destinations prepared in the pass under way, by display: renderers on the same display
    /// whose plans differ (another origin, a fresh window) still share the destination. Kept
    /// here rather than in `snapshot`: reading them through the optional copied it.
    var passDestinations: [DisplayInfo: PlannerScene] = [:]

    enum PeerTracking {
        /// The match is being added (an `await` on the bus); the task that adds it settles it.
        case installing
        case installed(MatchToken)
    }

    init(limits: RenderLimits) {
        machine = DeliveryMachine(limits: limits)
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
    /// About what the signal costs the bus daemon to hold: its body and a header. Nil until it
    /// is first sent: its body is counted while the first renderer's message is written.
    var bytes: Int?
    /// Whether the modules have heard about its diagnostics (once it first went out).
    var modulesTold: Bool
}

/// What one frame's delivery plans from, when it spans several turns of the bus thread
/// (hundreds of renderers due at once): every renderer served in it is planned from the same
/// snapshot, so renderers with the same inputs keep sharing one plan (and one origin for the
/// next); a change landing between turns would otherwise split them into groups that each need
/// a plan of their own, frame after frame (`DeliveryMachine.Pass` holds such changes).
///
/// A class: the snapshot is read for every renderer the pass serves, and as a value each read
/// copied its content, settings and lists.
final class PassSnapshot {
    let content: SceneContent
    let presentation: Presentation
    let settings: PlannerSettings
    let marks: [String: ModuleMarks]

    init(content: SceneContent, presentation: Presentation, settings: PlannerSettings, marks: [String: ModuleMarks]) {
        self.content = content
        self.presentation = presentation
        self.settings = settings
        self.marks = marks
    }
}
