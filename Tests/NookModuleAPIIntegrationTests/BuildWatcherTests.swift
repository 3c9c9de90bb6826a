import Foundation
import NookBus
import NookCore
import NookTestSupport
import Testing

/// Examples/BuildWatcher, the SDK's ActivityKit shape as a program, against the real nookd:
/// its icon moves from the pill into the expanded view, Cancel ends it once, a person's
/// dismissal ends it, and so does SIGTERM; the program exits by itself each time.
@Suite(.serialized) struct BuildWatcherTests {
    static func watcher(_ bus: PrivateBus, _ scratch: Scratch, _ name: String) throws -> PackageProcess {
        try PackageProcess("BuildWatcher", ["--address", bus.address, "--steps", "1000", "--step-seconds", "2"],
                           logDirectory: scratch.url.appendingPathComponent(name))
    }

    static func nookctl(_ bus: PrivateBus, _ scratch: Scratch, _ arguments: [String]) async throws -> String {
        let process = try PackageProcess("nookctl", ["--address", bus.address] + arguments, logDirectory: scratch.url)
        #expect(await process.waitForExit(), "nookctl \(arguments) did not exit: \(process.log)")
        #expect(await process.stop() == 0, "nookctl \(arguments): \(process.log)")
        return process.log
    }

    @Test func theIconMovesCancelEndsItOnceAndADismissalOrASignalEndsIt() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        for name in ["cancel", "dismiss", "signal"] {
            try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)

            // Cancel.
            let first = try Self.watcher(bus, scratch, "cancel")
            #expect(await eventually { await observer.activities() == ["build/build"] }, "\(first.log)")
            let preview = try await Self.nookctl(bus, scratch, ["preview", "open", "--activity", "build/build"])
            #expect(preview.contains("icon"), "opening moves no icon:\n\(preview)")
            _ = try await Self.nookctl(bus, scratch, ["press", "build/build", "cancel-build"])
            #expect(await first.waitForExit(), "Cancel did not end the program: \(first.log)")
            #expect(first.exitStatus == 0, "\(first.log)")
            #expect(first.log.contains("build: cancelled") && first.log.contains("exit: finished"), "\(first.log)")
            #expect(await eventually { await observer.activities().isEmpty })
            let endedPlans = nookd.log.components(separatedBy: "scene: activity_ended build/build\n").count - 1
            #expect(endedPlans == 1, "one end, one plan:\n\(nookd.log)")

            // A person's dismissal.
            let second = try Self.watcher(bus, scratch, "dismiss")
            #expect(await eventually { await observer.activities() == ["build/build"] }, "\(second.log)")
            _ = try await Self.nookctl(bus, scratch, ["end", "build/build"])
            #expect(await second.waitForExit(), "a dismissal did not end the program: \(second.log)")
            #expect(second.exitStatus == 0 && second.log.contains("build: dismissed"), "\(second.log)")

            // SIGTERM: run cancels the body and ends the build at once.
            let third = try Self.watcher(bus, scratch, "signal")
            #expect(await eventually { await observer.activities() == ["build/build"] }, "\(third.log)")
            #expect(await third.stop() == 0, "\(third.log)")
            #expect(third.log.contains("exit: signal(15)"), "\(third.log)")
            #expect(await eventually { await observer.activities().isEmpty })

            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }
}
