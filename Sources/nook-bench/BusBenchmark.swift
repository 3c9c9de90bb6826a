import Glibc
import NookBus
import NookTestSupport
import Synchronization

/// Method round trip through a private dbus-daemon: NookBus (client and server) against raw
/// sd-bus called directly from Swift on dedicated threads, measured in alternating rounds of
/// the same run so machine noise hits both alike.
func runBusBenchmark() async throws -> [Figure] {
    let bus = try PrivateBus()
    defer { bus.stop() }
    let rounds = 6, callsPerRound = 2_000

    let rawServer = try RawEchoServer.start(address: bus.address)
    defer { rawServer.stop() }
    let server = try await BusConnection.connect(to: .address(bus.address))
    try await server.export([DBusInterface(RawEchoServer.interface, methods: [
        DBusMethod("Echo", in: [DBusArgument("value", "i")], out: [DBusArgument("value", "i")]) { $0.arguments },
    ])], at: RawEchoServer.path)
    let client = try await BusConnection.connect(to: .address(bus.address))

    var raw = Samples(), fromTask = Samples(), fromExecutor = Samples(), rawToNookBus = Samples()
    for _ in 0..<rounds {
        raw.append(contentsOf: try RawEchoClient.measure(address: bus.address, server: rawServer.uniqueName, calls: callsPerRound))
        rawToNookBus.append(contentsOf: try RawEchoClient.measure(address: bus.address, server: server.uniqueName, calls: callsPerRound))
        fromTask.append(contentsOf: try await measure(client, server: server.uniqueName, calls: callsPerRound, isolation: nil))
        fromExecutor.append(contentsOf: try await client.perform { try await measure($0, server: server.uniqueName, calls: callsPerRound, isolation: $0) })
    }
    await client.close()
    await server.close()

    print("bus: method round trip through dbus-daemon, \(rounds) alternating rounds x \(callsPerRound) calls")
    print("  client -> server                      p50 (µs)   p99 (µs)   p50 ratio   p99 ratio")
    raw.printRow("raw sd-bus thread -> raw sd-bus", against: raw)
    rawToNookBus.printRow("raw sd-bus thread -> NookBus server", against: raw)
    fromExecutor.printRow("NookBus, caller on its executor", against: raw)
    fromTask.printRow("NookBus, caller on another task", against: raw)
    print("  goal: NookBus p50 ratio at most 1.2 (\(fromExecutor.p50 / raw.p50 <= 1.2 ? "met" : "NOT met") on its executor, "
          + "\(fromTask.p50 / raw.p50 <= 1.2 ? "met" : "not met") from another task)")
    return [
        Figure(name: "bus round trip p50 (NookBus on its executor)", value: fromExecutor.p50, unit: "µs", goal: "ratio to raw sd-bus <= 1.2",
               ratio: fromExecutor.p50 / raw.p50, met: fromExecutor.p50 / raw.p50 <= 1.2),
        Figure(name: "bus round trip p50 (raw sd-bus baseline)", value: raw.p50, unit: "µs", goal: "baseline", ratio: nil, met: nil),
    ]
}

/// `calls` echo round trips, the loop isolated to `isolation`: nil runs it from a task on the
/// runtime's pool; the connection runs it on its own thread, the way the broker's code does.
private func measure(
    _ client: BusConnection, server: String, calls: Int, isolation: isolated (any Actor)?
) async throws -> Samples {
    var samples = Samples()
    let clock = ContinuousClock()
    for i in 0..<calls {
        let start = clock.now
        _ = try await client.call(destination: server, path: RawEchoServer.path, interface: RawEchoServer.interface,
                                  member: "Echo", arguments: [.int32(Int32(i))])
        samples.append(start.duration(to: clock.now).microseconds)
    }
    return samples
}

/// The baseline server: plain sd-bus on its own thread, answering `Echo(i) -> i`.
enum RawEchoServer {
    static let path: ObjectPath = "/org/nook/Bench"
    static let interface = "org.nook.Bench"

    /// The baseline server: `Echo(i) -> i` on plain sd-bus.
    static func start(address: String) throws -> RawBusServer {
        try RawBusServer(address: address, exporting: RawEchoServer.path.rawValue) { message, _, _ in
            let call = RawMessage(handle: message)
            let value = call.readInt32()
            call.reply { $0.append(int32: value) }
            return 1
        }
    }
}

/// The baseline client: blocking calls on plain sd-bus (`RawBus.call`) on a dedicated thread.
enum RawEchoClient {
    static func measure(address: String, server: String, calls: Int) throws -> Samples {
        let result = Mutex<Result<Samples, any Error>?>(nil)
        runOnRawThread(join: true) {
            do {
                let bus = try RawBus.connect(address)
                defer { bus.flushAndClose() }
                var samples = Samples()
                for i in 0..<calls {
                    let start = monotonicNanoseconds()
                    _ = try bus.call(destination: server, path: RawEchoServer.path.rawValue, interface: RawEchoServer.interface, member: "Echo",
                                     arguments: { $0.append(int32: Int32(i)) }, reply: { $0.readInt32() })
                    samples.append(Double(monotonicNanoseconds() - start) / 1000)
                }
                result.withLock { $0 = .success(samples) }
            } catch {
                result.withLock { $0 = .failure(error) }
            }
        }
        return try result.withLock { $0! }.get()
    }
}

/// Two decimals, by integer arithmetic (no libm needed): `12.50`, `-0.25`; a value beyond
/// what an Int holds in hundredths as Swift prints it.
func fmt(_ value: Double) -> String {
    guard value.isFinite, abs(value) < 1e15 else { return String(value) }
    let hundredths = Int((value * 100).rounded())
    let whole = hundredths / 100
    let fraction = abs(hundredths % 100)
    return "\(hundredths < 0 && whole == 0 ? "-" : "")\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
}

extension String {
    func padding(_ width: Int) -> String { self + String(repeating: " ", count: max(0, width - count)) }
    func leftPadding(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
