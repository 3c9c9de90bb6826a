import Foundation
import NookBus
import NookCore
import NookModuleAPI
import NookTestSupport
import Testing

/// Issue 39, part 4: timers that finish, through nookd, TimerModule and a renderer's
/// subscription. The sound player is a stand-in `canberra-gtk-play` on `PATH` that writes its
/// arguments to a file, so the test sees what would play without a sound server.
@Suite(.serialized) struct TimerFinishTests {
    /// A directory holding a `canberra-gtk-play` that appends its arguments to `played`.
    static func fakeSoundPlayer(in scratch: Scratch) throws -> (bin: URL, played: URL) {
        let bin = scratch.url.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let played = scratch.url.appendingPathComponent("played.txt")
        let script = bin.appendingPathComponent("canberra-gtk-play")
        try ExecutableScript.write("#!/bin/sh\necho \"$@\" >> '\(played.path)'\n", to: script)
        return (bin, played)
    }

    /// At zero a timer says "Done" (its label and its views), the nook peeks at it, the sound
    /// theme's `complete` plays, and the activity ends `--done-seconds` later, not at once.
    @Test func aTimerAtZeroPeeksSaysDonePlaysCompleteAndEndsAfterItsDoneTime() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (bin, played) = try Self.fakeSoundPlayer(in: scratch)
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)
            let plans = try await observer.recordPlans()
            let timers = try ProductProcess(
                "TimerModule", ["--names", "Tea", "--duration", "2", "--done-seconds", "40", "--address", bus.address], logDirectory: scratch.url,
                environment: ["PATH": "\(bin.path):/usr/bin:/bin"])
            #expect(await eventually { await observer.activities() == ["timer/t1"] }, "\(timers.log)")
            // At zero: the peek, showing "Done".
            #expect(await eventually {
                plans.all.contains { plan in
                    guard plan["to"] == .string("peek"), case .dictionary(let scene)? = plan["scene"], case .array(let nodes)? = scene["nodes"] else { return false }
                    return nodes.contains { node in
                        guard case .dictionary(let fields) = node else { return false }
                        return fields["slot"] == .string("peek") && fields["text"] == .string("Done")
                    }
                }
            }, "no peek showing Done: \(timers.log)")
            // The module logs it after its peek call returns: waited for, not read at once.
            #expect(await eventually { timers.log.contains("t1 (Tea) done") }, "\(timers.log)")
            // Still live, labelled done: it did not end at zero.
            let items = await MusicPriorityTests.items(observer)
            #expect(items.map(\.name) == ["timer/t1"] && items.first?.label == "Tea, done", "\(items)")
            #expect(await eventually { nookd.storedActivities(of: "timer")["t1"]?.contains("Done") == true }, "\(nookd.storedActivities(of: "timer"))")
            // The sound theme's `complete`.
            #expect(await eventually { ((try? String(contentsOf: played, encoding: .utf8)) ?? "").contains("-i complete") },
                    "the sound player never ran: \(timers.log)")
            // Then it ends by itself, and the module with it. (40 s of done time: at load 14 the
            // checks above outlasted 10 s, and the stored "Done" was gone before it was read.)
            #expect(await eventually(timeout: .seconds(150)) { await observer.activities().isEmpty }, "\(timers.log)")
            #expect(await timers.waitForExit(timeout: .seconds(60)), "\(timers.log)")
            #expect(timers.log.contains("all timers done"), "\(timers.log)")
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }

    /// A person ends the finished timer during its minute of "Done": it goes at once and does
    /// not come back; the module leaves without waiting out the minute. No sound player on
    /// `PATH` is not an error: the timer finishes silently.
    @Test func aFinishedTimerEndsWhenAPersonEndsItAndAMissingSoundPlayerIsNoError() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let empty = scratch.url.appendingPathComponent("empty-bin")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)
            let timers = try ProductProcess(
                "TimerModule", ["--duration", "1", "--address", bus.address], logDirectory: scratch.url, environment: ["PATH": empty.path])
            #expect(await eventually { timers.log.contains("t1 (Timer) done") }, "\(timers.log)")
            #expect(timers.log.contains("canberra-gtk-play is not installed"), "\(timers.log)")
            let end = try ProductProcess("nookctl", ["--address", bus.address, "end", "timer/t1"], logDirectory: scratch.url)
            #expect(await end.waitForExit(), "\(end.log)")
            #expect(await end.stop() == 0, "\(end.log)")
            #expect(await eventually { await observer.activities().isEmpty }, "\(timers.log)")
            // The default minute has not passed, yet the module is done.
            #expect(await timers.waitForExit(timeout: .seconds(40)), "\(timers.log)")
            #expect(timers.log.contains("all timers done"), "\(timers.log)")
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }

    /// Two timers are told apart: each has its own name in the pill and its own colour, and
    /// its capsule ring carries its initial.
    @Test func twoTimersShowDifferentLabelsAndColours() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)
            let timers = try ProductProcess(
                "TimerModule", ["--names", "Tea,Eggs", "--duration", "600", "--address", bus.address], logDirectory: scratch.url)
            #expect(await eventually { await observer.activities() == ["timer/t1", "timer/t2"] }, "\(timers.log)")
            #expect(await eventually { nookd.storedActivities(of: "timer").count == 2 }, "\(nookd.log)")
            let stored = nookd.storedActivities(of: "timer")
            let tea = stored["t1"] ?? [], eggs = stored["t2"] ?? []
            #expect(tea.contains("Tea") && tea.contains("T") && tea.contains { $0.contains("text-[#FF9F0A]") }, "\(tea)")
            #expect(eggs.contains("Eggs") && eggs.contains("E") && eggs.contains { $0.contains("text-[#64D2FF]") }, "\(eggs)")
            #expect(!tea.contains("Eggs") && !eggs.contains { $0.contains("text-[#FF9F0A]") })
            let items = await MusicPriorityTests.items(observer)
            #expect(items.map(\.label) == ["Tea, counting down", "Eggs, counting down"], "\(items)")
            #expect(await timers.stop(SIGTERM) == 0, "\(timers.log)")
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }

    /// The default time a finished timer says "Done" is the documented minute: `--help` and
    /// the module guide both say 60 seconds, and nook-mpris's ten-minute pause likewise.
    @Test func theDefaultDoneTimeAndPauseLimitAreDocumented() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let help = try ProductProcess("TimerModule", ["--help"], logDirectory: scratch.url)
        #expect(await help.waitForExit(), "\(help.log)")
        #expect(help.log.contains("--done-seconds") && help.log.contains("(default 60)"), "\(help.log)")
        let music = try ProductProcess("nook-mpris", ["--help"], logDirectory: scratch.url)
        #expect(await music.waitForExit(), "\(music.log)")
        #expect(music.log.contains("--paused-seconds") && music.log.contains("default 600"), "\(music.log)")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let guide = try String(contentsOf: root.appendingPathComponent("docs/module-guide.md"), encoding: .utf8)
        #expect(guide.contains("`--done-seconds S`") && guide.contains("default 60"), "docs/module-guide.md does not document --done-seconds")
        #expect(guide.contains("`--paused-seconds S`") && guide.contains("default 600"), "docs/module-guide.md does not document --paused-seconds")
    }
}

