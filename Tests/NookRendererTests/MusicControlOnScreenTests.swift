import Foundation
import NookBus
import NookTestSupport
import Testing

/// Issue 18's "done when" on screen: the music module bridging a real mpv over MPRIS, the
/// nook opened by hover, and the play/pause control clicked with xdotool where the plan's
/// scene puts it. The player's own `PlaybackStatus` (what `playerctl status` reads) is the
/// judge, and the plans that follow show the symbol that matches it.
@Suite(.serialized)
struct MusicControlOnScreenTests {
    static let plugin = "/usr/lib/mpv-mpris/mpris.so"

    /// mpv playing endless silence (lavfi's `anullsrc`) under a title, with mpv-mpris on the
    /// test's bus, and nook-mpris bridging it.
    static func player(_ nook: RendererNook) async throws -> [OutputProcess] {
        let mpv = try OutputProcess(
            "/usr/bin/mpv",
            ["--no-config", "--script=\(plugin)", "--ao=null", "--vo=null", "--no-video", "--no-terminal", "--loop-file=inf",
             "--force-media-title=Silent Control Tone", "av://lavfi:anullsrc"],
            in: nook.scratch, name: "mpv", environment: ["DBUS_SESSION_BUS_ADDRESS": nook.bus.address])
        let music = try OutputProcess(try PackageProcess.executable("nook-mpris").path, ["--address", nook.bus.address],
                                      in: nook.scratch, name: "nook-mpris")
        let playing = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
            let activities = try? await nook.state().activityCount
            return music.output.contains("(playing)") && activities == 1
        }
        guard playing else {
            let logs = "\(music.output)\n\(mpv.output)"
            music.stop()
            mpv.stop()
            throw TestSupportError("nook-mpris never saw mpv playing:\n\(logs)")
        }
        return [mpv, music]
    }

    /// The player's `PlaybackStatus`, read over D-Bus as `playerctl status` reads it.
    static func status(_ nook: RendererNook) async throws -> String? {
        let connection = try await BusConnection.connect(to: .address(nook.bus.address), description: "playerctl")
        defer { Task { await connection.close() } }
        let reply = try await connection.call(
            destination: "org.mpris.MediaPlayer2.mpv", path: "/org/mpris/MediaPlayer2", interface: "org.freedesktop.DBus.Properties",
            member: "Get", arguments: [.string("org.mpris.MediaPlayer2.Player"), .string("PlaybackStatus")], timeout: .seconds(20))
        if case .string(let value)? = reply.first?.unwrappingVariants { return value }
        return nil
    }

    @Test func clickingPlayPauseOnScreenPausesAndResumesMPVAndTheSymbolFollows() async throws {
        guard (try? Tools.path(of: "mpv")) != nil, FileManager.default.fileExists(atPath: Self.plugin) else {
            Issue.record("mpv or mpv-mpris is not installed: `make test` installs them (scripts/ensure-deps.sh)")
            return
        }
        try await ControlOnScreenTests.withOpenNook(control: "play-pause", start: Self.player) { nook, processes, watcher in
            let logs = { "\(processes.map(\.output).joined(separator: "\n"))\n\(nook.logs)" }
            #expect(try await Self.status(nook) == "Playing")
            @Sendable func symbol() -> String? {
                if case .string(let name)? = watcher.node(withAction: "play-pause", presentation: "expanded")?["symbol"]?.unwrappingVariants {
                    return name
                }
                return nil
            }
            #expect(symbol() == "pause.fill")

            for (expected, shows) in [("Paused", "play.fill"), ("Playing", "pause.fill")] {
                let control = try #require(watcher.rect(ofAction: "play-pause", presentation: "expanded"))
                let x = Int(control.x + control.width / 2), y = Int(control.y + control.height / 2)
                try await nook.xvfb.run("xdotool", ["mousemove", String(x), String(y)])
                try await nook.xvfb.run("xdotool", ["click", "1"])
                let reached = await eventually(timeout: .seconds(30), poll: .milliseconds(50)) { (try? await Self.status(nook)) == expected }
                #expect(reached, "a click on play-pause at \(x),\(y) did not make mpv \(expected):\n\(logs())")
                let follows = await eventually(timeout: .seconds(30), poll: .milliseconds(50)) { symbol() == shows }
                #expect(follows, "the plan after \(expected) shows \(symbol() ?? "no play-pause control"), not \(shows)")
            }
        }
    }
}
