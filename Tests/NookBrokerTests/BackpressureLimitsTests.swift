import NookBus
import NookCore
import Testing
@testable import NookBroker

/// The pure parts of the limits against slow and greedy peers (issue 38, findings 5, 6, 11):
/// the broadcast byte bucket, the per-process work bucket, the unread-plan ledger, and the
/// scheduler's hold on renderers the byte budget keeps back.
@Suite struct BackpressureLimitsTests {
    /// 64 KiB a second after a burst of 256 KiB: a record waits exactly as long as the bucket
    /// needs to refill, and one bigger than the burst waits for a full bucket, then goes.
    @Test func theBroadcastBudgetRefillsAtItsRate() {
        var budget = ByteBudget(rate: 65_536, burst: 262_144, at: .zero)
        #expect(budget.wait(for: 262_144, at: .zero) == 0)
        budget.spend(262_144, at: .zero)
        #expect(abs(budget.wait(for: 65_536, at: .zero) - 1) < 1e-9)
        #expect(budget.wait(for: 65_536, at: BrokerTime(seconds: 1)) == 0)
        // Over the burst: waits for a full bucket (4 s from empty), then runs into debt.
        #expect(abs(budget.wait(for: 1_000_000, at: .zero) - 4) < 1e-9)
        budget.spend(1_000_000, at: BrokerTime(seconds: 4))
        #expect(budget.wait(for: 1, at: BrokerTime(seconds: 4)) > 11)
    }

    /// A process may take `workBurst` seconds at once, then `workShare` of every second; each
    /// process has its own bucket.
    @Test func aProcessHasItsShareOfWork() {
        var limiter = WorkLimiter(CallLimits(workShare: 0.25, workBurst: 1))
        let greedy = Peer.process(100), other = Peer.process(200)
        #expect(limiter.wait(greedy, at: 0) == nil)
        limiter.charge(greedy, 0.6, at: 0)
        #expect(limiter.wait(greedy, at: 0) == nil)
        limiter.charge(greedy, 0.6, at: 0)
        // 0.2 s in debt: 0.8 s at a quarter of a second each second.
        let wait = limiter.wait(greedy, at: 0)
        #expect(wait != nil && abs(wait! - 0.804) < 0.01, "\(String(describing: wait))")
        #expect(limiter.wait(greedy, at: 0.81) == nil)
        #expect(limiter.wait(other, at: 0) == nil, "another process pays for nothing")
        // Nonsense limits fall back to the defaults.
        let fallback = WorkLimiter(CallLimits(workShare: .nan, workBurst: -1))
        #expect(fallback.share == 0.25 && fallback.burst == 1)
    }

    /// Unread bytes per connection and in total; reading frees no more than was held.
    @Test func unreadPlanBytesAddUpPerConnection() {
        var unread = UnreadPlanBytes()
        unread.sent(900_000, to: ":1.1")
        unread.sent(300_000, to: ":1.2")
        unread.sent(300_000, to: ":1.1")
        #expect(unread.unread(":1.1") == 1_200_000 && unread.total == 1_500_000)
        unread.read(2_000_000, by: ":1.1")
        #expect(unread.unread(":1.1") == 0 && unread.total == 300_000 && unread.byConnection[":1.1"] == nil)
        unread.read(1, by: ":1.9")
        #expect(unread.total == 300_000)
    }

