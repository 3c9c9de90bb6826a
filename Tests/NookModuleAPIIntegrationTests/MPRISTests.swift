import Foundation
import NookBus
import NookCore
import NookModuleAPI
import NookTestSupport
import Testing
import Synchronization

/// nook-mpris (Examples/MusicModule) bridging a real MPRIS player: Debian's mpv with the mpv-mpris plugin, playing
/// a generated silent file with no audio or video output, on the test's private bus.
@Suite(.serialized) struct MPRISTests {
    static let plugin = "/usr/lib/mpv-mpris/mpris.so"

    /// Nil when mpv and mpv-mpris are there (`make test` installs them); otherwise why not.
    static let missing: String? = {
        let mpv = (try? Tools.path(of: "mpv")) != nil
        return mpv && FileManager.default.fileExists(atPath: plugin) ? nil : "mpv or mpv-mpris is not installed: `make test` installs them (scripts/ensure-deps.sh)"
    }()

    /// Thirty seconds of silence (8 kHz, 8-bit mono) whose INFO chunk names the track.
    static func silentWAV(title: String, artist: String) -> Data {
        func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        func le16(_ value: Int) -> [UInt8] { (0..<2).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        func chunk(_ id: String, _ body: [UInt8]) -> [UInt8] {
            let padded = body.count % 2 == 1 ? body + [0] : body
            return Array(id.utf8) + le32(body.count) + padded
        }
        func text(_ value: String) -> [UInt8] { Array(value.utf8) + [0] }
        let format = le16(1) + le16(1) + le32(8000) + le32(8000) + le16(1) + le16(8)
        let info = Array("INFO".utf8) + chunk("INAM", text(title)) + chunk("IART", text(artist))
        let body = Array("WAVE".utf8) + chunk("fmt ", format) + chunk("LIST", info) + chunk("data", [UInt8](repeating: 0x80, count: 8000 * 30))
        return Data(Array("RIFF".utf8) + le32(body.count) + body)
    }

    @Test func musicModuleFollowsMPVOverMPRIS() async throws {
        // Not a skip: a machine that cannot run this test has not run it.
        if let missing = Self.missing { Issue.record(Comment(rawValue: missing)); return }
        let scratch = try Scratch()
        defer { scratch.remove() }
        let title = "Silent Test Tone"
        let file = scratch.url.appendingPathComponent("silence.wav")
        try Self.silentWAV(title: title, artist: "Nook Tests").write(to: file)
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)
            // A renderer: the track's title must reach it in a plan's laid-out scene.
            let plans = Locked<[String]>([])
            _ = try await observer.connection.addMatch(MatchRule(interface: "org.nook.Nook1.Render", member: "Plan")) { signal in
                plans.withLock { $0.append("\(signal.arguments)") }
            }
            _ = try await observer.connection.call(
                destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: "org.nook.Nook1.Render", member: "Subscribe",
                arguments: [.vardict(["width": .double(1512), "height": .double(982), "notch_width": .double(200), "notch_height": .double(32)])],
                timeout: .seconds(20))
            let mpv = try ProductProcess(
                "/usr/bin/mpv",
                [
                    "--no-config", "--script=\(Self.plugin)", "--ao=null", "--vo=null", "--no-video", "--no-terminal",
                    "--loop-file=inf", "--force-media-title=\(title)", file.path,
                ],
                logDirectory: scratch.url, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
            let music = try ProductProcess("nook-mpris", ["--address", bus.address], logDirectory: scratch.url)
            #expect(await eventually { await observer.activities() == ["music/song"] }, "\(music.log)\n\(mpv.log)")
            #expect(await eventually {
                nookd.storedActivities(of: "music")["song"]?.contains(title) == true
            }, "\(music.log)\n\(nookd.storedActivities(of: "music"))")
            #expect(music.log.contains("(playing)"), "\(music.log)")
            // The module shares the players' connection: the program is on the bus once.
            #expect(try await observer.connectionCount(ofProcess: music.pid) == 1)
            // The pill shows the cover and the equalizer; opening onto the song shows its title.
            _ = try await observer.connection.call(
                destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: "org.nook.Nook1.Control", member: "Open",
                arguments: [.vardict(["onto": .string("activity"), "module": .string("music"), "activity": .string("song")])],
                timeout: .seconds(20))
            #expect(await eventually { plans.withLock { $0.contains { $0.contains(title) } } }, "the title never reached the renderer")

            // Pausing the player reaches the module through PropertiesChanged.
            _ = try await observer.connection.call(
                destination: "org.mpris.MediaPlayer2.mpv", path: "/org/mpris/MediaPlayer2", interface: "org.mpris.MediaPlayer2.Player",
                member: "Pause", timeout: .seconds(20))
            #expect(await eventually { music.log.contains("(paused)") }, "\(music.log)")

