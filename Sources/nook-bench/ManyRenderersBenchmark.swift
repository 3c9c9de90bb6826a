import Foundation
import NookBus
import NookCore
import NookTestSupport
import Synchronization

/// "2,000 updates with 200 renderers": one module sends 2,000 `UpdateActivity` calls back to
/// back while another module's own `UpdateActivity` round trips are timed; with one subscribed
/// renderer and with 200 (`RendererCrowd`: raw sd-bus connections on one thread), each round
/// on a fresh nookd. Rounds alternate (1, 200, 1, 200, ...)
/// and the latencies are percentiles over all rounds' calls together: a p99 from one round
/// moves by 3x with what else the machine runs. Goals: the other module's p99 with 200 renderers at most 2x the
/// one-renderer figure, nookd's RSS under 64 MiB.
func runManyRenderersBenchmark(rounds: Int = 5) async throws -> [Figure] {
    let nookd = try BenchProcess.nookdPath()
    let bus = try PrivateBus()
    defer { bus.stop() }
    print("broker: 2,000 updates with 200 renderers (another module's UpdateActivity round trip meanwhile), \(rounds) alternating rounds")
    var ones: [FloodRound] = []
    var manys: [FloodRound] = []
    for _ in 0..<rounds {
        ones.append(try await floodRound(nookd: nookd, bus: bus, renderers: 1))
        manys.append(try await floodRound(nookd: nookd, bus: bus, renderers: 200))
    }
    let one = FloodRound.pooled(ones)
    let many = FloodRound.pooled(manys)
    let ratio = many.p99 / one.p99
    print("  renderers   other module p50 (µs)   p99 (µs)   flood (s)   plans received   nookd RSS (MiB)   CPU/plan (µs)   of it nookd   sends/plan made   (all rounds' calls; p99 per round)")
    for (count, round, all) in [(1, one, ones), (200, many, manys)] {
        print("  " + "\(count)".leftPadding(9) + fmt(round.p50).leftPadding(24) + fmt(round.p99).leftPadding(11)
              + fmt(round.seconds).leftPadding(12) + "\(round.plans)".leftPadding(17) + fmt(Double(round.rssKiB) / 1024).leftPadding(18)
              + fmt(round.cpuPerPlan).leftPadding(16) + "\(Int((round.brokerShare * 100).rounded()))%".leftPadding(14)
              + fmt(round.sendsPerPlanMade).leftPadding(18)
              + "   " + all.map { fmt($0.p99) }.joined(separator: ", "))
    }
    print("  goals: p99 with 200 renderers at most 2x one renderer's (\(fmt(ratio))x: \(ratio <= 2 ? "met" : "NOT met")), "
          + "nookd RSS under 64 MiB (\(many.rssKiB < 64 * 1024 ? "met" : "NOT met"))")
    return [
        Figure(name: "broker other module's UpdateActivity p99 during a flood, 200 renderers", value: many.p99, unit: "µs",
               goal: "ratio to 1 renderer <= 2", ratio: ratio, met: ratio <= 2),
        Figure(name: "broker other module's UpdateActivity p99 during a flood, 1 renderer", value: one.p99, unit: "µs",
               goal: "baseline", ratio: nil, met: nil),
        Figure(name: "broker + bus daemon CPU per plan received, flood with 200 renderers", value: many.cpuPerPlan, unit: "µs",
               goal: "none (informational)", ratio: nil, met: nil),
        Figure(name: "rss after 2,000 updates with 200 renderers", value: Double(many.rssKiB) / 1024, unit: "MiB", goal: "< 64 MiB",
               ratio: nil, met: many.rssKiB < 64 * 1024),
    ]
}

private struct FloodRound {
    /// The other module's round trips, µs.
    var samples: Samples
    var p50: Double { samples.p50 }
    var p99: Double { samples.p99 }
    var seconds: Double
    var plans: Int
    var rssKiB: Int
    /// CPU time nookd and dbus-daemon spent over the flood, per plan the renderers received:
    /// unlike the latencies, barely moved by what else the machine runs.
    var cpuPerPlan: Double
    /// nookd's part of `cpuPerPlan` (the rest is dbus-daemon's).
    var brokerShare: Double
    /// Plans sent per plan made (`GetState`'s `plans_sent` / `plans_made` over the flood): how
    /// many renderers share each plan.
    var sendsPerPlanMade: Double

