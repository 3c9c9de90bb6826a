import Foundation
import NookBus
import NookCore
import NookModuleAPI
import NookTestSupport
import Testing

/// The example modules as real processes against the real nookd.
@Suite(.serialized) struct ExampleModuleTests {
    @Test func timerModuleWithTwoTimersShowsTwoActivities() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)
            let timers = try ProductProcess(
                "TimerModule", ["--timers", "2", "--duration", "600", "--address", bus.address], logDirectory: scratch.url)
            #expect(await eventually { await observer.activities() == ["timer/t1", "timer/t2"] }, "\(timers.log)")
            // Both mark `timer`: the broker told the module its ids are suffixed (rule 8).
            #expect(await eventually { timers.log.contains("id-suffixed") }, "\(timers.log)")
            #expect(try await observer.state()["module"] == .string("timer"))
            // Each countdown is marked `timer` (scaled) and sent as an end time; the home marks
            // every timer with its activity id.
            #expect(await eventually {
                let stored = nookd.storedActivities(of: "timer")
                return ["t1", "t2"].allSatisfy { stored[$0].map { ["timer", "scale", "TimerText", "timer_end"].allSatisfy($0.contains) } == true }
            }, "\(nookd.storedActivities(of: "timer"))")
            #expect(await eventually {
                let home = nookd.storedContent(of: "timer")["home"] ?? []
                return home.contains("timer.t1") && home.contains("timer.t2")
            }, "\(nookd.storedContent(of: "timer"))")
            #expect(nookd.storedContent(of: "timer")["widget"]?.contains("2 timers") == true)
            // SIGTERM: the module ends its timers and exits cleanly.
            #expect(await timers.stop(SIGTERM) == 0, "\(timers.log)")
            #expect(await eventually { await observer.activities().isEmpty })
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }

    /// SDK countdowns sized like nookctl's (issue 39): a 65-minute timer's countdown goes to
    /// the broker with its widest text, `0:00:00`, beside `timer_end`, so layout reserves the
    /// hours and the renderer does not cut `1:05:00`.
    @Test func timerModuleSizesACountdownOverAnHourForItsHours() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let timers = try ProductProcess(
                "TimerModule", ["--timers", "1", "--duration", "3900", "--no-sound", "--address", bus.address], logDirectory: scratch.url)
            #expect(await eventually {
                nookd.storedActivities(of: "timer")["t1"].map { $0.contains("timer_end") && $0.contains("0:00:00") } == true
            }, "\(nookd.storedActivities(of: "timer"))\n\(timers.log)")
            #expect(await timers.stop(SIGTERM) == 0, "\(timers.log)")
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }

    @Test func timerModuleEndsTimersThatRunOut() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)
            let timers = try ProductProcess(
                "TimerModule", ["--timers", "1", "--duration", "1", "--done-seconds", "1", "--address", bus.address], logDirectory: scratch.url)
            // The process exits by itself once its only timer ran out and was ended.
            #expect(await eventually { !timers.isRunning }, "\(timers.log)")
            #expect(timers.log.contains("all timers done"), "\(timers.log)")
            #expect(await observer.activities().isEmpty)
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }

    @Test func musicModuleSimulatePublishesTheSong() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)
            let music = try ProductProcess(
                "nook-mpris", ["--simulate", "--track-seconds", "1", "--address", bus.address], logDirectory: scratch.url)
            #expect(await eventually { await observer.activities() == ["music/song"] }, "\(music.log)")
            // The playlist advances on its own: the second song replaces the first in the activity.
            #expect(await eventually {
                nookd.storedActivities(of: "music")["song"]?.contains { $0.contains("Paper Lanterns") } == true
            }, "\(music.log)")
            // The views the brief asks for: the cover marked `cover`, the equalizer, the note,
            // a progress sent as start and end; the home's cover is marked too.
            let song = nookd.storedActivities(of: "music")["song"] ?? []
            for expected in ["CoverArt", "cover", "EqualizerBars", "music.note", "progress", "start", "end", "peek", "expanded"] {
                #expect(song.contains(expected), "\(expected) missing from \(song)")
            }
            #expect(await eventually {
                let home = nookd.storedContent(of: "music")["home"] ?? []
                return home.contains("CoverArt") && home.contains("cover")
            }, "\(nookd.storedContent(of: "music"))")
            #expect(await music.stop(SIGINT) == 0, "\(music.log)")
            #expect(await eventually { await observer.activities().isEmpty })
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }
}
