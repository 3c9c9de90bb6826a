import Foundation
import NookBus
import NookTestSupport
import Testing
@testable import NookCtlKit

/// `nookctl press` and `nookctl actions` (contract 1.1 Touch): what they call, and end to end
/// against the real nookd with the music module (`nook-mpris --simulate`) publishing controls.
@Suite(.serialized) struct PressTests {
    typealias Status = NookCtlKit.ExitStatus

    @Test func pressCallsInvokeForAnActivityOrAModulesOwnViews() throws {
        let control = "org.nook.Nook1.Control"
        #expect(try ArgumentParser.parse(["press", "music/song", "play-pause"]).command.sent == [SentCall(
            control, "Invoke", [.string("music"), .string("song"), .string("play-pause"), .vardict([:])], signature: "sssa{sv}")])
        #expect(try ArgumentParser.parse(["press", "music", "play-pause"]).command == .press(module: "music", activity: "", action: "play-pause"))
        #expect(try ArgumentParser.parse(["actions", "music/song"]).command == .actions(module: "music", activity: "song"))
        #expect(try ArgumentParser.parse(["actions", "music"]).command.sent == [SentCall(
            control, "PreviewPlan", [.string("show"), .vardict([:])], signature: "sa{sv}", reply: "a{sv}")])
        #expect(throws: UsageError("expected MODULE/ACTIVITY, found 'music/'", verb: "press")) {
            try ArgumentParser.parse(["press", "music/", "next"])
        }
        #expect(throws: (any Error).self) { try ArgumentParser.parse(["press", "music/song"]) }
    }

    @Test func actionsListsTheControlsOnScreenAndPressRunsOne() async throws {
        try await LiveNook.with(music: true) { nook in
            // In the pill the song shows no control.
            let none = await nook.ctl(["actions", "music/song"])
            #expect(none.status == Status.failure && none.err.contains("no control of music/song is on screen"), "\(none)")

            #expect(await nook.ctl(["open", "--activity", "music/song"]).status == Status.ok)
            let listed = await nook.ctl(["actions", "music/song"])
            #expect(listed.status == Status.ok, "\(listed.err)")
            let lines = listed.out.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
            #expect(lines.map { $0.first } == ["previous", "play-pause", "next"], "\(listed.out)")
            // As docs/nookctl.md shows it.
            #expect(listed.out == """
                previous    "Previous"  expanded  expanded/2/0/0
                play-pause  "Pause"     expanded  expanded/2/0/1
                next        "Next"      expanded  expanded/2/0/2

                """, "\(listed.out)")

            let music = try #require(nook.modules.first)
            let pressed = await nook.ctl(["press", "music/song", "play-pause"])
            #expect(pressed.status == Status.ok && pressed.out == "pressed music/song play-pause\n", "\(pressed)")
            #expect(await eventually { music.log.contains("(paused)") }, "\(music.log)")
            // The symbol followed: the control now reads Play.
            #expect(await eventually { await nook.ctl(["actions", "music/song"]).out.contains("\"Play\"") })

            // The module's own views: the home, opened, has the same controls.
            #expect(await nook.ctl(["press", "music", "play-pause"]).status == Status.ok)
            #expect(await eventually { music.log.components(separatedBy: "(playing)").count > 2 }, "\(music.log)")

            let unknown = await nook.ctl(["press", "music/song", "rewind"])
            #expect(unknown.status == Status.failure && unknown.err.contains("UnknownTarget"), "\(unknown)")
        }
    }
}
