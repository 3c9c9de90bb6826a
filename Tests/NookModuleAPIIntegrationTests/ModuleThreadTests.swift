import NookBus
@testable import NookModuleAPI
import NookTestSupport
import Testing

/// A module runs on its connection's bus thread, so what it sends leaves without a thread
/// hop; a program can hand it the connection it already has (`connect(_:address:sharing:)`).
@Suite struct ModuleThreadTests {
    static func runsOn(_ executor: BusExecutor, _ module: isolated NookModule) -> Bool { executor.isCurrentThread }

    /// The unique names on the bus.
    static func connections(_ connection: BusConnection) async throws -> Set<String> {
        let reply = try await connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "ListNames")
        guard case .array(_, let names)? = reply.first else { return [] }
        return Set(names.compactMap { if case .string(let name) = $0, name.hasPrefix(":") { name } else { nil } })
    }

    static func kitchen() -> NookModuleConfiguration {
        var configuration = NookModuleConfiguration(id: "kitchen", displayName: "Kitchen", version: "1.0")
        configuration.setCompactLeading { Text("K") }
        return configuration
    }

    static func pasta() -> NookLiveActivity {
        NookLiveActivity(id: "pasta", accessibilityLabel: "Pasta") {
            Image(systemName: "timer")
        } compactTrailing: {
            Text("1:00")
        } minimal: {
            Image(systemName: "timer")
        }
    }

    @Test func aModuleRunsOnItsOwnConnectionsThread() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let module = try await NookModule.connect(Self.kitchen(), address: .bus(bus.address))
            #expect(await Self.runsOn(module.home.executor, module))
            #expect(try await module.start(Self.pasta()) == .delivered)
            await module.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }

    @Test func aSharedConnectionCarriesTheModuleAndItsThreadRunsIt() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)
            let shared = try await BusConnection.connect(to: .address(bus.address))
            let before = try await Self.connections(observer.connection)
            let module = try await NookModule.connect(Self.kitchen(), address: .bus(bus.address), sharing: shared)
            #expect(await Self.runsOn(shared.executor, module))
            #expect(try await module.start(Self.pasta()) == .delivered)
            #expect(await observer.activities() == ["kitchen/pasta"])
            // No connection of its own: the bus has the same ones as before the module.
            #expect(try await Self.connections(observer.connection) == before)
            await module.close()
            #expect(await !shared.isOpen)
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }
}
