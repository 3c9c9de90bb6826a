import Foundation
import NookBus
import NookCore
import NookModuleAPI
import NookTestSupport
import Testing

/// The music module's controls against a real player: mpv with mpv-mpris on the test's
/// private bus, nook-mpris bridging it, the real nookd, and presses through `Control.Invoke`
/// (what `nookctl press` sends). The player's own `PlaybackStatus`, read over D-Bus, is the
/// judge, and the plans a renderer gets show the symbol that follows it.
@Suite(.serialized) struct MPRISControlTests {
    /// The play/pause control's symbol in the newest plan that shows it.
    static func playPauseSymbol(_ plan: [String: PropValue]) -> String? {
        guard case .dictionary(let scene)? = plan["scene"], case .array(let nodes)? = scene["nodes"] else { return nil }
        for case .dictionary(let node) in nodes where node["action"] == .string("play-pause") && node["slot"] == .string("expanded") {
            if case .string(let symbol)? = node["symbol"] { return symbol }
        }
        return nil
    }

    @Test func playPauseControlPausesAndResumesMPVAndTheSymbolFollowsPlaybackStatus() async throws {
        if let missing = MPRISTests.missing { Issue.record(Comment(rawValue: missing)); return }
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = scratch.url.appendingPathComponent("silence.wav")
        try MPRISTests.silentWAV(title: "Silent Control Tone", artist: "Nook Tests").write(to: file)
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)
            let plans = try await observer.recordPlans()
            let mpv = try ProductProcess(
                "/usr/bin/mpv",
                ["--no-config", "--script=\(MPRISTests.plugin)", "--ao=null", "--vo=null", "--no-video", "--no-terminal",
                 "--loop-file=inf", file.path],
                logDirectory: scratch.url, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
            let music = try ProductProcess("nook-mpris", ["--address", bus.address], logDirectory: scratch.url)
            #expect(await eventually { await observer.activities() == ["music/song"] }, "\(music.log)\n\(mpv.log)")
            // mpv names the song after the file first and after its tags a moment later: wait
            // until the module has published the tagged song (its update and then its home),
            // so no update of the playing song lands after `before` below.
            #expect(await eventually { nookd.storedContent(of: "music")["home"]?.contains("Silent Control Tone") == true }, "\(music.log)")
            try await observer.open(module: "music", activity: "song")
            #expect(await eventually { plans.all.contains { Self.playPauseSymbol($0) == "pause.fill" } }, "\(music.log)")

            @Sendable func status() async throws -> String? {
                let reply = try await observer.connection.call(
                    destination: "org.mpris.MediaPlayer2.mpv", path: "/org/mpris/MediaPlayer2", interface: "org.freedesktop.DBus.Properties",
                    member: "Get", arguments: [.string("org.mpris.MediaPlayer2.Player"), .string("PlaybackStatus")], timeout: .seconds(20))
                if case .variant(.string(let value))? = reply.first { return value }
                return nil
            }
            func press(_ action: String) async throws {
                _ = try await observer.connection.call(
                    destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: "org.nook.Nook1.Control", member: "Invoke",
                    arguments: [.string("music"), .string("song"), .string(action), WireCodec.vardict([:])], timeout: .seconds(20))
            }
            #expect(try await status() == "Playing")

            // Pause: the player pauses, and the next plan of the expanded view shows play.
            let before = plans.all.count
            try await press("play-pause")
            #expect(await eventually { (try? await status()) == "Paused" }, "\(music.log)\n\(mpv.log)")
            #expect(await eventually { plans.all.dropFirst(before).contains { Self.playPauseSymbol($0) == "play.fill" } }, "\(music.log)")
            // The first plan after the press that shows the control already shows play: the
            // symbol follows PlaybackStatus within one update.
            #expect(plans.all.dropFirst(before).lazy.compactMap(Self.playPauseSymbol).first == "play.fill",
                    "\(plans.all.dropFirst(before - 2).map { "\($0["serial"].map { "\($0)" } ?? "") \($0["cause"].map { "\($0)" } ?? "") \($0["from"].map { "\($0)" } ?? "")->\($0["to"].map { "\($0)" } ?? "") \(Self.playPauseSymbol($0) ?? "-")" })\n\(music.log)")

            // A second press plays again.
            let paused = plans.all.count
            try await press("play-pause")
            #expect(await eventually { (try? await status()) == "Playing" }, "\(music.log)\n\(mpv.log)")
            #expect(await eventually { plans.all.dropFirst(paused).contains { Self.playPauseSymbol($0) == "pause.fill" } }, "\(music.log)")

            // The home has the same controls, as a module-level view.
            _ = try await observer.connection.call(
                destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: "org.nook.Nook1.Control", member: "Invoke",
                arguments: [.string("music"), .string(""), .string("play-pause"), WireCodec.vardict([:])], timeout: .seconds(20))
            #expect(await eventually { (try? await status()) == "Paused" }, "\(music.log)\n\(mpv.log)")

            #expect(await music.stop(SIGTERM) == 0, "\(music.log)")
            await mpv.stop(SIGKILL)
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }
}
