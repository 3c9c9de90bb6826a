import NookCore

/// What a renderer declared it can do (`Subscribe`'s `capabilities`).
public enum RenderCapability: String, Hashable, Sendable, CaseIterable {
    /// Lays an element out at every in-between frame; without it `resize` becomes `scale`.
    case relayout
    /// Evaluates springs itself; without it every curve carries `samples`.
    case spring
    /// Cross-fades two views inside one moving frame.
    case crossfade
    /// Contract 1.1: keeps the last scene it was sent and applies `scene_delta` to it.
    case sceneDelta = "scene_delta"
    /// An addition to contract 1.1: with `scene_delta`, reads compact plans (keys that follow
    /// from the rest left out; docs/contract.md, "Smaller plans"). A renderer written to the
    /// contract's `scene_delta` alone keeps getting every key.
    case compactPlans = "compact_plans"

    /// What a subscriber that names no `capabilities` can do: everything of contract v1.
    public static let v1: Set<RenderCapability> = [.relayout, .spring, .crossfade]
}

/// One renderer subscribed to plans, and what it has been shown.
///
/// Each subscriber is planned for on its own: in its own display's geometry, from the scene it
/// was last sent (not the broker's latest). *When* it gets a plan is `FrameScheduler`'s call;
/// this type decides *what* the plan is. Planning (`planned`) and recording a send
/// (`didSend`) are separate steps, so a plan that could not be sent changes nothing.
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
    /// Identifies the last plan sent (`PlanInputs.origin`): subscribers sent the same plan at
    /// the same moment share its id, and so share what they present and what is in flight.
    public private(set) var lastPlanID: UInt64 = 0
    /// The scenes of the newest plans sent, where `Render.Activate` finds what was pressed.
    public private(set) var sentScenes = SentScenes()
    /// A change waiting for the next frame; the latest one wins.
    public var pending: PlanAction?
    /// Set when the next plan must start a fresh window (rule 19) whatever else the frame
    /// holds: `displayChanged` after a display change, `subscribe` after falling behind.
    public var freshWindow: PlanCause?

    public static let defaultRefreshRate = 60.0

    public init(connection: String, name: String = "", display: DisplayInfo, refreshRate: Double = Self.defaultRefreshRate,
                capabilities: Set<RenderCapability> = RenderCapability.v1) {
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

    /// Queues `action` for the next plan; changes within one frame collapse into the latest.
    public mutating func queue(_ action: PlanAction) {
        pending = pending.map { $0.coalescing(action) } ?? action
    }

    /// The action the next plan is made for: the pending one, turned into a fresh window when
    /// one is owed. Nil when nothing waits.
    public var nextAction: PlanAction? {
        guard var action = pending else { return nil }
        if let fresh = freshWindow, action.cause != fresh {
            // The planner starts a fresh window for these causes only; the frame's other
            // causes stay listed in `causes`.
            action = action.coalescing(PlanAction(cause: fresh, serial: action.serial))
        }
        return action
    }

    /// Everything a plan for this subscriber at `now` depends on besides the scene and
    /// settings: subscribers with equal inputs at the same moment get the same plan.
    public func inputs(for action: PlanAction, at now: BrokerTime) -> PlanInputs {
        PlanInputs(origin: origin(at: now), display: display, capabilities: capabilities, refreshRate: refreshRate, action: action)
    }

    /// What a plan made at `now` starts from (`PlanInputs.origin`).
    public func origin(at now: BrokerTime) -> PlanOrigin {
        guard let inFlight else { return .none }
        guard inFlight.elapsed(at: now) == nil else { return .playing(lastPlanID) }
        // A delta names the serial it edits, so for a `scene_delta` subscriber that is part of
        // where it stands.
        return .settled(SettledOrigin(scene: inFlight.plan.scene, base: capabilities.contains(.sceneDelta) ? inFlight.plan.serial : nil))
    }

    /// The plan from what this subscriber presents to `content`, without recording anything.
    /// - Returns: the plan as planned (pass it to `didSend`) and as sent (downgraded to what
    ///   the subscriber can draw), with the rate curves are sampled at (nil: not sampled).
    /// - Parameter marks: each module's marks from the registry (rule 8 judges "no other live
    ///   activity marks X" over every live activity, on screen or not); nil reads them from the
    ///   scenes.
    /// - Parameter prepared: the destination already prepared for this subscriber's display from
    ///   the same content, presentation and settings (another subscriber's, in the same pass);
    ///   nil prepares it here.
    public func planned(
        to content: SceneContent, presentation: Presentation, action: PlanAction, settings base: PlannerSettings,
        now: BrokerTime, marks: [String: ModuleMarks]? = nil, prepared: PlannerScene? = nil
    ) -> (plan: TransitionPlan, sent: TransitionPlan, sampleRate: Double?) {
        var settings = base
        settings.display = display
        let destination = prepared ?? destination(for: content, presentation: presentation, settings: settings)
        // A subscriber that was never sent anything starts from hidden; the planner treats
        // `subscribe` and `display_changed` as fresh windows (rule 19).
        let origin = presented
        let running = inFlight.flatMap { flight in flight.elapsed(at: now).map { InFlightPlan(plan: flight.plan, elapsed: $0) } }
        let plan = TransitionPlanner.plan(
            from: origin ?? PlannerScene(presentation: .hidden, content: SceneContent(), settings: settings),
            to: destination, action: action, settings: settings, inFlight: origin == nil ? nil : running, marks: marks)
        return (plan, PlanDowngrade.apply(plan, for: capabilities), capabilities.contains(.spring) ? nil : refreshRate)
    }

    /// The scene `content` makes on this subscriber's display, prepared reusing what the last
    /// scene sent it already resolved: a slot whose view did not change keeps its namespaces
    /// (most plans change one slot of several). After a theme change nothing is reused
    /// (`reusing: false`): the theme's named rules may resolve the same view differently.
    public func destination(for content: SceneContent, presentation: Presentation, settings base: PlannerSettings,
                            reusing: Bool = true) -> PlannerScene {
        var settings = base
        settings.display = display
        return PlannerScene(presentation: presentation, content: content, settings: settings,
                            reusing: reusing ? presented.map { [$0] } ?? [] : [])
    }

    /// The scene a `scene_delta` for this subscriber edits, with its plan's serial: the last
    /// plan sent (plans arrive in order on the connection, so the renderer holds it once it
    /// reads the next). Nil without the capability or before the first plan.
    public var deltaBase: (serial: UInt64, scene: PlannerScene)? {
        guard capabilities.contains(.sceneDelta), let sent = inFlight else { return nil }
        return (sent.plan.serial, sent.plan.scene)
    }

    /// Records that `plan` (as returned by `planned`) reached the bus at `now`.
    /// - Parameter id: identifies the plan among those sent (see `lastPlanID`).
    /// - Returns: what the plan replaces (the plan in flight before it, scenes no longer
    ///   kept), so the broker can free it after the plan is on its way rather than before.
    @discardableResult
    public mutating func didSend(_ plan: TransitionPlan, id: UInt64, at now: BrokerTime) -> Superseded {
        // The scene presented until now stays among the kept ones: only these can be the last reference.
        let superseded = Superseded(inFlight: inFlight, scenes: sentScenes.record(serial: plan.serial, scene: plan.scene))
        presented = plan.scene
        inFlight = SentPlan(plan: plan, startedAt: now)
        lastSentAt = now
        lastPlanID = id
        pending = nil
        freshWindow = nil
        return superseded
    }

    /// What a sent plan took the place of in a subscriber (`didSend`).
    public struct Superseded {
        let inFlight: SentPlan?
        let scenes: [PlannerScene]
    }

    /// Plans and records the plan as sent in one step (the `Subscribe` reply, previews).
    public mutating func plan(
        to content: SceneContent, presentation: Presentation, action: PlanAction, settings base: PlannerSettings,
        now: BrokerTime, id: UInt64 = 0, marks: [String: ModuleMarks]? = nil
    ) -> (plan: TransitionPlan, sampleRate: Double?) {
        let planned = planned(to: content, presentation: presentation, action: action, settings: base, now: now, marks: marks)
        didSend(planned.plan, id: id, at: now)
        return (planned.sent, planned.sampleRate)
    }
}