    /// The rounds together: percentiles over all their round trips (a p99 of one round is its
    /// few slowest calls, which whatever else the machine runs decides), the other figures'
    /// medians (RSS: the largest).
    static func pooled(_ rounds: [FloodRound]) -> FloodRound {
        func middle(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        var all = Samples()
        for round in rounds { all.append(contentsOf: round.samples) }
        return FloodRound(
            samples: all, seconds: middle(rounds.map(\.seconds)),
            plans: Int(middle(rounds.map { Double($0.plans) })), rssKiB: rounds.map(\.rssKiB).max() ?? 0,
            cpuPerPlan: middle(rounds.map(\.cpuPerPlan)), brokerShare: middle(rounds.map(\.brokerShare)),
            sendsPerPlanMade: middle(rounds.map(\.sendsPerPlanMade)))
    }
}

private final class Flag: Sendable {
    let value = Atomic<Bool>(false)
}

private func floodRound(nookd: String, bus: PrivateBus, renderers count: Int) async throws -> FloodRound {
    let state = FileManager.default.temporaryDirectory.appendingPathComponent("nook-bench-many-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: state) }
    let watcher = try await BusConnection.connect(to: .address(bus.address))
    let broker = try await BenchProcess.nookd(nookd, bus: bus, stateDirectory: state, using: watcher)
    defer { broker.stop() }

    let flooder = try await BusConnection.connect(to: .address(bus.address))
    try await nookCall(flooder, NookContract.Modules.register, [.string("flood"), .vardict([:])])
    try await nookCall(flooder, NookContract.Modules.startActivity, [.string("song"), WireCodec.vardict(benchSpec(0))])
    let other = try await BusConnection.connect(to: .address(bus.address))
    try await nookCall(other, NookContract.Modules.register, [.string("other"), .vardict([:])])
    try await nookCall(other, NookContract.Modules.startActivity, [.string("tick"), WireCodec.vardict(benchSpec(0))])

    let crowd = try RendererCrowd(address: bus.address, count: count, display: [
        ("width", 1512), ("height", 982), ("notch_width", 200), ("notch_height", 32), ("refresh_rate", 60),
    ])
    defer { crowd.stop() }
    let before = crowd.plans
    let countersBefore = try await planCounters(watcher)
    let brokerBefore = cpuMicroseconds(of: broker.pid)
    let busBefore = cpuMicroseconds(of: bus.pid)
    let done = Flag()
    let clock = ContinuousClock()
    let start = clock.now
    let flood = Task {
        defer { done.value.store(true, ordering: .releasing) }
        for index in 1...2000 {
            try await nookCall(flooder, NookContract.Modules.updateActivity, [.string("song"), WireCodec.vardict(benchSpec(index))])
        }
    }
    var samples = Samples()
    var index = 0
    while !done.value.load(ordering: .acquiring) {
        index += 1
        let sent = clock.now
        try await nookCall(other, NookContract.Modules.updateActivity, [.string("tick"), WireCodec.vardict(benchSpec(index))])
        samples.append(sent.duration(to: clock.now).microseconds)
    }
    try await flood.value
    let seconds = start.duration(to: clock.now) / .seconds(1)
    let rss = broker.residentKiB
    let received = crowd.plans - before
    let brokerCPU = cpuMicroseconds(of: broker.pid) - brokerBefore
    let busCPU = cpuMicroseconds(of: bus.pid) - busBefore
    let cpu = brokerCPU + busCPU
    let countersAfter = try await planCounters(watcher)
    let made = countersAfter.made - countersBefore.made
    let sent = countersAfter.sent - countersBefore.sent
    crowd.stop()
    for connection in [flooder, other, watcher] { await connection.close() }
    broker.stop()
    return FloodRound(samples: samples, seconds: seconds, plans: received, rssKiB: rss,
                      cpuPerPlan: cpu / Double(max(1, received)), brokerShare: cpu > 0 ? brokerCPU / cpu : 0,
                      sendsPerPlanMade: Double(sent) / Double(max(1, made)))
}

/// User and system CPU time of `pid` so far, in µs (`/proc/PID/stat`, clock ticks).
func cpuMicroseconds(of pid: Int32) -> Double {
    guard let stat = ProcFile.text("/proc/\(pid)/stat"),
          let close = stat.lastIndex(of: ")") else { return 0 }
    // Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
    return (user + system) * 1_000_000 / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// nookd's `plans_made` and `plans_sent` (`GetState`).
private func planCounters(_ connection: BusConnection) async throws -> (made: UInt64, sent: UInt64) {
    let state = try await NookControlProxy(connection).getState()
    guard case .uint64(let made)? = state["plans_made"], case .uint64(let sent)? = state["plans_sent"] else { return (0, 0) }
    return (made, sent)
}
