import Testing
@testable import NookBroker
import NookCore

/// `DeliveryMachine`, every transition without a bus or a clock: the frame timer, a module's
/// call serving its one due renderer, passes that span turns and hold changes, pings every
/// second plan or at once when the window or byte budget fills, answers that free bytes and
/// windows, renderers held back and released, the bus daemon asked at most once a second, and
/// silent renderers dropped.
@Suite struct DeliveryMachineTests {
    typealias Machine = DeliveryMachine
    static let change = PlanAction(cause: .contentChanged, serial: 1)
    static func t(_ seconds: Double) -> BrokerTime { BrokerTime(seconds: seconds) }
    /// 60 Hz frames: frame n starts at n/60 s.
    static func frame(_ n: Int) -> BrokerTime { FrameScheduler.start(of: Int64(n), rate: 60) }

    static func machine(_ limits: RenderLimits = RenderLimits(), renderers: [String] = ["a"], at now: BrokerTime = .zero) -> Machine {
        var machine = Machine(limits: limits)
        for renderer in renderers { machine.subscribed(renderer, rate: 60, at: now, replyBytes: nil) }
        return machine
    }

    /// The frame timer fires at `now` and its pass finds `renderer` over its byte budget.
    static func fireHoldingBack(_ renderer: String, _ machine: inout Machine, at now: BrokerTime) -> [Machine.Action]? {
        _ = machine.passTurn(known: [renderer], at: now)
        let holding = machine.holdBackIfOverBudget(renderer, at: now)
        _ = machine.turnEnded(served: 1, from: now, to: now)
        _ = machine.passEnded()
        return holding
    }

    // MARK: The frame timer

    @Test func aChangeArmsTheFrameTimerForTheNextFrameOnce() {
        var machine = Self.machine()
        // Subscribed in frame 0, whose plan was the reply: the change waits for frame 1.
        #expect(machine.changed(Self.change, for: nil, at: Self.t(0.001)) == .take(timer: .armFrameTimer(at: Self.frame(1))))
        #expect(machine.changed(Self.change, for: ["a"], at: Self.t(0.002)) == .take(timer: nil), "armed already, for as early")
        #expect(machine.timerDue == Self.frame(1))
        #expect(machine.plansMade == 1 && machine.plansSent == 1, "the Subscribe reply counts")
    }

    @Test func aFrameTimerWithNobodyDueIsCancelled() {
        var machine = Self.machine()
        _ = machine.changed(Self.change, for: nil, at: Self.t(0.001))
        machine.nothingToSend("a", covering: machine.scheduler.version(of: "a"))
        #expect(machine.armFrameTimer(at: Self.t(0.002)) == .cancelFrameTimer)
        #expect(machine.armFrameTimer(at: Self.t(0.003)) == nil)
        #expect(machine.timerDue == nil)
    }

    // MARK: A module's call

    @Test func aCallServesItsOneDueRendererBeforeTheReply() {
        var machine = Self.machine()
        machine.callStarted()
        #expect(machine.changed(Self.change, for: nil, at: Self.frame(2)) == .take(timer: nil), "a call's changes leave the timer alone")
        #expect(machine.callEnded(at: Self.frame(2)) == .serve("a", cancelTimer: false))
        #expect(!machine.frameTimerHeld)
    }

    @Test func aCallWithSeveralDueLeavesThemToTheFrameTimer() {
        var machine = Self.machine(renderers: ["a", "b"])
        machine.callStarted()
        _ = machine.changed(Self.change, for: nil, at: Self.frame(2))
        #expect(machine.callEnded(at: Self.frame(2)) == .timer(.armFrameTimer(at: Self.frame(2))))
    }

    @Test func aCallEndingWhenNobodyIsDueChangesNothing() {
        var machine = Self.machine()
        machine.callStarted()
        #expect(machine.callEnded(at: Self.frame(2)) == .timer(nil))
    }

    // MARK: Passes

    @Test func aPassSpanningTurnsHoldsChangesUntilItEnds() throws {
        var machine = Self.machine(renderers: ["a", "b"])
        _ = machine.changed(Self.change, for: nil, at: Self.frame(2))
        let turn = machine.passTurn(known: nil, at: Self.frame(2))
        let pass = try #require(turn)
        #expect(pass.due == ["a", "b"] && pass.startedAt == Self.frame(2))
        // Two changes for the same renderers during the pass stay one entry.
        #expect(machine.changed(Self.change, for: nil, at: Self.frame(2)) == .heldForPass)
        #expect(machine.changed(PlanAction(cause: .displayChanged, serial: 2), for: nil, at: Self.frame(2)) == .heldForPass)
        // One served in a turn of 1 ms: the next turn after twice that (a third of the thread).
        let end = Self.frame(2) + 0.001
        let next = machine.turnEnded(served: 1, from: Self.frame(2), to: end)
        guard case .armFrameTimer(let at)? = next else { Issue.record("no next turn: \(String(describing: next))"); return }
        #expect(abs(at.seconds - (end.seconds + 0.001 * (1 / Machine.deliveryDuty - 1))) < 1e-9)
        #expect(machine.passTurn(known: nil, at: at)?.due == ["b"], "the same pass goes on, in its order")
        #expect(machine.turnEnded(served: 1, from: at, to: at + 0.001) == nil)
        let held = machine.passEnded()
        #expect(held.count == 1 && held[0].action.causes == [.contentChanged, .displayChanged])
        #expect(machine.pass == nil)
    }

