import Foundation
import NookModuleAPI
import NookCommandLine

// nook-mpris: now playing, for the nook. Bridges media players over MPRIS.
//
// Publishes a `song` activity for whatever the chosen player plays: the cover (marked
// `cover`) in the pill, the peek and the expanded view, bars right of the notch, a note in a
// capsule, and a progress the renderer advances from the song's start and end; previous,
// play/pause and next buttons in the expanded view and the home call the player's MPRIS
// `Previous`/`PlayPause`/`Next` (`nookctl press music/song play-pause`). `--simulate`
// plays a built-in playlist instead of following players. On SIGTERM / SIGINT the song ends
// and the module leaves.

let commandLine = CommandLineInterface(
    program: "nook-mpris",
    usage: ["[--player NAME] [--address ADDR]", "--simulate [--track-seconds S] [--address ADDR]", "--help | --version"],
    about: """
        Shows what a media player plays in the nook: follows MPRIS players
        (org.mpris.MediaPlayer2.*) on the session bus and publishes a `song` activity to nookd.
        """,
    options: [
        .value("--player", "NAME", help: "follow only this player (org.mpris.MediaPlayer2.NAME, or its instances NAME.*); default: a playing one, else the first by name"),
        .value("--address", "ADDR", help: "a D-Bus address to use instead of the session bus"),
        .flag("--simulate", help: "play a built-in playlist instead of following players"),
        .value("--track-seconds", "S", help: "with --simulate: each song's length in seconds, 0.1...86400 (default 30)"),
    ])

func say(_ line: String) { FileHandle.standardOutput.write(Data("nook-mpris: \(line)\n".utf8)) }

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("nook-mpris: \(message)\n".utf8))
    exit(1)
}

// Parsed before anything touches the bus, so --help and mistakes never need one.
let parsed = commandLine.parseOrExit()
let address = parsed.text("--address").map(NookModuleAddress.bus) ?? .session
let simulate = parsed.flag("--simulate")
let trackSeconds = parsed.number("--track-seconds", in: 0.1...86_400)
let player = parsed.text("--player").map { name in
    name.hasPrefix(MPRISBridge.prefix) ? String(name.dropFirst(MPRISBridge.prefix.count)) : name
}
if trackSeconds != nil && !simulate { commandLine.fail("--track-seconds applies to --simulate only") }
if player != nil && simulate { commandLine.fail("--player and --simulate exclude each other") }

let signals = TerminationSignals.install()

let module: NookModule
do {
    module = try await NookModule.connect(MusicViews.configuration(nil), address: address)
} catch {
    fail("cannot register: \(error)")
}

let source: AsyncStream<NowPlaying?>
/// What the song's previous / play-pause / next buttons do.
let commands: PlayerCommands
if simulate {
    let (simulator, stream) = Simulator.play(length: .milliseconds(Int64((trackSeconds ?? 30) * 1000)))
    (source, commands) = (stream, await simulator.commands)
} else {
    do {
        let (bridge, stream) = try await MPRISBridge.follow(address: address, player: player)
        (source, commands) = (stream, bridge.commands)
        // Without its bus the bridge sees no player again: leave with a failure status, so a
        // service manager's Restart=on-failure brings it back.
        Task {
            await bridge.bus.waitUntilClosed()
            // _exit: nothing is left to flush to a bus that is gone, and exit's handlers run
            // while other threads still hold the module's connection.
            FileHandle.standardError.write(Data("nook-mpris: lost the bus the MPRIS players are on\n".utf8))
            _exit(1)
        }
    } catch {
        fail("cannot follow MPRIS players: \(error)")
    }
}
say(simulate ? "simulating a playlist" : player.map { "following the MPRIS player \($0)" } ?? "following MPRIS players")

/// What plays, and what a person dismissed, in the order they happen.
enum Change: Sendable {
    case playing(NowPlaying?)
    case dismissed(String)
}
let changes = AsyncStream<Change> { continuation in
    let players = Task {
        for await now in source { continuation.yield(.playing(now)) }
        continuation.finish()
    }
    let dismissals = Task {
        for await event in module.events() {
            if case .activityDismissed(let id, by: .user) = event { continuation.yield(.dismissed(id)) }
        }
    }
    continuation.onTermination = { _ in
        players.cancel()
        dismissals.cancel()
    }
}

/// Publishes each change of what plays: the song activity and the module's home and widget.
let publisher = Task {
    var live = false
    var dismissals = SongDismissals()
    for await change in changes {
        let now: NowPlaying?
        switch change {
        case .dismissed(let id):
            guard live, id == dismissals.activityID else { continue }
            dismissals.dismissed(id)
            live = false
            say("the song was dismissed; hidden until the player stops and plays again")
            continue
        case .playing(let playing):
            now = playing
        }
        do {
            if let now, dismissals.shows(now) {
                let song = MusicViews.song(now, id: dismissals.activityID, commands: commands)
                if live { try await module.update(song) } else { try await module.start(song) }
                live = true
                say("playing \"\(now.track.title)\" by \(now.track.artist) (\(now.playing ? "playing" : "paused"))")
            } else if live {
                try await module.end(activityID: dismissals.activityID)
                live = false
                say("nothing playing")
            } else if let now {
                say("holding back \"\(now.track.title)\" (\(now.playing ? "playing" : "paused")): dismissed")
            }
            try await module.publish(MusicViews.configuration(now, commands: commands))
        } catch {
            say("the broker refused: \(error)")
        }
    }
}

for await number in signals {
    say("signal \(number), leaving")
    break
}
publisher.cancel()
try? await module.endAll(dismissal: .immediate)
try? await module.unregister()
exit(0)
