import FoundationEssentials
import Glibc
import Synchronization
import NookFiles
import NookBus
import NookModuleAPI
import NookCommandLine

// nook-mpris: now playing, for the nook. Bridges media players over MPRIS.
//
// Publishes a `song` activity for whatever the chosen player plays: the cover (marked
// `cover`) in the pill, the peek and the expanded view, bars right of the notch, a note in a
// capsule, and a progress the renderer advances from the song's start and end; previous,
// play/pause and next buttons in the expanded view and the home call the player's MPRIS
// `Previous`/`PlayPause`/`Next` (`nookctl press music/song play-pause`). A paused song steps
// back (a lower relevance, "Paused" in its views); paused for `--paused-seconds` (default 10
// minutes) or with its player gone, the song ends. `--simulate`
// plays a built-in playlist instead of following players. On SIGTERM / SIGINT the song ends
// and the module leaves.

/// nook-mpris' entry point: the `nook-mpris` executable and the multi-call `nook-programs` both call it.
public enum Program {
    public static func main() async -> Never {
        let commandLine = CommandLineInterface(
            program: "nook-mpris",
            usage: [
                "[--player NAME] [--paused-seconds S] [--address ADDR]", "--simulate [--track-seconds S] [--paused-seconds S] [--address ADDR]",
                "--help | --version",
            ],
            about: """
                Shows what a media player plays in the nook: follows MPRIS players
                (org.mpris.MediaPlayer2.*) on the session bus and publishes a `song` activity to nookd.
                """,
            options: [
                .value("--player", "NAME", help: "follow only this player (org.mpris.MediaPlayer2.NAME, or its instances NAME.*); default: a playing one, else the first by name"),
                .value("--address", "ADDR", help: "a D-Bus address to use instead of the session bus"),
                .flag("--simulate", help: "play a built-in playlist instead of following players"),
                .value("--track-seconds", "S", help: "with --simulate: each song's length in seconds, 0.1...86400 (default 30)"),
                .value("--paused-seconds", "S", help: "end the song once it has been paused this long, in seconds, 0.1...86400 (default 600: ten minutes)"),
            ])

        /// How long a paused song stays before its activity ends, unless `--paused-seconds` says.
        let defaultPausedSeconds = 600.0

        @Sendable func say(_ line: String) { StandardStream.output.write("nook-mpris: \(line)\n") }

        @Sendable func fail(_ message: String) -> Never {
            StandardStream.error.write("nook-mpris: \(message)\n")
            exit(1)
        }

        // Parsed before anything touches the bus, so --help and mistakes never need one.
        let parsed = commandLine.parseOrExit()
        let address = parsed.text("--address").map(NookModuleAddress.bus) ?? .session
        let simulate = parsed.flag("--simulate")
        let trackSeconds = parsed.number("--track-seconds", in: 0.1...86_400)
        let pausedLimit = Duration.milliseconds(Int64((parsed.number("--paused-seconds", in: 0.1...86_400) ?? defaultPausedSeconds) * 1000))
        let player = parsed.text("--player").map { name in
            name.hasPrefix(MPRISBridge.prefix) ? String(name.dropFirst(MPRISBridge.prefix.count)) : name
        }
        if trackSeconds != nil && !simulate { commandLine.fail("--track-seconds applies to --simulate only") }
        if player != nil && simulate { commandLine.fail("--player and --simulate exclude each other") }

        let signals = TerminationSignals.install()

        // Following players, the module shares the players' connection (they are on the same
        // bus): one connection and one bus thread for the whole program.
        let playersBus: BusConnection?
        do {
            playersBus = simulate ? nil : try await MPRISBridge.connect(address)
        } catch {
            fail("cannot follow MPRIS players: \(error)")
        }
        let module: NookModule
        do {
            module = try await NookModule.connect(MusicViews.configuration(nil), address: address, sharing: playersBus)
        } catch {
            fail("cannot register: \(error)")
        }

        /// Set once a signal asked the program to leave: the module closes the shared connection
        /// as it unregisters, which is no lost bus.
        let leaving = LeavingFlag()
        let source: AsyncStream<NowPlaying?>
        /// What the song's previous / play-pause / next buttons do.
        let commands: PlayerCommands
        if let playersBus {
            do {
                let (bridge, stream) = try await MPRISBridge.follow(on: playersBus, player: player)
                (source, commands) = (stream, bridge.commands)
                // Without its bus the bridge sees no player again: leave with a failure status, so a
                // service manager's Restart=on-failure brings it back.
                Task {
                    await bridge.bus.waitUntilClosed()
                    guard !leaving.isSet else { return }
                    // _exit: nothing is left to flush to a bus that is gone, and exit's handlers run
                    // while other threads still hold the module's connection.
                    StandardStream.error.write("nook-mpris: lost the bus the MPRIS players are on\n")
                    _exit(1)
                }
            } catch {
                fail("cannot follow MPRIS players: \(error)")
            }
        } else {
            let (simulator, stream) = Simulator.play(length: .milliseconds(Int64((trackSeconds ?? 30) * 1000)))
            (source, commands) = (stream, await simulator.commands)
        }
        say(simulate ? "simulating a playlist" : player.map { "following the MPRIS player \($0)" } ?? "following MPRIS players")

        /// What plays, what a person dismissed, and a pause that lasted too long, in the order they happen.
        enum Change: Sendable {
            case playing(NowPlaying?)
            case dismissed(String)
            /// The pause that began as pause number `UInt64` lasted `--paused-seconds`.
            case pausedTooLong(UInt64)
        }
        let (changes, feed) = AsyncStream<Change>.makeStream()
        let players = Task {
            for await now in source { feed.yield(.playing(now)) }
            feed.finish()
        }
        let dismissals = Task {
            for await event in module.events() {
                if case .activityDismissed(let id, by: .user) = event { feed.yield(.dismissed(id)) }
            }
        }

        /// Publishes each change of what plays: the song activity and the module's home and widget.
        let publisher = Task {
            var live = false
            var dismissals = SongDismissals()
            /// Counts pauses, so a timer started for an earlier pause does nothing.
            var pauses: UInt64 = 0
            var pauseTimer: Task<Void, Never>?
            /// The song ended after a long pause: hidden until the player plays again.
            var asleep = false
            var last: NowPlaying?
            for await change in changes {
                let now: NowPlaying?
                switch change {
                case .dismissed(let id):
                    guard live, id == dismissals.activityID else { continue }
                    dismissals.dismissed(id)
                    live = false
                    say("the song was dismissed; hidden until the player stops and plays again")
                    continue
                case .pausedTooLong(let pause):
                    guard pause == pauses, live, last?.playing == false else { continue }
                    asleep = true
                    now = last
                    say("paused for \(pausedLimit); the song ends until the player plays again")
                case .playing(let playing):
                    now = playing
                    last = playing
                    // Playing again, or the player gone: a long pause is over.
                    if playing?.playing != false { asleep = false }
                    // A pause starts the clock once; playing again (or nothing playing) stops it.
                    if playing?.playing == false {
                        if pauseTimer == nil {
                            pauses += 1
                            let pause = pauses
                            pauseTimer = Task {
                                try? await Task.sleep(for: pausedLimit)
                                if !Task.isCancelled { feed.yield(.pausedTooLong(pause)) }
                            }
                        }
                    } else {
                        pauseTimer?.cancel()
                        pauseTimer = nil
                    }
                }
                do {
                    if let now, dismissals.shows(now), !asleep {
                        let song = MusicViews.song(now, id: dismissals.activityID, commands: commands)
                        if live { try await module.update(song) } else { try await module.start(song) }
                        live = true
                        say("playing \"\(now.track.title)\" by \(now.track.artist) (\(now.playing ? "playing" : "paused"))")
                    } else if live {
                        try await module.end(activityID: dismissals.activityID)
                        live = false
                        say(asleep ? "the song ended after a long pause" : "nothing playing")
                    } else if let now {
                        say("holding back \"\(now.track.title)\" (\(now.playing ? "playing" : "paused")): \(asleep ? "paused too long" : "dismissed")")
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
        leaving.set()
        publisher.cancel()
        players.cancel()
        dismissals.cancel()
        try? await module.endAll(dismissal: .immediate)
        try? await module.unregister()
        exit(0)
    }
}

/// A flag any thread may set and read.
final class LeavingFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    func set() { flag.store(true, ordering: .releasing) }
    var isSet: Bool { flag.load(ordering: .acquiring) }
}