/// The same for countdowns a shell script starts: `nookctl activity start --timer` leaves
/// `nookctl activity finish --wait` running in the background, which at zero makes the
/// detached activity say "Done", peeks and plays `complete`; the broker ends it at its
/// dismiss date (a minute after zero by default; `--expires` here, so the test need not wait).
@Suite(.serialized) struct NookctlTimerFinishTests {
    @Test func aNookctlTimerAtZeroPeeksSaysDoneAndEndsAtItsDismissDate() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let (bin, played) = try TimerFinishTests.fakeSoundPlayer(in: scratch)
        let environment: [String: String?] = ["PATH": "\(bin.path):/usr/bin:/bin", "XDG_STATE_HOME": scratch.url.appendingPathComponent("state").path]
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)
            let plans = try await observer.recordPlans()
            let start = try ProductProcess(
                "nookctl", ["--address", bus.address, "activity", "start", "tea/pot", "--title", "Tea", "--timer", "2s", "--expires", "12s"],
                logDirectory: scratch.url, environment: environment)
            // nookctl itself returns at once: the finish waits in the background.
            #expect(await start.waitForExit(timeout: .seconds(20)), "\(start.log)")
            #expect(await start.stop() == 0, "\(start.log)")
            #expect(await observer.activities() == ["tea/pot"])
            #expect(await eventually {
                plans.all.contains { plan in
                    guard plan["to"] == .string("peek"), case .dictionary(let scene)? = plan["scene"], case .array(let nodes)? = scene["nodes"] else { return false }
                    return nodes.contains { node in
                        guard case .dictionary(let fields) = node else { return false }
                        return fields["slot"] == .string("peek") && fields["owner"] == .string("tea/pot") && fields["text"] == .string("Done")
                    }
                }
            }, "no peek showing Done")
            let items = await MusicPriorityTests.items(observer)
            #expect(items.map(\.label) == ["Tea, done"], "\(items)")
            #expect(await eventually { ((try? String(contentsOf: played, encoding: .utf8)) ?? "").contains("-i complete") }, "the sound player never ran")
            // The peek ends after its 8 seconds, the activity at its dismiss date.
            #expect(await eventually { await observer.activities().isEmpty }, "\(nookd.log)")
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }

    /// Two countdowns from scripts get different colours and their titles' initials.
    @Test func twoNookctlTimersShowDifferentLabelsAndColours() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let environment: [String: String?] = ["XDG_STATE_HOME": scratch.url.appendingPathComponent("state").path]
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)
            for (name, title) in [("tea/pot", "Tea"), ("eggs/pan", "Eggs")] {
                let start = try ProductProcess(
                    // Long enough that the first is still there however slowly the second starts.
                    "nookctl", ["--address", bus.address, "activity", "start", name, "--title", title, "--timer", "10m", "--expires", "11m", "--no-sound"],
                    logDirectory: scratch.url, environment: environment)
                #expect(await start.waitForExit(timeout: .seconds(20)), "\(start.log)")
                #expect(await start.stop() == 0, "\(start.log)")
            }
            #expect(await eventually { nookd.storedActivities(of: "tea")["pot"] != nil && nookd.storedActivities(of: "eggs")["pan"] != nil })
            let tea = nookd.storedActivities(of: "tea")["pot"] ?? [], eggs = nookd.storedActivities(of: "eggs")["pan"] ?? []
            #expect(tea.contains("T") && tea.contains("text-[#FF9F0A]"), "\(tea)")
            #expect(eggs.contains("E") && eggs.contains("text-[#64D2FF]"), "\(eggs)")
            // Both finished by hand (finishing by itself is the test above): each says Done.
            for name in ["tea/pot", "eggs/pan"] {
                let finish = try ProductProcess("nookctl", ["--address", bus.address, "activity", "finish", name, "--no-sound"],
                                                logDirectory: scratch.url, environment: environment)
                #expect(await finish.waitForExit(timeout: .seconds(20)), "\(finish.log)")
                #expect(await finish.stop() == 0, "\(finish.log)")
            }
            #expect(await eventually { nookd.storedActivities(of: "tea")["pot"]?.contains("Done") == true && nookd.storedActivities(of: "eggs")["pan"]?.contains("Done") == true },
                    "\(nookd.storedActivities(of: "tea")) \(nookd.storedActivities(of: "eggs"))")
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }

    /// A countdown given a new `--timer` stops the finish its first `--timer` left waiting, and
    /// `activity end` stops the one left: no sleeping process piles up behind a script that
    /// updates a countdown often.
    @Test func aReplacedOrEndedCountdownLeavesNoFinishWaitingBehind() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let state = scratch.url.appendingPathComponent("state")
        let pidFile = state.appendingPathComponent("nookctl/activities/tea~pot.finish-pid")
        let environment: [String: String?] = ["XDG_STATE_HOME": state.path]
        @Sendable func waiter() -> pid_t? {
            (try? String(contentsOf: pidFile, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        @Sendable func running(_ pid: pid_t) -> Bool { kill(pid, 0) == 0 && !((try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.contains(") Z ") ?? true) }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            func nookctl(_ arguments: [String]) async throws {
                let process = try ProductProcess("nookctl", ["--address", bus.address] + arguments, logDirectory: scratch.url, environment: environment)
                #expect(await process.waitForExit(timeout: .seconds(20)), "\(process.log)")
                #expect(await process.stop() == 0, "\(process.log)")
            }
            try await nookctl(["activity", "start", "tea/pot", "--title", "Tea", "--timer", "1h", "--no-sound"])
            let first = try #require(waiter(), "no finish waiting")
            #expect(running(first))
            try await nookctl(["activity", "update", "tea/pot", "--timer", "2h"])
            let second = try #require(waiter(), "no finish waiting after the update")
            #expect(second != first && running(second))
            #expect(await eventually { !running(first) }, "the first finish still waits")
            try await nookctl(["activity", "end", "tea/pot"])
            #expect(await eventually { !running(second) }, "the finish still waits after the end")
            #expect(waiter() == nil)
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }
}