    @Test func aTurnWithNobodyDueEndsAtOnce() {
        var machine = Self.machine()
        #expect(machine.passTurn(known: nil, at: Self.frame(5)) == nil)
        #expect(machine.passEnded().isEmpty)
    }

    // MARK: Sending

    @Test func everySecondPlanIsPinged() {
        var machine = Self.machine()
        #expect(machine.sent("a", bytes: 100, covering: 1, frameStart: Self.frame(1)).isEmpty)
        #expect(machine.sent("a", bytes: 50, covering: 2, frameStart: Self.frame(2))
            == [.ping(Machine.Ping(connection: "a", plans: 2, bytes: 150, generation: 0))])
        #expect(machine.unread.unread("a") == 150 && machine.plansSent == 3)
    }

    @Test func aFullWindowIsPingedAtOnce() {
        var machine = Self.machine(RenderLimits(maxUnacknowledgedPlans: 1))
        #expect(machine.sent("a", bytes: 10, covering: 1, frameStart: Self.frame(1))
            == [.ping(Machine.Ping(connection: "a", plans: 1, bytes: 10, generation: 0))])
    }

    @Test func aFailedSendUsesUpItsFrame() {
        var machine = Self.machine()
        _ = machine.changed(Self.change, for: nil, at: Self.frame(3))
        machine.sendFailed("a", at: Self.frame(3))
        #expect(!machine.isDue("a", at: Self.frame(3) + 0.001))
        #expect(machine.isDue("a", at: Self.frame(4)), "the change still waits")
    }

    @Test func aRendererThatLeftIsForgottenByTheScheduler() {
        var machine = Self.machine()
        machine.gone("a")
        #expect(machine.scheduler.subscribers["a"] == nil)
    }

    // MARK: Unread bytes

    @Test func unreadBytesAtTheBudgetHoldARendererBack() {
        var machine = Self.machine(RenderLimits(maxUnreadPlanBytes: 1000))
        let sent = machine.sent("a", bytes: 1000, covering: 1, frameStart: Self.frame(1))
        #expect(sent == [.armSilenceCheck(after: 7.5), .ping(Machine.Ping(connection: "a", plans: 1, bytes: 1000, generation: 0))])
        _ = machine.changed(Self.change, for: nil, at: Self.frame(2))
        #expect(machine.holdBackIfOverBudget("a", at: Self.frame(2)) == [.askBusWhatItHolds(["a"])], "the silence check is armed already")
        #expect(machine.held == ["a"] && !machine.isDue("a", at: Self.frame(3)))
        var fresh = Self.machine()
        #expect(fresh.holdBackIfOverBudget("a", at: Self.frame(2)) == nil)
    }

    @Test func anAnswerFreesBytesAndLetsAHeldRendererThrough() {
        var machine = Self.machine(RenderLimits(maxUnreadPlanBytes: 1000))
        let ping = Machine.Ping(connection: "a", plans: 1, bytes: 1000, generation: 0)
        _ = machine.sent("a", bytes: 1000, covering: 1, frameStart: Self.frame(1))
        _ = machine.changed(Self.change, for: nil, at: Self.frame(2))
        _ = Self.fireHoldingBack("a", &machine, at: Self.frame(2))
        // Answered two seconds later (past `stallTime`): the held renderer starts afresh.
        let later = Self.frame(2) + 2
        let actions = machine.pingEnded(ping, answered: true, at: later)
        #expect(actions == [.freshWindow("a", .heldBack), .armFrameTimer(at: later)])
        #expect(machine.unread.unread("a") == 0 && machine.held.isEmpty && machine.plansAwaitingAnswer["a"] == nil)
    }

    @Test func anUnansweredPingForgetsWhatTheRendererOwed() {
        var machine = Self.machine()
        _ = machine.sent("a", bytes: 10, covering: 1, frameStart: Self.frame(1))
        let pings = machine.sent("a", bytes: 10, covering: 2, frameStart: Self.frame(2))
        guard case .ping(let ping)? = pings.last else { Issue.record("no ping"); return }
        #expect(machine.pingEnded(ping, answered: false, at: Self.frame(3)).isEmpty)
        #expect(machine.unread.total == 0)
    }

    @Test func aRendererThatCatchesUpAfterAStallGetsAFreshWindow() {
        var machine = Self.machine(RenderLimits(maxUnacknowledgedPlans: 1))
        let sent = machine.sent("a", bytes: 10, covering: 1, frameStart: Self.frame(1))
        guard case .ping(let ping)? = sent.last else { Issue.record("no ping"); return }
        _ = machine.changed(Self.change, for: nil, at: Self.frame(2))
        #expect(!machine.isDue("a", at: Self.frame(3)), "the window is full")
        let later = Self.frame(2) + 1.5
        #expect(machine.pingEnded(ping, answered: true, at: later) == [.freshWindow("a", .caughtUp), .armFrameTimer(at: later)])
    }

    // MARK: The bus daemon's count

    @Test func theBusDaemonIsAskedAtMostOnceASecond() {
        var machine = Self.machine(RenderLimits(maxUnreadPlanBytes: 1000), renderers: ["a", "b"])
        _ = machine.sent("a", bytes: 1000, covering: 1, frameStart: Self.frame(1))
        _ = machine.sent("b", bytes: 200, covering: 1, frameStart: Self.frame(1))
        _ = machine.changed(Self.change, for: nil, at: Self.frame(2))
        #expect(Self.fireHoldingBack("a", &machine, at: Self.frame(2)) == [.askBusWhatItHolds(["a", "b"])], "most unread first")
        #expect(machine.askBusSoon(at: Self.frame(2) + 2) == nil, "an answer is awaited")
        // The daemon holds nothing for `a`: it read without answering; it is let through.
        let answer = machine.busHolds([("a", 0), ("b", 200)], at: Self.frame(3))
        #expect(answer == [.readWithoutAcknowledging("a", heldByBus: 0), .armFrameTimer(at: Self.frame(3))])
        #expect(machine.unread.unread("a") == 0 && machine.held.isEmpty)
        #expect(machine.askBusSoon(at: Self.frame(2) + 0.5) == nil, "asked under a second ago")
        #expect(machine.askBusSoon(at: Self.frame(2) + 1.5) == .askBusWhatItHolds(["b"]))
        machine.busHolds(50, for: "b")
        #expect(machine.unread.unread("b") == 50)
    }

    // MARK: Silent renderers

    @Test func aRendererSilentPastTheTimeoutIsDropped() {
        var machine = Self.machine(RenderLimits(maxUnreadPlanBytes: 1000, silentRendererTimeout: 4))
        _ = machine.sent("a", bytes: 1000, covering: 1, frameStart: Self.frame(1))
        _ = machine.changed(Self.change, for: nil, at: Self.frame(2))
        _ = machine.holdBackIfOverBudget("a", at: Self.frame(2))
        #expect(machine.silenceCheckFired(at: Self.t(1)) == [.armSilenceCheck(after: 1)], "not silent for long enough: checked again")
        #expect(machine.silenceCheckFired(at: Self.t(5)) == [.drop("a", unreadBytes: 1000)])
        #expect(machine.scheduler.subscribers["a"] == nil && machine.held.isEmpty)
        #expect(machine.unread.unread("a") == 1000, "what it has not read still counts until it reads or leaves")
    }

    // MARK: Subscriptions

    @Test func aSubscribeReplyAndAnUnsubscribeArePingedForTheirBytes() {
        var machine = Machine(limits: RenderLimits())
        machine.subscribed("a", rate: 60, at: .zero, replyBytes: 500)
        #expect(machine.subscribeReplied("a") == .ping(Machine.Ping(connection: "a", plans: 0, bytes: 500, generation: 0)))
        #expect(machine.subscribeReplied("a") == nil)
        _ = machine.sent("a", bytes: 70, covering: 1, frameStart: Self.frame(1))
        #expect(machine.unsubscribed("a") == .ping(Machine.Ping(connection: "a", plans: 0, bytes: 70, generation: 0)))
        #expect(machine.plansSincePing["a"] == nil && machine.scheduler.subscribers["a"] == nil)
        // Subscribing again keeps the window of plans a ping still covers.
        machine.subscribed("b", rate: 60, at: .zero, replyBytes: nil)
        _ = machine.ping("b", covering: 3)
        machine.subscribed("b", rate: 60, at: .zero, replyBytes: nil)
        #expect(machine.scheduler.subscribers["b"]?.unacknowledged == 3)
        #expect(machine.nextPlanID() == 1 && machine.nextPlanID() == 2)
    }
}
