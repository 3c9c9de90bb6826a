import Foundation
import NookBus
import NookTestSupport
import Testing

/// nookd stops cleanly on SIGTERM however it was started: a service manager, a shell or a test
/// runner may hand it SIGTERM blocked in the signal mask, or ignored (both survive exec).
@Suite struct SignalTests {
    /// Starts nookd through python3, which blocks and ignores SIGTERM and SIGINT, then execs it
    /// (same pid).
    @Test func nookdStopsOnSIGTERMEvenWhenStartedWithItIgnoredAndBlocked() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await PrivateBus.with { bus in
            let nookd = try PackageProcess.executable("nookd").path
            let wrapper = """
                import os, signal, sys
                signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
                signal.signal(signal.SIGTERM, signal.SIG_IGN)
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                os.execv(sys.argv[1], sys.argv[1:])
                """
            let process = try PackageProcess(
                "/usr/bin/python3", ["-c", wrapper, nookd, "--address", bus.address, "--state-dir", directory.stateDirectory.path],
                logDirectory: directory.url)
            let watcher = try await BusConnection.connect(to: .address(bus.address))
            #expect(try await eventually(timeout: .seconds(60)) {
                try await watcher.nameOwner(of: "org.nook.Nook1") != nil || !process.isRunning
            })
            await watcher.close()
            #expect(process.isRunning, "\(process.log)")
            #expect(await process.stop(SIGTERM) == 0, "nookd did not exit 0 on SIGTERM: \(process.log)")
            #expect(FileManager.default.fileExists(atPath: directory.stateDirectory.appendingPathComponent("state.json").path))
        }
    }
}
