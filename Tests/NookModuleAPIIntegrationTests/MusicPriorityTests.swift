import Foundation
import NookBus
import NookCore
import NookModuleAPI
import NookTestSupport
import Testing

/// Issue 39, part 3: priority that follows what matters, with nook-mpris bridging a real mpv
/// (as MPRISTests does) and TimerModule as the other activity.
@Suite(.serialized) struct MusicPriorityTests {
    /// One of `GetState`'s `items`: the activity, its relevance and its label.
    struct Item: Equatable, CustomStringConvertible {
        var name: String
        var relevance: Double
        var label: String
        var description: String { "\(name) (\(relevance)) \(label)" }
    }

    /// `GetState`'s items in display order; empty while no broker answers.
    static func items(_ observer: Observer) async -> [Item] {
        guard let state = try? await observer.state(), let items = state["items"],
              case .array(let list)? = try? PropValue(wire: items, at: "items") else { return [] }
        return list.compactMap { item in
            guard case .dictionary(let fields) = item, case .string(let module)? = fields["module"],
                  case .string(let activity)? = fields["activity"], case .double(let relevance)? = fields["relevance"],
                  case .string(let label)? = fields["accessibility_label"] else { return nil }
            return Item(name: "\(module)/\(activity)", relevance: relevance, label: label)
        }
    }

    /// Paused music steps back: its relevance drops below the timer's, so the timer becomes
    /// primary, and its label and views say "Paused". Paused for `--paused-seconds`, the song
    /// ends; playing again brings it back; the player gone ends it too.
    @Test func pausedMusicStepsBackSaysPausedAndEndsAfterALongPauseOrWithItsPlayerGone() async throws {
        if let missing = MPRISTests.missing { Issue.record(Comment(rawValue: missing)); return }
        let scratch = try Scratch()
        defer { scratch.remove() }
        let title = "Priority Tone"
        let file = scratch.url.appendingPathComponent("silence.wav")
        try MPRISTests.silentWAV(title: title, artist: "Nook Tests").write(to: file)
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)
            let mpv = try ProductProcess(
                "/usr/bin/mpv",
                ["--no-config", "--script=\(MPRISTests.plugin)", "--ao=null", "--vo=null", "--no-video", "--no-terminal",
                 "--loop-file=inf", "--force-media-title=\(title)", file.path],
                logDirectory: scratch.url, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
            // A pause of 20 s ends the song here (ten minutes by default): long enough for the
            // checks of the paused song below on a loaded machine.
            let music = try ProductProcess("nook-mpris", ["--address", bus.address, "--paused-seconds", "20"], logDirectory: scratch.url)
            @Sendable func player(_ member: String) async throws {
                _ = try await observer.connection.call(
                    destination: "org.mpris.MediaPlayer2.mpv", path: "/org/mpris/MediaPlayer2", interface: "org.mpris.MediaPlayer2.Player",
                    member: member, timeout: .seconds(20))
            }
            let logs = { "\(music.log)\n\(mpv.log)" }
            #expect(await eventually { await Self.items(observer).map(\.name) == ["music/song"] }, "\(logs())")
            let timers = try ProductProcess("TimerModule", ["--duration", "3600", "--address", bus.address], logDirectory: scratch.url)

            // Playing: the song keeps the primary place it had first (both at relevance 0).
            #expect(await eventually { await Self.items(observer).map(\.name) == ["music/song", "timer/t1"] }, "\(logs())\n\(timers.log)")
            let playing = await Self.items(observer)
            #expect(playing.first?.label.hasPrefix("Now playing: \(title)") == true, "\(playing)")
            #expect(playing.first?.relevance == 0, "\(playing)")

            // Paused: below the timer, labelled and shown as paused.
            try await player("Pause")
            // The order and the song's entry read together (the song ends after its pause limit).
            let pausedItems = Locked<[Item]>([])
            #expect(await eventually {
                let items = await Self.items(observer)
                guard items.map(\.name) == ["timer/t1", "music/song"] else { return false }
                pausedItems.withLock { $0 = items }
                return true
            }, "\(logs())")
            let paused = pausedItems.withLock { $0 }
            let song = try #require(paused.last)
            #expect(song.relevance < 0 && song.label.hasPrefix("Paused: \(title)"), "\(paused)")
            // The pill's right side says so (the state file, written within a second, has the views).
            #expect(await eventually { nookd.storedActivities(of: "music")["song"]?.contains("Paused") == true }, "\(nookd.storedActivities(of: "music"))")

            // Paused for the limit: the song ends, the timer stays.
            #expect(await eventually { await Self.items(observer).map(\.name) == ["timer/t1"] }, "\(logs())")
            // The module writes this line once the broker has answered its EndActivity, so it
            // can come a moment after the observer sees the song gone.
            #expect(await eventually { music.log.contains("the song ended after a long pause") }, "\(logs())")

            // Playing again brings it back, playing.
            try await player("Play")
            #expect(await eventually { await Self.items(observer).map(\.name).contains("music/song") }, "\(logs())")
            #expect(await eventually { await Self.items(observer).first { $0.name == "music/song" }?.label.hasPrefix("Now playing") == true }, "\(logs())")

            // The player gone: the song ends.
            _ = try await observer.connection.call(
                destination: "org.mpris.MediaPlayer2.mpv", path: "/org/mpris/MediaPlayer2", interface: "org.mpris.MediaPlayer2",
                member: "Quit", timeout: .seconds(20))
            #expect(await eventually { !mpv.isRunning }, "\(mpv.log)")
            await mpv.stop(SIGKILL)
            #expect(await eventually { await Self.items(observer).map(\.name) == ["timer/t1"] }, "\(logs())")

            #expect(await timers.stop(SIGTERM) == 0, "\(timers.log)")
            #expect(await music.stop(SIGTERM) == 0, "\(music.log)")
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }

    /// With no player at all, nook-mpris publishes no compact content: nothing for the pill,
    /// so the nook stays hidden (only its home and board widget are there, for when a person
    /// opens them).
    @Test func withNoPlayerTheMusicModuleShowsNoPill() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)
            let music = try ProductProcess("nook-mpris", ["--address", bus.address], logDirectory: scratch.url)
            // Registered, with its home and widget published.
            #expect(await eventually {
                let content = nookd.storedContent(of: "music")
                return content["home"] != nil && content["widget"] != nil
            }, "\(music.log)\n\(nookd.log)")
            let content = nookd.storedContent(of: "music")
            #expect(content["compact_leading"] == nil && content["compact_trailing"] == nil, "\(content)")
            let state = try await observer.state()
            #expect(state["presentation"]?.unwrappingVariants == .string("hidden"), "\(state)")
            #expect(await music.stop(SIGTERM) == 0, "\(music.log)")
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }
}
