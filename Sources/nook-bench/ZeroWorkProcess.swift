import Foundation
import Glibc
import NookBus
import NookTestSupport

/// The zero-work baselines, each served from a process of its own, like the service it stands
/// for. nookd and nook-notifications are processes: a baseline on a thread of the benchmark's
/// own process shares its address space with the module and the renderer, so every switch to
/// it skips the address-space change that a switch to the real service costs (on this VM that
/// alone moved the publish baseline; see docs/PERFORMANCE.md).
enum ZeroWorkKind: String, CaseIterable, Sendable {
    case broker, notifications, forwarder, notificationsChain

    /// The name the process owns, so the benchmark finds it.
    var wellKnownName: String { "org.nook.Bench.ZeroWork.\(rawValue.prefix(1).uppercased() + rawValue.dropFirst())" }

    /// Serves this baseline on a thread of the calling process.
    func start(address: String, wellKnownName: String? = nil) throws -> RawBusServer {
        switch self {
        case .broker: try ZeroWorkBroker.start(address: address, wellKnownName: wellKnownName)
        case .notifications: try ZeroWorkNotifications.start(address: address, wellKnownName: wellKnownName)
        case .forwarder: try ZeroWorkForwarder.start(address: address, wellKnownName: wellKnownName)
        case .notificationsChain: try ZeroWorkNotificationsChain.start(address: address, wellKnownName: wellKnownName)
        }
    }
}

/// A zero-work baseline in a child process (`nook-bench --serve-zero-work KIND --address A`),
/// ended by its pid.
final class ZeroWorkProcess: Sendable {
    /// The unique name of the child's connection: calls go to it as they went to the thread.
    let uniqueName: String
    private let process: BenchProcess

    private init(uniqueName: String, process: BenchProcess) {
        self.uniqueName = uniqueName
        self.process = process
    }

    static func start(_ kind: ZeroWorkKind, bus: PrivateBus, watcher: BusConnection) async throws -> ZeroWorkProcess {
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let process = try BenchProcess(executable, ["--serve-zero-work", kind.rawValue, "--address", bus.address])
        let taken = try await eventually(timeout: .seconds(30)) { try await watcher.nameOwner(of: kind.wellKnownName) != nil }
        guard taken, let owner = try await watcher.nameOwner(of: kind.wellKnownName) else {
            process.stop()
            throw TestSupportError("the zero-work \(kind.rawValue) did not take \(kind.wellKnownName) within 30 s")
        }
        return ZeroWorkProcess(uniqueName: owner, process: process)
    }

    /// Time its threads have spent on a CPU so far, in µs.
    var cpuMicroseconds: Double { process.cpuMicroseconds }

    func stop() { process.stop() }
}

/// The child's side: serves `kind` on `address` until SIGTERM or until the bus daemon goes.
func serveZeroWork(_ kind: ZeroWorkKind, address: String) throws -> Never {
    // The benchmark's threads block SIGTERM (its runtime reads signals another way), and a
    // child inherits the mask: without this, the benchmark's SIGTERM would stay pending.
    var terminate = sigset_t()
    sigemptyset(&terminate)
    sigaddset(&terminate, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &terminate, nil)
    signal(SIGTERM, SIG_DFL)
    let server = try kind.start(address: address, wellKnownName: kind.wellKnownName)
    while !server.lostBus { usleep(100_000) }
    exit(0)
}
