import Foundation
import NookBus
import NookCore
import NookTestSupport

/// A test's view of the broker through one real bus connection.
struct BrokerClient {
    let connection: BusConnection
    let diagnostics = SignalLog()

    /// `acceptsDescriptors`: the client may send Unix descriptors (to see nookd refuse them).
    static func connect(_ bus: PrivateBus, acceptsDescriptors: Bool = false) async throws -> BrokerClient {
        let connection = try await BusConnection.connect(to: .address(bus.address), acceptsDescriptors: acceptsDescriptors)
        let client = BrokerClient(connection: connection)
        let log = client.diagnostics
        _ = try await connection.addMatch(
            MatchRule(path: "/org/nook/Nook1", interface: "org.nook.Nook1.Modules", member: "Diagnostics")) { log.append($0) }
        return client
    }

    var name: String { connection.uniqueName }

    @discardableResult
    func call(_ member: String, _ arguments: [DBusValue] = [], interface: String = "org.nook.Nook1.Modules") async throws -> [DBusValue] {
        try await connection.call(
            destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: interface, member: member,
            arguments: arguments, timeout: TestDeadlines.scaled(.seconds(20)))
    }

    func register(_ module: String, info: [String: PropValue] = [:]) async throws {
        try await call("Register", [.string(module), WireCodec.vardict(info)])
    }

    func start(_ activity: String, _ spec: [String: PropValue]) async throws {
        try await call("StartActivity", [.string(activity), WireCodec.vardict(spec)])
    }

    func update(_ activity: String, _ changes: [String: PropValue]) async throws {
        try await call("UpdateActivity", [.string(activity), WireCodec.vardict(changes)])
    }

    func end(_ activity: String, _ options: [String: PropValue] = [:]) async throws {
        try await call("EndActivity", [.string(activity), WireCodec.vardict(options)])
    }

    /// `Control.GetState()`'s activities, as `module/activity` strings in display order.
    func activities() async throws -> [String] {
        let reply = try await call("GetState", interface: "org.nook.Nook1.Control")
        let state = try Vardict(reply[0])
        let list: [DBusValue] = try {
            guard case .array(let element, let items) = state["activities"], element == "(ss)" else {
                throw TestSupportError("activities is not a(ss): \(String(describing: state["activities"]))")
            }
            return items
        }()
        return list.map { item in
            guard case .structure(let fields) = item, case .string(let module) = fields[0], case .string(let activity) = fields[1] else { return "?" }
            return "\(module)/\(activity)"
        }
    }

    func state() async throws -> Vardict {
        try Vardict(try await call("GetState", interface: "org.nook.Nook1.Control")[0])
    }

    /// The codes of the diagnostics this connection received so far.
    var diagnosticCodes: [String] {
        diagnostics.all.flatMap { signal -> [String] in
            guard case .array(_, let records) = signal.arguments.first else { return [] }
            return records.compactMap { record in
                guard let dict = try? Vardict(record), case .string(let code) = dict["code"] else { return nil }
                return code
            }
        }
    }

    func close() async { await connection.close() }
}

/// Calls `body` expecting a D-Bus error named `name` whose message contains `text`.
func expectDBusError(_ name: NookErrorName, containing text: String, _ body: () async throws -> Void) async -> DBusError? {
    do {
        try await body()
    } catch let error as DBusError {
        if error.name == name.rawValue && error.message.contains(text) { return error }
        Issue.record("expected \(name.rawValue) mentioning \(text), got \(error)")
        return error
    } catch {
        Issue.record("expected \(name.rawValue), got \(error)")
        return nil
    }
    Issue.record("expected \(name.rawValue), the call succeeded")
    return nil
}

import Testing
