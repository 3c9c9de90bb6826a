import NookCore
import NookModuleAPI

// The seed-000 samples' supporting types: a player model and the custom views the samples
// name. Written as a module author would, so the samples below read almost verbatim.

struct Track: Hashable, Sendable {
    var title: String
    var artist: String
    var artURL: String
}

struct Player: Hashable, Sendable {
    var track: Track
    var levels: [Double]
}

struct CoverArt: NookView {
    var track: Track
    var body: some NookView {
        Image(uri: track.artURL)
    }
}

struct TrackDetails: NookView {
    var player: Player
    var body: some NookView {
        VStack(alignment: .leading, spacing: 2) {
            Text(player.track.title).font(size: 15, weight: .semibold)
            Text(player.track.artist).font(size: 13).opacity(0.7)
        }
    }
}

struct EqualizerBars: NookView {
    var player: Player
    var body: some NookView {
        HStack(spacing: 2) {
            for level in player.levels {
                Capsule().fill(.green).frame(width: 3, height: 4 + 12 * level)
            }
        }
    }
}

struct SongPeek: NookView {
    var player: Player
    var body: some NookView {
        HStack {
            CoverArt(track: player.track).frame(width: 44, height: 44).nookSharedElement("cover")
            TrackDetails(player: player)
            Spacer()
        }
    }
}

struct SongDetail: NookView {
    var player: Player
    var body: some NookView {
        VStack(alignment: .leading) {
            HStack {
                CoverArt(track: player.track).frame(width: 96, height: 96).nookSharedElement("cover")
                TrackDetails(player: player)
            }
            ProgressView(start: NookInstant(unixMicroseconds: 1_000_000), end: NookInstant(unixMicroseconds: 181_000_000))
        }
    }
}

struct CountdownTimer: Hashable, Sendable {
    var id: String
    var end: NookInstant
}

struct TimerText: NookView {
    var timer: CountdownTimer
    var body: some NookView {
        Text(timerEndingAt: timer.end).font(size: 15, weight: .medium).monospacedDigit()
    }
}

let samplePlayer = Player(
    track: Track(title: "Weightless", artist: "Marconi Union", artURL: "file:///covers/weightless.png"),
    levels: [0.2, 0.9, 0.5])

/// Seed 000, "Marking an element", as written there (the configuration is built here).
func seedModuleConfiguration(player: Player) -> NookModuleConfiguration {
    var configuration = NookModuleConfiguration(id: "music", displayName: "Music")
    configuration.setCompactLeading {
        CoverArt(track: player.track).frame(width: 20, height: 20)
            .nookSharedElement("cover")
    }
    configuration.setHome {
        HStack {
            CoverArt(track: player.track).frame(width: 156, height: 156)
                .nookSharedElement("cover")
            TrackDetails(player: player)
        }
    }
    return configuration
}

/// Seed 000, "Live activities", as written there.
func seedSongActivity(player: Player) -> NookLiveActivity {
    var song = NookLiveActivity(id: "song", accessibilityLabel: "Now playing") {
        CoverArt(track: player.track).frame(width: 20, height: 20).nookSharedElement("cover")
    } compactTrailing: {
        EqualizerBars(player: player)
    } minimal: {
        Image(systemName: "music.note")
    }
    song.setPeek { SongPeek(player: player) }          // its cover marked "cover" too
    song.setExpanded { SongDetail(player: player) }    // and here
    return song
}
