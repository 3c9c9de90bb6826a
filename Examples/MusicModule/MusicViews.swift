import NookCore
import NookModuleAPI

/// The album cover, or a note on a tile when the player has none. One custom view wherever
/// the cover shows, so the broker moves it as the same view between pill, peek, expanded
/// view and home.
struct CoverArt: NookView {
    var track: Track

    var nookParams: [String: PropValue] {
        track.artURL.map { ["art_url": .string($0)] } ?? [:]
    }

    var body: some NookView {
        if let artURL = track.artURL {
            Image(uri: artURL)
        } else {
            ZStack {
                RoundedRectangle(cornerRadius: 4).fill(.indigo)
                Image(systemName: "music.note")
            }
        }
    }
}

/// Bars that dance while music plays. A renderer that knows `EqualizerBars` animates them
/// itself from `playing`; others draw the static bars of the body.
struct EqualizerBars: NookView {
    var playing: Bool

    var nookParams: [String: PropValue] { ["playing": .bool(playing)] }

    var body: some NookView {
        HStack(spacing: 2) {
            ForEach([0.5, 1.0, 0.7, 0.85], id: \.self) { level in
                Capsule().fill(.green).frame(width: 3, height: playing ? 14 * level : 3)
            }
        }
    }
}

/// Title and artist, stacked.
struct TrackDetails: NookView {
    var track: Track
    var size: Double = 13

    var body: some NookView {
        VStack(alignment: .leading, spacing: 2) {
            Text(track.title).font(size: size, weight: .semibold)
            Text(track.artist).font(size: size - 2).opacity(0.7)
        }
    }
}

/// The song's position: advanced by the renderer from start and end while playing (no
/// per-second messages), a fixed fraction while paused.
struct SongProgress: NookView {
    var now: NowPlaying

    var body: some NookView {
        if now.playing, let end = now.endsAt {
            ProgressView(start: now.startedAt, end: end)
        } else if let length = now.track.length, length > .zero {
            ProgressView(value: now.position / length)
        }
    }
}

enum MusicViews {
    /// The `song` activity: the cover (marked `cover`) in the pill, the peek and the
    /// expanded view (with previous, play/pause and next running `commands`); the equalizer
    /// right of the notch while it plays, "Paused" while it does not; a note in a capsule. `id`
    /// is `song`, or a new one after a person dismissed the last (`SongDismissals`).
    ///
    /// A paused song steps back: its relevance is `NowPlaying.pausedRelevance` (below every
    /// activity that keeps the default 0), so a running timer or a notification takes the
    /// primary place beside the notch, and its label and views say "Paused".
    static func song(_ now: NowPlaying, id: String = "song", commands: PlayerCommands = .none) -> NookLiveActivity {
        let track = now.track
        let state = now.playing ? "Now playing" : "Paused"
        var song = NookLiveActivity(id: id, accessibilityLabel: "\(state): \(track.title) by \(track.artist)") {
            CoverArt(track: track).frame(width: 20, height: 20).nookSharedElement("cover")
        } compactTrailing: {
            if now.playing {
                EqualizerBars(playing: true)
            } else {
                Text("Paused").font(size: 12).opacity(0.7)
            }
        } minimal: {
            Image(systemName: now.playing ? "music.note" : "pause.fill")
        }
        song.relevance = now.relevance
        song.setPeek {
            HStack(spacing: 8) {
                CoverArt(track: track).frame(width: 36, height: 36).nookSharedElement("cover")
                TrackDetails(track: track)
                if !now.playing {
                    Spacer()
                    Text("Paused").font(size: 12).opacity(0.7)
                }
            }
        }
        song.setExpanded {
            VStack(alignment: .leading, spacing: 8) {
                HStack(spacing: 12) {
                    CoverArt(track: track).frame(width: 64, height: 64).nookSharedElement("cover")
                    TrackDetails(track: track, size: 15)
                    if !now.playing {
                        Spacer()
                        Text("Paused").font(size: 12).opacity(0.7)
                    }
                }
                SongProgress(now: now)
                TransportControls(playing: now.playing, commands: commands)
            }
        }
        return song
    }

    /// The module's own views: the home (the big cover, marked `cover` too, so the pill's
    /// cover grows into it) and a board widget. No compact content: with nothing playing the
    /// module has nothing worth a pill, so with no other activity the nook stays hidden
    /// (PresentationMachine rule 1) instead of showing a placeholder note all day.
    static func configuration(_ now: NowPlaying?, commands: PlayerCommands = .none) -> NookModuleConfiguration {
        var configuration = NookModuleConfiguration(id: "music", displayName: "Music", version: "1.0")
        configuration.setHome {
            if let now {
                HStack(spacing: 16) {
                    CoverArt(track: now.track).frame(width: 156, height: 156).nookSharedElement("cover")
                    VStack(alignment: .leading, spacing: 8) {
                        TrackDetails(track: now.track, size: 17)
                        Text(now.source).font(size: 11).opacity(0.5)
                        SongProgress(now: now)
                        TransportControls(playing: now.playing, commands: commands)
                    }
                }
            } else {
                Text("Nothing playing")
            }
        }
        configuration.setWidget {
            HStack(spacing: 8) {
                if let now {
                    CoverArt(track: now.track).frame(width: 32, height: 32)
                    TrackDetails(track: now.track, size: 12)
                } else {
                    Image(systemName: "music.note")
                    Text("Nothing playing")
                }
            }
        }
        return configuration
    }
}
