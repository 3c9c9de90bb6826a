import Foundation
import NookBus
import NookCore
import NookTestSupport
import Synchronization

/// Activate-to-module latency (contract 1.1 Touch): a renderer's `Render.Activate` call until
/// the owning module receives `ActionInvoked`, through dbus-daemon, against a zero-work
/// forwarder written directly on sd-bus doing the same hops (reply, then one unicast signal
/// to the module), in alternating rounds of the same run.
///
/// nookd bounds presses per process (20 a second, bursts of 40), which this process's presses
/// would exceed: it runs with the bound raised (`--limits render.activationsPerSecond=...`),
/// so the figure is a press's latency, limiter check included, never a refusal. The presses
/// still rotate over `renderers` subscribed connections, as several renderers would press.
func runActivateBenchmark(bus: PrivateBus, nookd: String) async throws -> [Figure] {
    print("broker: activate-to-module latency through dbus-daemon (renderer Activate -> module ActionInvoked)")
    let state = FileManager.default.temporaryDirectory.appendingPathComponent("nook-bench-activate-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: state) }
    let setup = try await BusConnection.connect(to: .address(bus.address))
    // Presses are bounded per process since issue 38 (its connections share one budget of 20
    // a second): raised for the bench, whose presses all come from this one process; the
    // limiter's check still runs on every press and is in the figure.
    let broker = try await BenchProcess.nookd(nookd, bus: bus, stateDirectory: state, using: setup,
                                              limits: "render.activationsPerSecond=1000000,render.activationBurst=1000000")
    defer { broker.stop() }
    // In a process of its own, as nookd is (ZeroWorkProcess.swift).
    let forwarder = try await ZeroWorkProcess.start(.forwarder, bus: bus, watcher: setup)
    defer { forwarder.stop() }

    let module = try await BusConnection.connect(to: .address(bus.address))
    let arrivals = SignalArrivals()
    _ = try await module.addMatch(NookContract.Modules.actionInvoked.matchRule) { _ in arrivals.arrived() }
    try await nookCall(module, NookContract.Modules.register, [.string("bench"), .vardict([:])])
    try await nookCall(module, NookContract.Modules.register, [.string("bench"), .vardict([:])], destination: forwarder.uniqueName)
    var spec = benchSpec(0)
    spec["compact_trailing"] = .node(RawNode(kind: "text", props: ["text": .string("pause"), "action": .string("pause")]))
    try await nookCall(module, NookContract.Modules.startActivity, [.string("song"), WireCodec.vardict(spec)])

    // 60 renderers pressing in turn, about a millisecond apart.
    let renderers = 60
    var pressers: [(connection: BusConnection, target: DBusValue)] = []
    let display: [String: DBusValue] = ["width": .double(1512), "height": .double(982), "notch_width": .double(200), "notch_height": .double(32)]
    for _ in 0..<renderers {
        let connection = try await BusConnection.connect(to: .address(bus.address))
        let reply = try await NookRenderProxy(connection).subscribe(display: display)
        guard let target = activateTarget(in: .vardict(reply.plan)) else { throw TestSupportError("no pause control in the subscription's plan") }
        pressers.append((connection, target))
    }

    print("  (nookd and the zero-work forwarder are up; measuring)")
    fflush(nil)
    let rounds = 5, perRound = 300
    var nook = Samples(), baseline = Samples()
    var turn = 0
    for _ in 0..<rounds {
        for destination in [forwarder.uniqueName, "org.nook.Nook1"] {
            var samples = Samples()
            for _ in 0..<perRound {
                let presser = pressers[turn % renderers]
                turn += 1
                samples.append(try await measurePress(presser.connection, presser.target, destination: destination, module: arrivals))
                try await Task.sleep(for: .milliseconds(1))
            }
            if destination == forwarder.uniqueName { baseline.append(contentsOf: samples) } else { nook.append(contentsOf: samples) }
        }
    }
    print("  activate-to-module                    p50 (µs)   p99 (µs)   p50 ratio   p99 ratio")
    print("  " + "zero-work sd-bus forwarder".padding(36) + fmt(baseline.p50).leftPadding(10) + fmt(baseline.p99).leftPadding(11) + "1.00x".leftPadding(12) + "1.00x".leftPadding(12))
    print("  " + "nookd (resolve in sent scene, limit)".padding(36) + fmt(nook.p50).leftPadding(10) + fmt(nook.p99).leftPadding(11)
          + (fmt(nook.p50 / baseline.p50) + "x").leftPadding(12) + (fmt(nook.p99 / baseline.p99) + "x").leftPadding(12))
    print("  goal: p50 ratio at most 1.5 (\(nook.p50 / baseline.p50 <= 1.5 ? "met" : "NOT met"))")

    for presser in pressers { await presser.connection.close() }
    await module.close()
    await setup.close()
    return [
        Figure(name: "broker activate-to-module p50", value: nook.p50, unit: "µs", goal: "ratio to zero-work forwarder <= 1.5",
               ratio: nook.p50 / baseline.p50, met: nook.p50 / baseline.p50 <= 1.5),
        Figure(name: "broker activate-to-module p99", value: nook.p99, unit: "µs", goal: "none (informational)",
               ratio: nook.p99 / baseline.p99, met: nil),
        Figure(name: "broker activate zero-work baseline p50", value: baseline.p50, unit: "µs", goal: "baseline", ratio: nil, met: nil),
    ]
}

/// The `Activate` target of the control in a plan's scene (the `Subscribe` reply's).
private func activateTarget(in plan: DBusValue) -> DBusValue? {
    guard let record = try? Vardict(plan), case .uint64(let serial)? = record["serial"], let scene = record["scene"].flatMap({ try? Vardict($0) }),
        case .array(_, let nodes)? = scene["nodes"]
    else { return nil }
    for entry in nodes {
        guard let node = try? Vardict(entry), node["action"] == .string("pause"), let slot = node["slot"], let owner = node["owner"],
            let path = node["path"]
        else { continue }
        return .vardict(["serial": .uint64(serial), "slot": slot, "owner": owner, "path": path])
    }
    return nil
}

/// One press: call `Activate`, wait for the module's signal, the time between.
private func measurePress(_ renderer: BusConnection, _ target: DBusValue, destination: String, module: SignalArrivals) async throws -> Double {
    let before = module.count
    let start = ContinuousClock.now
    _ = try await nookCall(renderer, NookContract.Render.activate, [target], destination: destination)
    await module.waitForMore(than: before)
    return start.duration(to: module.lastArrival).microseconds
}


/// The baseline: a broker on raw sd-bus that does no work. `Register` remembers the module's
/// connection; `Activate` replies and sends one small unicast `ActionInvoked` to it.
enum ZeroWorkForwarder {
    static func start(address: String, wellKnownName: String? = nil) throws -> RawBusServer {
        try RawBusServer(address: address, wellKnownName: wellKnownName, exporting: "/org/nook/Nook1", context: ZeroWorkModule()) { message, userdata, _ in
            let module = Unmanaged<ZeroWorkModule>.fromOpaque(userdata!).takeUnretainedValue()
            let call = RawMessage(handle: message)
            let member = call.member
            if member == "Register" { module.name = call.sender }
            call.reply()
            if member == "Activate", let target = module.name {
                call.bus.emitSignal(path: "/org/nook/Nook1", interface: "org.nook.Nook1.Modules", member: "ActionInvoked", to: target) { signal in
                    signal.append(string: "song")
                    signal.append(string: "pause")
                    signal.appendEmptyVardict()
                    return true
                }
            }
            return 1
        }
    }
}

private final class ZeroWorkModule {
    var name: String?
}
