import Foundation
import NookBus
import NookTestSupport

extension BenchProcess {
    /// Starts `nookd` on `bus` with `stateDirectory`, once the bus daemon has seen any earlier
    /// nookd of this run leave, and returns when the new one owns `org.nook.Nook1`.
    ///
    /// An earlier nookd that has exited may still own the name for a moment (the bus daemon
    /// notices a closed socket when it gets to it): waiting only for "an owner" could then
    /// send the first calls to a connection that is gone (`ServiceUnknown`, `NoReply`).
    /// - Parameter limits: nookd's `--limits`, if any.
    static func nookd(_ path: String, bus: PrivateBus, stateDirectory: URL, using watcher: BusConnection, limits: String? = nil) async throws -> BenchProcess {
        guard try await eventually(timeout: .seconds(30), { try await watcher.nameOwner(of: "org.nook.Nook1") == nil }) else {
            throw TestSupportError("an earlier nookd still owns org.nook.Nook1")
        }
        let broker = try BenchProcess(path, ["--address", bus.address, "--state-dir", stateDirectory.path] + (limits.map { ["--limits", $0] } ?? []))
        guard try await eventually(timeout: .seconds(30), { try await watcher.nameOwner(of: "org.nook.Nook1") != nil }) else {
            broker.stop()
            throw TestSupportError("nookd did not take org.nook.Nook1 within 30 s")
        }
        return broker
    }
}