    /// When the bus daemon holds less for a connection than it has unacknowledged (it read
    /// without dispatching, so never answered a ping), the count drops to what the daemon
    /// holds, and answers to pings sent before no longer subtract from what came after.
    @Test func unreadBytesSettleToWhatTheBusHolds() {
        var unread = UnreadPlanBytes()
        unread.sent(2_000_000, to: ":1.1")
        let before = unread.generation(of: ":1.1")
        let settled = unread.settle(":1.1", heldByBus: 100)
        #expect(settled)
        #expect(unread.unread(":1.1") == 100 && unread.total == 100)
        let raised = unread.settle(":1.1", heldByBus: 5_000)
        #expect(!raised, "the daemon's count never raises nookd's")
        unread.sent(500_000, to: ":1.1")
        unread.read(2_000_000, by: ":1.1", generation: before)
        #expect(unread.unread(":1.1") == 500_100, "an answer to a ping from before the settling")
        unread.read(500_000, by: ":1.1", generation: unread.generation(of: ":1.1"))
        #expect(unread.unread(":1.1") == 100)
        unread.forget(":1.1")
        #expect(unread.total == 0 && unread.byConnection.isEmpty)
    }

    /// A held renderer is not due until released; a release after `stallTime` with a change
    /// waiting asks for a fresh window; one blocked by its own plans that acknowledges nothing
    /// for the timeout is named silent, one held by others' bytes is not.
    @Test func theSchedulerHoldsRenderersBackAndNamesSilentOnes() {
        var scheduler = FrameScheduler(window: 4, stallTime: 1)
        scheduler.add("a", rate: 60, at: .zero)
        scheduler.add("b", rate: 60, at: .zero)
        scheduler.changedAll()
        let later = BrokerTime(seconds: 0.5)
        #expect(scheduler.isDue("a", at: later))
        scheduler.hold("a", at: later)
        scheduler.hold("b", at: later)
        #expect(!scheduler.isDue("a", at: later) && scheduler.nextDue(after: later) == nil)
        #expect(scheduler.silent(for: 30, at: BrokerTime(seconds: 40)) { $0 == "a" } == ["a"])
        let fresh = scheduler.release("a", at: BrokerTime(seconds: 2))
        #expect(fresh, "held 1.5 s with a change waiting: a fresh window")
        #expect(scheduler.isDue("a", at: BrokerTime(seconds: 2)))
        let again = scheduler.release("a", at: BrokerTime(seconds: 2))
        #expect(!again, "not held any more")
        scheduler.acknowledged("b", plans: 0, at: BrokerTime(seconds: 39))
        #expect(scheduler.silent(for: 30, at: BrokerTime(seconds: 40)) { _ in true } == [], "b was heard from at 39 s")
    }

    /// `StateChanged` labels are cut at a character boundary, never inside one.
    @Test func labelsAreCutAtCharacterBoundaries() {
        #expect(Broker.prefix(of: "abc", bytes: 256) == "abc")
        #expect(Broker.prefix(of: "aé", bytes: 2) == "a")
        #expect(Broker.prefix(of: "👩‍👩‍👧x", bytes: 100) == "👩‍👩‍👧x")
        #expect(Broker.prefix(of: "👩‍👩‍👧x", bytes: 10) == "")
        #expect(Broker.prefix(of: String(repeating: "y", count: 4000), bytes: 256).utf8.count == 256)
    }

    /// `--limits`: known names set their limit; anything else is refused naming it.
    @Test func limitsFromTheCommandLine() throws {
        var configuration = BrokerConfiguration()
        try configuration.setLimits("render.maxUnreadPlanBytesTotal=67108864, calls.workShare=0.5,broadcast.maxHeldBytes=1000,"
                                    + "render.activationsPerSecond=1000,render.activationBurst=2000")
        #expect(configuration.renderLimits.activationsPerSecond == 1000 && configuration.renderLimits.activationBurst == 2000)
        #expect(configuration.renderLimits.maxUnreadPlanBytesTotal == 67_108_864)
        #expect(configuration.callLimits.workShare == 0.5)
        #expect(configuration.broadcastLimits.maxHeldBytes == 1000)
        func refused(_ text: String) -> Bool {
            var other = BrokerConfiguration()
            do { try other.setLimits(text) } catch { return error.description.contains(text.split(separator: "=")[0]) }
            return false
        }
        for bad in ["render.nope=1", "calls.workShare=-1", "calls.workShare"] { #expect(refused(bad), "\(bad)") }
    }
}