/// The inputs of one subscriber's plan besides the scene and the settings (which are the
/// broker's, the same for everyone at one moment). Equal inputs at the same moment give equal
/// plans, so the broker plans and encodes once per distinct `PlanInputs` per frame.
public struct PlanInputs: Hashable, Sendable {
    /// Where the subscriber stands: the scene planned from and the plan in flight.
    public var origin: PlanOrigin
    public var display: DisplayInfo
    public var capabilities: Set<RenderCapability>
    public var refreshRate: Double
    public var action: PlanAction
}

/// A plan as sent, and when it started playing.
public struct SentPlan: Hashable, Sendable {
    public let plan: TransitionPlan
    public let startedAt: BrokerTime
    /// `plan.duration`, worked out once: every frame asks each renderer whether its plan still
    /// plays, and the duration walks every curve of the plan.
    public let duration: Double

    public init(plan: TransitionPlan, startedAt: BrokerTime) {
        self.plan = plan
        self.startedAt = startedAt
        duration = plan.duration
    }

    /// Whether the plan is still playing at `now`, and for how long it has.
    public func elapsed(at now: BrokerTime) -> Double? {
        let elapsed = now.seconds - startedAt.seconds
        return elapsed < duration ? elapsed : nil
    }
}

/// Where a subscriber stands when a plan is made for it (`PlanInputs.origin`).
public enum PlanOrigin: Hashable, Sendable {
    /// It was never sent a plan.
    case none
    /// Its last plan is still playing, so the plan interrupts it (rule 21): identified by the
    /// plan's id (`RenderSubscriber.lastPlanID`); subscribers sent the same plan at the same
    /// moment share it.
    case playing(UInt64)
    /// Its last plan has finished playing: all that matters is the scene it left. Renderers
    /// that got there by different plans (subscribed at different moments, say) plan alike
    /// again from here, so one plan per frame serves them all.
    case settled(SettledOrigin)
}

/// The scene a finished plan left on a renderer, and for a `scene_delta` renderer the serial a
/// delta against it names.
///
/// Hashed by its serial and presentation only (hashing whole scenes per renderer per frame
/// would cost more than it saves), and compared in full: renderers on the same scene usually
/// hold the same storage (one plan was sent to them all), which compares at once, and scenes
/// that differ usually differ early.
public struct SettledOrigin: Hashable, Sendable {
    public var scene: PlannerScene
    public var base: UInt64?

    public func hash(into hasher: inout Hasher) {
        hasher.combine(base)
        hasher.combine(scene.presentation)
    }
}
