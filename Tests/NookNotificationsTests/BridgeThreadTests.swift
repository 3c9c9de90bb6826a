import Foundation
import NookBus
import NookModuleAPI
@testable import NookNotifications
import NookTestSupport
import Testing

/// The bridge takes `Notify`, publishes the notification and sends its `UpdateActivity` on one
/// thread: the module shares the service's connection, and the publisher runs on its thread.
@Suite struct BridgeThreadTests {
    static func runsOn(_ executor: BusExecutor, _ publisher: isolated Publisher) -> Bool { executor.isCurrentThread }
    static func runsOn(_ executor: BusExecutor, _ module: isolated NookModule) -> Bool { executor.isCurrentThread }

    @Test func theModuleAndThePublisherRunOnTheThreadThatTakesNotify() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("nook-bridge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: home)
            var settings = BridgeSettings(imageDirectory: home.appendingPathComponent("images").path)
            settings.stateDirectory = nil
            settings.rulesPath = nil
            settings.sound = false
            let bridge = try await NotificationBridge.start(address: bus.address, settings: settings, version: "test", log: { _ in })
            #expect(await Self.runsOn(bridge.bus.executor, bridge.module))
            #expect(await Self.runsOn(bridge.bus.executor, bridge.publisher))

            let client = try await BusConnection.connect(to: .address(bus.address))
            let reply = try await client.call(
                destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications", interface: "org.freedesktop.Notifications",
                member: "Notify", arguments: [.string("make"), .uint32(0), .string(""), .string("Built"), .string("all targets"),
                                              .array(element: "s", []), .vardict([:]), .int32(-1)])
            guard case .uint32(let id)? = reply.first else { throw TestSupportError("Notify replied \(reply)") }
            #expect(await eventually { nookd.storedActivities(of: NotificationBridge.moduleID)["n\(id)"]?.contains("Built") == true })
            await client.close()
            await bridge.shutDown()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }
}
