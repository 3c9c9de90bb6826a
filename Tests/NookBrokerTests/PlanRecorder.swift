import Foundation
import NookBus
import NookCore
import NookTestSupport
import Synchronization

/// A renderer in the test process: one bus connection that subscribed and records every
/// `Plan` it receives, with the time it arrived (taken on the connection's bus thread).
final class PlanRecorder: Sendable {
    /// What a test needs of one received plan.
    struct Received: Sendable {
        let arrived: ContinuousClock.Instant
        let serial: UInt64
        let cause: String
        let freshWindow: Bool
        /// The presentation the plan ends in.
        let to: String
        /// Whether any curve in it carries `samples` (sent to renderers without `spring`).
        let sampled: Bool
        /// Every `text` prop in the plan's scene.
        let texts: [String]
    }

    let connection: BusConnection
    private let plans = Locked<[Received]>([])

    private init(connection: BusConnection) { self.connection = connection }

    /// Connects and subscribes with `display`; the subscription's own (reply) plan is not
    /// recorded, only `Plan` signals.
    static func subscribe(_ bus: PrivateBus, display: [String: PropValue]) async throws -> PlanRecorder {
        let connection = try await BusConnection.connect(to: .address(bus.address))
        let recorder = PlanRecorder(connection: connection)
        _ = try await connection.addMatch(MatchRule(path: "/org/nook/Nook1", interface: "org.nook.Nook1.Render", member: "Plan")) {
            [recorder] signal in recorder.record(signal)
        }
        _ = try await connection.call(destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: "org.nook.Nook1.Render",
                                      member: "Subscribe", arguments: [WireCodec.vardict(display)], timeout: .seconds(20))
        return recorder
    }

    private func record(_ signal: BusSignal) {
        let arrived = ContinuousClock.now
        guard let first = signal.arguments.first, let plan = try? Vardict(first) else { return }
        var texts: [String] = []
        if let scene = plan["scene"] { Self.collectTexts(scene, into: &texts) }
        let received = Received(
            arrived: arrived, serial: { if case .uint64(let s)? = plan["serial"] { s } else { 0 } }(),
            cause: { if case .string(let c)? = plan["cause"] { c } else { "" } }(),
            freshWindow: plan["fresh_window"] == .bool(true), to: { if case .string(let to)? = plan["to"] { to } else { "" } }(),
            sampled: Self.containsKey("samples", first), texts: texts)
        plans.withLock { $0.append(received) }
    }

    private static func containsKey(_ key: String, _ value: DBusValue) -> Bool {
        switch value {
        case .variant(let inner): containsKey(key, inner)
        case .array(_, let items): items.contains { containsKey(key, $0) }
        case .structure(let fields): fields.contains { containsKey(key, $0) }
        case .dictionary(_, _, let entries): entries.contains { $0.key == .string(key) || containsKey(key, $0.value) }
        default: false
        }
    }

    private static func collectTexts(_ value: DBusValue, into texts: inout [String]) {
        switch value {
        case .variant(let inner): collectTexts(inner, into: &texts)
        case .array(_, let items): for item in items { collectTexts(item, into: &texts) }
        case .structure(let fields): for field in fields { collectTexts(field, into: &texts) }
        case .dictionary(_, _, let entries):
            for entry in entries {
                if entry.key == .string("text"), case .variant(.string(let text)) = entry.value { texts.append(text) }
                else { collectTexts(entry.value, into: &texts) }
            }
        default: break
        }
    }

    var received: [Received] { plans.withLock { $0 } }
    var count: Int { plans.withLock { $0.count } }

    /// The first plan received after index `from` whose scene shows `text`.
    func first(showing text: String, from: Int = 0) -> Received? {
        plans.withLock { all in all.dropFirst(from).first { $0.texts.contains(text) } }
    }

    func close() async { await connection.close() }
}
