import Foundation
import NookModuleAPI

// Now playing, for the nook: bridges media players over MPRIS.
//
//   MusicModule [--simulate [--track-seconds S]] [--address ADDR]
//
// Publishes a `song` activity for whatever the chosen player plays: the cover (marked
// `cover`) in the pill, the peek and the expanded view, bars right of the notch, a note in a
// capsule, and a progress the renderer advances from the song's start and end. `--simulate`
// plays a built-in playlist instead of following players. On SIGTERM / SIGINT the song ends
// and the module leaves.

let signals = TerminationSignals.install()

func say(_ line: String) { FileHandle.standardOutput.write(Data("MusicModule: \(line)\n".utf8)) }

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("MusicModule: \(message)\n".utf8))
    exit(64)  // EX_USAGE
}

let arguments = CommandLine.arguments
let address = NookModuleAddress(commandLine: arguments)
let simulate = arguments.contains("--simulate")
var trackSeconds = 30.0
if let index = arguments.firstIndex(of: "--track-seconds") {
    guard index + 1 < arguments.count, let value = Double(arguments[index + 1]), value > 0 else {
        fail("--track-seconds needs a positive number")
    }
    trackSeconds = value
}

let module: NookModule
do {
    module = try await NookModule.connect(MusicViews.configuration(nil), address: address)
} catch {
    fail("cannot register: \(error)")
}

let source: AsyncStream<NowPlaying?>
if simulate {
    source = Simulator.play(length: .milliseconds(Int64(trackSeconds * 1000)))
} else {
    do { source = try await MPRISBridge.follow(address: address) } catch { fail("cannot follow MPRIS players: \(error)") }
}
say(simulate ? "simulating a playlist" : "following MPRIS players")

/// Publishes each change of what plays: the `song` activity and the module's home and widget.
let publisher = Task {
    var live = false
    for await now in source {
        do {
            if let now {
                let song = MusicViews.song(now)
                if live { try await module.update(song) } else { try await module.start(song) }
                live = true
                say("playing \"\(now.track.title)\" by \(now.track.artist) (\(now.playing ? "playing" : "paused"))")
            } else if live {
                try await module.end(activityID: "song")
                live = false
                say("nothing playing")
            }
            try await module.publish(MusicViews.configuration(now))
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
