import Foundation
import NookBus
import NookTestSupport
import Synchronization
import Testing

/// The benchmark's zero-work baselines run as processes of their own
/// (`nook-bench --serve-zero-work KIND --address A`), so they cost the address-space switches
/// nookd and nook-notifications cost. The benchmark finds one by its name and ends it by pid with
/// SIGTERM: a child that kept SIGTERM blocked (the benchmark's threads block it, and a child
/// inherits the mask) would hang the benchmark's clean-up.
struct BenchZeroWorkProcessTests {
    @Test(arguments: ["broker", "notifications", "forwarder", "notificationsChain"])
    func aZeroWorkBaselineOwnsItsNameAndEndsOnSIGTERM(kind: String) async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let logs = FileManager.default.temporaryDirectory
        let server = try PackageProcess("nook-bench", ["--serve-zero-work", kind, "--address", bus.address], logDirectory: logs)
        let watcher = try await BusConnection.connect(to: .address(bus.address))
        let name = "org.nook.Bench.ZeroWork." + kind.prefix(1).uppercased() + kind.dropFirst()
        let owned = try await eventually(timeout: .seconds(30)) { try await watcher.nameOwner(of: name) != nil }
        #expect(owned, "\(kind) never took \(name): \(server.log)")
        server.signal(SIGTERM)
        let ended = await server.waitForExit(timeout: .seconds(30))
        if !ended { server.signal(SIGKILL) }
        #expect(ended, "the zero-work \(kind) did not end on SIGTERM")
        await watcher.close()
    }

    /// The zero-work chain (the floor of "Notify until the plan"): `Notify` to its bridge is
    /// answered with the id, and reaches the renderer subscribed to its broker as a `Plan`
    /// carrying the update the bridge was given (the broker has no plan of its own set).
    @Test func theZeroWorkChainTakesANotifyToTheRenderer() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let logs = FileManager.default.temporaryDirectory
        let broker = try PackageProcess("nook-bench", ["--serve-zero-work", "broker", "--address", bus.address], logDirectory: logs)
        defer { broker.signal(SIGKILL) }
        let bridge = try PackageProcess("nook-bench", ["--serve-zero-work", "notificationsChain", "--address", bus.address], logDirectory: logs)
        defer { bridge.signal(SIGKILL) }
        let renderer = try await BusConnection.connect(to: .address(bus.address))
        for name in ["org.nook.Bench.ZeroWork.Broker", "org.nook.Bench.ZeroWork.NotificationsChain"] {
            #expect(try await eventually(timeout: .seconds(30)) { try await renderer.nameOwner(of: name) != nil }, "\(name) never taken")
        }
        let plans = Mutex<[[DBusValue]]>([])
        _ = try await renderer.addMatch(NookContract.Render.plan.matchRule) { signal in plans.withLock { $0.append(signal.arguments) } }
        _ = try await NookRenderProxy(renderer, destination: "org.nook.Bench.ZeroWork.Broker").subscribe(display: [:])
        let update: [DBusValue] = [.string("n1"), .vardict(["accessibility_label": .string("make: Building 7%")])]
        _ = try await renderer.call(destination: "org.nook.Bench.ZeroWork.NotificationsChain", path: "/org/freedesktop/Notifications",
                                    interface: "org.freedesktop.Notifications", member: "SetUpdatePayload", arguments: update)
        let reply = try await renderer.call(
            destination: "org.nook.Bench.ZeroWork.NotificationsChain", path: "/org/freedesktop/Notifications",
            interface: "org.freedesktop.Notifications", member: "Notify",
            arguments: [.string("make"), .uint32(5), .string(""), .string("Building 7%"), .string(""), .array(element: "s", []), .vardict([:]), .int32(-1)])
        #expect(reply == [.uint32(5)])
        // The broker sends the update's own `a{sv}` (after its activity id) as the plan.
        #expect(try await eventually(timeout: .seconds(30)) { plans.withLock { $0.count } == 1 })
        #expect(plans.withLock { $0.first } == [update[1]])
        await renderer.close()
    }

    @Test func anUnknownKindIsRefusedNamingIt() async throws {
        let result = try await Tools.run(try PackageProcess.executable("nook-bench").path, ["--serve-zero-work", "nothing", "--address", "unix:path=/nonexistent"])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("'nothing'"), "\(result.stderr)")
    }
}
