import Foundation
import Testing
import NookBroker
import NookTestSupport

/// The crash-loop guard's marker, with real files: what it counts, and what it leaves alone.
/// (HostilePersistenceTests drives it through real nookd starts and kills.)
@Suite struct CrashLoopGuardTests {
    /// A marker left by this very process stands for a start that never disarmed: a death.
    @Test func twoStartsThatNeverDisarmTripTheThird() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let crashLoop = CrashLoopGuard(directory: temp.stateDirectory)
        #expect(try crashLoop.arm() == .ok(earlyDeaths: 0))
        #expect(try crashLoop.arm() == .ok(earlyDeaths: 1))
        #expect(try crashLoop.arm() == .tripped(earlyDeaths: 2))
        // Setting the state aside starts the count again.
        #expect(try crashLoop.arm() == .ok(earlyDeaths: 1))
    }

    @Test func disarmingForgetsTheStart() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let crashLoop = CrashLoopGuard(directory: temp.stateDirectory)
        _ = try crashLoop.arm()
        _ = try crashLoop.arm()
        crashLoop.disarm()
        #expect(!FileManager.default.fileExists(atPath: crashLoop.markerURL.path))
        #expect(try crashLoop.arm() == .ok(earlyDeaths: 0))
    }

    /// A marker of a nookd that is running (still in its window) is not a death, and stays.
    @Test func theMarkerOfARunningNookdIsLeftAlone() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let crashLoop = CrashLoopGuard(directory: temp.stateDirectory)
            // Frozen (SIGSTOP) so its window cannot run out while we look; a start that
            // outlived its window before it froze (a very slow machine) is tried again.
            var tried = 0
            while tried < 5 {
                tried += 1
                let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
                nookd.signal(SIGSTOP)
                _ = await eventually { HostilePersistenceTests.processState(nookd.pid) == "T" }
                if let marker = try? Data(contentsOf: crashLoop.markerURL) {
                    #expect(try crashLoop.arm() == .anotherInstance(pid: nookd.pid))
                    #expect(try Data(contentsOf: crashLoop.markerURL) == marker)
                    crashLoop.disarm()
                    #expect(FileManager.default.fileExists(atPath: crashLoop.markerURL.path), "disarm removed another process's marker")
                    nookd.signal(SIGCONT)
                    let status = await nookd.stop()
                    #expect(status == 0, "nookd ended with \(status.map(String.init) ?? "a signal or not at all"): \(nookd.log.suffix(3000))")
                    #expect(!FileManager.default.fileExists(atPath: crashLoop.markerURL.path))
                    return
                }
                nookd.signal(SIGCONT)
                await nookd.stop()
            }
            Issue.record("no start was caught inside its window in \(tried) tries")
        }
    }

    /// Where the marker cannot be written, arming says so instead of pretending.
    @Test func aMarkerThatCannotBeWrittenIsReported() throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let file = temp.url.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        // A directory under a regular file cannot exist, for root too.
        #expect(throws: (any Error).self) { try CrashLoopGuard(directory: file.appendingPathComponent("state")).arm() }
    }
}
