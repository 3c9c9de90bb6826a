import Foundation
import NookTestSupport
import Testing

/// Issue 43, part 5: timers from anywhere. `nookctl timer start|list|cancel` against the real
/// nookd: ids from the label or the first free `timer-N`, a list with the time left, a cancel,
/// and a timer that finishes by itself after a `kill -9` of nookd and its restart.
@Suite(.serialized) struct TimerVerbTests {
    struct Run {
        let status: Int32?
        let out: String
    }

    static func nookctl(_ bus: PrivateBus, _ scratch: Scratch, _ arguments: [String], environment: [String: String?]) async throws -> Run {
        let process = try PackageProcess("nookctl", ["--address", bus.address] + arguments, logDirectory: scratch.url, environment: environment)
        #expect(await process.waitForExit(timeout: .seconds(30)), "nookctl \(arguments) did not exit: \(process.log)")
        let status = await process.stop()
        return Run(status: status, out: process.log)
    }

    static func labels(_ observer: Observer) async -> [String: String] {
        Dictionary(await MusicPriorityTests.items(observer).map { ($0.name, $0.label) }) { a, _ in a }
    }

    @Test func timersStartListCancelAndFinishAcrossAKillOfNookd() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (bin, _) = try TimerFinishTests.fakeSoundPlayer(in: scratch)
        let environment: [String: String?] = ["PATH": "\(bin.path):/usr/bin:/bin", "XDG_STATE_HOME": scratch.url.appendingPathComponent("state").path]
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)

            // Ids: from the label, else the first free timer-N.
            let tea = try await Self.nookctl(bus, scratch, ["timer", "start", "10m", "--label", "Tea", "--no-sound"], environment: environment)
            #expect(tea.status == 0 && tea.out.contains("started timer/tea, done in 10m"), "\(tea.out)")
            for expected in ["timer", "timer-2"] {
                let plain = try await Self.nookctl(bus, scratch, ["timer", "start", "10m", "--no-sound"], environment: environment)
                #expect(plain.status == 0 && plain.out.contains("started timer/\(expected),"), "\(plain.out)")
            }
            let again = try await Self.nookctl(bus, scratch, ["timer", "start", "5m", "--label", "Tea"], environment: environment)
            #expect(again.status == 1 && again.out.contains("timer/tea is running already"), "\(again.out)")
            #expect(await observer.activities().sorted() == ["timer/tea", "timer/timer", "timer/timer-2"])
            #expect(await Self.labels(observer)["timer/tea"]?.hasPrefix("Tea") == true)

            // The list: each with its label and the time left.
            let list = try await Self.nookctl(bus, scratch, ["timer", "list"], environment: environment)
            let lines = list.out.split(separator: "\n").filter { $0.hasPrefix("timer/") }
            #expect(lines.count == 3 && lines.allSatisfy { $0.hasSuffix(" left") }, "\(list.out)")
            #expect(lines.contains { $0.hasPrefix("timer/tea") && $0.contains("Tea") && ($0.contains("9m") || $0.contains("10m")) }, "\(list.out)")
            let json = try await Self.nookctl(bus, scratch, ["timer", "list", "--json"], environment: environment)
            #expect(json.out.contains("\"id\":\"tea\"") && json.out.contains("\"label\":\"Tea\"") && json.out.contains("\"seconds_left\":"), "\(json.out)")

            // Cancel: several run, so one must be named; then each goes at once.
            let unnamed = try await Self.nookctl(bus, scratch, ["timer", "cancel"], environment: environment)
            #expect(unnamed.status == 1 && unnamed.out.contains("several timers run"), "\(unnamed.out)")
            for id in ["timer-2", "timer/timer", "tea"] {
                let cancel = try await Self.nookctl(bus, scratch, ["timer", "cancel", id], environment: environment)
                #expect(cancel.status == 0 && cancel.out.contains("cancelled timer/"), "\(cancel.out)")
            }
            #expect(await observer.activities().isEmpty)
            let none = try await Self.nookctl(bus, scratch, ["timer", "cancel"], environment: environment)
            #expect(none.status == 1 && none.out.contains("no timer is running"), "\(none.out)")

            // A timer outlives a kill -9 of nookd, even one whose zero passes while nookd is
            // away: restored by the restarted nookd, it finishes by itself (its background
            // finish waits at zero for nookd to own its name again).
            let eggs = try await Self.nookctl(bus, scratch, ["timer", "start", "3s", "--label", "Eggs", "--no-sound"], environment: environment)
            #expect(eggs.status == 0, "\(eggs.out)")
            let zero = ContinuousClock.now + .seconds(3)
            #expect(await eventually { nookd.storedActivities(of: "timer")["eggs"] != nil }, "the timer was never written to the state file")
            await observer.close()
            _ = await nookd.process.stop(SIGKILL)
            // Past its zero (a time of the clock, not a guess at a speed) before nookd returns.
            try await Task.sleep(until: zero + .milliseconds(500))
            let restarted = try await NookdProcess(bus: bus, home: scratch.url)
            let watching = try await Observer.connect(bus)
            #expect(await watching.activities() == ["timer/eggs"], "\(restarted.log)")
            let done = await eventually(timeout: .seconds(60)) { await Self.labels(watching)["timer/eggs"] == "Eggs, done" }
            let labels = await Self.labels(watching)
            #expect(done, "the restored timer did not finish: \(labels) \(restarted.log)")
            let finished = try await Self.nookctl(bus, scratch, ["timer", "list"], environment: environment)
            #expect(finished.out.contains("timer/eggs") && finished.out.contains("done"), "\(finished.out)")
            let cancel = try await Self.nookctl(bus, scratch, ["timer", "cancel"], environment: environment)
            #expect(cancel.status == 0 && cancel.out.contains("cancelled timer/eggs"), "\(cancel.out)")
            await watching.close()
            #expect(await restarted.process.stop() == 0, "\(restarted.log)")
        }
    }
}