            // The player quits (asked over MPRIS; its name leaves the bus): the song ends.
            _ = try await observer.connection.call(
                destination: "org.mpris.MediaPlayer2.mpv", path: "/org/mpris/MediaPlayer2", interface: "org.mpris.MediaPlayer2",
                member: "Quit", timeout: .seconds(20))
            #expect(await eventually { !mpv.isRunning }, "\(mpv.log)")
            await mpv.stop(SIGKILL)
            #expect(await eventually { await observer.activities().isEmpty }, "\(music.log)")
            #expect(await music.stop(SIGTERM) == 0, "\(music.log)")
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }
    /// `--player NAME` follows that player only: with two mpv instances playing, the bridge
    /// shows the named one (the second, which a bridge following every player would not pick:
    /// it prefers the first by name), and when that one quits the song ends although the other
    /// still plays.
    @Test func playerOptionFollowsTheNamedPlayerOnly() async throws {
        if let missing = Self.missing { Issue.record(Comment(rawValue: missing)); return }
        let scratch = try Scratch()
        defer { scratch.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)
            // mpv-mpris reports the file's own title: one file per player.
            func player(_ title: String) throws -> ProductProcess {
                let file = scratch.url.appendingPathComponent("\(title).wav")
                try Self.silentWAV(title: title, artist: "Nook Tests").write(to: file)
                return try ProductProcess(
                    "/usr/bin/mpv",
                    [
                        "--no-config", "--script=\(Self.plugin)", "--ao=null", "--vo=null", "--no-video", "--no-terminal",
                        "--loop-file=inf", "--force-media-title=\(title)", file.path,
                    ],
                    logDirectory: scratch.url, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
            }
            func owned(_ name: String) async -> Bool {
                await eventually { ((try? await observer.connection.nameOwner(of: name)) ?? nil) != nil }
            }
            // The first takes org.mpris.MediaPlayer2.mpv; the second, finding it taken, its instance name.
            let first = try player("First Player")
            #expect(await owned("org.mpris.MediaPlayer2.mpv"), "\(first.log)")
            let second = try player("Second Player")
            let secondName = "mpv.instance\(second.pid)"
            #expect(await owned("org.mpris.MediaPlayer2." + secondName), "\(second.log)")

            let music = try ProductProcess("nook-mpris", ["--address", bus.address, "--player", secondName], logDirectory: scratch.url)
            #expect(await eventually {
                nookd.storedActivities(of: "music")["song"]?.contains { $0.contains("Second Player") } == true
            }, "\(music.log)\n\(nookd.storedActivities(of: "music"))")
            #expect(nookd.storedActivities(of: "music")["song"]?.contains { $0.contains("First Player") } == false)

            _ = try await observer.connection.call(
                destination: "org.mpris.MediaPlayer2." + secondName, path: "/org/mpris/MediaPlayer2", interface: "org.mpris.MediaPlayer2",
                member: "Quit", timeout: .seconds(20))
            #expect(await eventually { !second.isRunning }, "\(second.log)")
            #expect(await eventually { await observer.activities().isEmpty }, "\(music.log)")
            #expect(first.isRunning)

            #expect(await music.stop(SIGTERM) == 0, "\(music.log)")
            await second.stop(SIGKILL)
            await first.stop(SIGKILL)
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }

    /// A person dismisses the song (`nookctl end music/song`) while mpv plays: the bridge keeps
    /// it hidden through more of mpv's updates (a seek), and shows it again, as a new
    /// activity, only once mpv has paused and plays again.
    @Test func aDismissedSongStaysHiddenUntilThePlayerStopsAndPlaysAgain() async throws {
        if let missing = Self.missing { Issue.record(Comment(rawValue: missing)); return }
        let scratch = try Scratch()
        defer { scratch.remove() }
        let file = scratch.url.appendingPathComponent("silence.wav")
        try Self.silentWAV(title: "Dismissed Tone", artist: "Nook Tests").write(to: file)
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, home: scratch.url)
            let observer = try await Observer.connect(bus)
            let mpv = try ProductProcess(
                "/usr/bin/mpv",
                ["--no-config", "--script=\(Self.plugin)", "--ao=null", "--vo=null", "--no-video", "--no-terminal",
                 "--loop-file=inf", file.path],
                logDirectory: scratch.url, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
            let music = try ProductProcess("nook-mpris", ["--address", bus.address], logDirectory: scratch.url)
            @Sendable func player(_ member: String, _ arguments: [DBusValue] = []) async throws {
                _ = try await observer.connection.call(
                    destination: "org.mpris.MediaPlayer2.mpv", path: "/org/mpris/MediaPlayer2", interface: "org.mpris.MediaPlayer2.Player",
                    member: member, arguments: arguments, timeout: .seconds(20))
            }
            #expect(await eventually { await observer.activities() == ["music/song"] }, "\(music.log)\n\(mpv.log)")

            let end = try ProductProcess("nookctl", ["--address", bus.address, "end", "music/song"], logDirectory: scratch.url)
            #expect(await end.waitForExit(), "\(end.log)")
            #expect(await end.stop() == 0, "\(end.log)")
            #expect(await eventually { music.log.contains("the song was dismissed") }, "\(music.log)")
            // mpv keeps playing and reports a seek: the bridge sees it and still shows nothing.
            try await player("Seek", [.int64(5_000_000)])
            #expect(await eventually { music.log.contains("(playing): dismissed") }, "\(music.log)")
            #expect(await observer.activities().isEmpty, "\(music.log)")

            // Paused, then playing again: a new activity.
            try await player("Pause")
            #expect(await eventually { music.log.contains("(paused): dismissed") }, "\(music.log)")
            #expect(await observer.activities().isEmpty, "a paused player came back: \(music.log)")
            try await player("Play")
            #expect(await eventually { await observer.activities() == ["music/song-2"] }, "\(music.log)")

            #expect(await music.stop(SIGTERM) == 0, "\(music.log)")
            await mpv.stop(SIGKILL)
            await observer.close()
            #expect(await nookd.process.stop() == 0, "\(nookd.log)")
        }
    }
}
