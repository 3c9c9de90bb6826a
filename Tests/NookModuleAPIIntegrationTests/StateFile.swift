import Synchronization
import Foundation
import NookBus
import NookCore
import NookTestSupport

/// A process of this package (or an absolute path) started by a test, its output in a log
/// file, ended by its pid: the shared helper from NookTestSupport.
typealias ProductProcess = PackageProcess

/// A temporary directory for one test, removed afterwards.
struct Scratch {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("nook-sdk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A test's window on the broker: `Control.GetState` through its own connection.
struct Observer {
    let connection: BusConnection

    static func connect(_ bus: PrivateBus) async throws -> Observer {
        Observer(connection: try await BusConnection.connect(to: .address(bus.address)))
    }

    func state() async throws -> Vardict {
        let reply = try await connection.call(
            destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: "org.nook.Nook1.Control", member: "GetState",
            timeout: .seconds(20))
        return try Vardict(reply[0])
    }

    /// How many connections process `pid` holds on the bus, as the bus daemon vouches for
    /// each unique name's process (`ListNames`, then `GetConnectionUnixProcessID`).
    func connectionCount(ofProcess pid: Int32) async throws -> Int {
        var count = 0
        for name in try await ModuleThreadTests.connections(connection) {
            let owner = try? await connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "GetConnectionUnixProcessID", arguments: [.string(name)], timeout: .seconds(20))
            if case .uint32(let found)? = owner?.first, Int32(bitPattern: found) == pid { count += 1 }
        }
        return count
    }

    /// `GetState`'s `activities` as `module/activity`, in display order; empty while no broker answers.
    func activities() async -> [String] {
        guard let state = try? await state(), case .array(_, let items)? = state["activities"] else { return [] }
        return items.map { item in
            guard case .structure(let fields) = item, case .string(let module) = fields[0], case .string(let activity) = fields[1]
            else { return "?" }
            return "\(module)/\(activity)"
        }
    }

    /// Subscribes as a renderer and records every plan whole, decoded into contract values,
    /// so a test can assert on what a renderer receives (elements, layout, scene).
    func recordPlans() async throws -> RecordedPlans {
        let plans = RecordedPlans()
        _ = try await connection.addMatch(MatchRule(interface: "org.nook.Nook1.Render", member: "Plan")) { signal in
            guard let plan = signal.arguments.first, case .dictionary(let dict)? = try? PropValue(wire: plan, at: "plan")
            else { return }
            plans.append(dict)
        }
        _ = try await connection.call(
            destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: "org.nook.Nook1.Render", member: "Subscribe",
            arguments: [.vardict(["width": .double(1512), "height": .double(982), "notch_width": .double(200), "notch_height": .double(32)])],
            timeout: .seconds(20))
        return plans
    }

    /// `Control.Open` onto one activity's expanded view.
    func open(module: String, activity: String) async throws {
        _ = try await connection.call(
            destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: "org.nook.Nook1.Control", member: "Open",
            arguments: [.vardict(["onto": .string("activity"), "module": .string(module), "activity": .string(activity)])],
            timeout: .seconds(20))
    }

    func close() async { await connection.close() }
}

/// The plans a subscribed observer received, whole, in order.
final class RecordedPlans: Sendable {
    private let plans = Locked<[[String: PropValue]]>([])
    func append(_ plan: [String: PropValue]) { plans.withLock { $0.append(plan) } }
    var all: [[String: PropValue]] { plans.withLock { $0 } }
    /// The first plan received after the first `skipping` plans that satisfies `condition`.
    func first(after skipping: Int = 0, where condition: ([String: PropValue]) -> Bool) -> [String: PropValue]? {
        all.dropFirst(skipping).first(where: condition)
    }
    /// True when some plan's laid-out scene drew a node owned by `owner` (`module/activity`).
    /// A plan's `cause` is not enough: changes in one frame are coalesced into one plan.
    func anySceneShows(owner: String) -> Bool {
        all.contains { plan in
            guard case .dictionary(let scene)? = plan["scene"], case .array(let nodes)? = scene["nodes"] else { return false }
            return nodes.contains { node in
                guard case .dictionary(let fields) = node else { return false }
                return fields["owner"] == .string(owner)
            }
        }
    }
}
