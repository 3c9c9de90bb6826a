import Foundation
import NookBus
import NookTestSupport
import Testing

/// The benchmark's zero-work baselines run as processes of their own
/// (`nook-bench --serve-zero-work KIND --address A`), so they cost the address-space switches
/// nookd and nook-notifications cost. The benchmark finds one by its name and ends it by pid with
/// SIGTERM: a child that kept SIGTERM blocked (the benchmark's threads block it, and a child
/// inherits the mask) would hang the benchmark's clean-up.
struct BenchZeroWorkProcessTests {
    @Test(arguments: ["broker", "notifications", "forwarder"])
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

    @Test func anUnknownKindIsRefusedNamingIt() async throws {
        let result = try await Tools.run(try PackageProcess.executable("nook-bench").path, ["--serve-zero-work", "nothing", "--address", "unix:path=/nonexistent"])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("'nothing'"), "\(result.stderr)")
    }
}
