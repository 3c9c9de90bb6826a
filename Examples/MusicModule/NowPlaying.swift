import NookModuleAPI

/// One song, as a player describes it.
struct Track: Hashable, Sendable {
    var title: String
    var artist: String
    /// Cover art (`file://`, `https://`), when the player has one.
    var artURL: String?
    var length: Duration?
}

/// What is playing, and where in the song: the position was `position` at `sampled`.
struct NowPlaying: Hashable, Sendable {
    var track: Track
    var playing: Bool
    var position: Duration
    var sampled: NookInstant
    /// Where it comes from: the player's name on the bus, or "Simulator".
    var source: String

    /// When the song would have started, playing without a pause until `sampled`.
    /// (The bridge reads `position` and `length` within a week, `MPRISNumber`, and instant
    /// arithmetic saturates, so neither this nor `endsAt` can overflow.)
    var startedAt: NookInstant { sampled - position }
    /// When it ends at this pace; nil when the player gives no length.
    var endsAt: NookInstant? { track.length.map { startedAt + $0 } }

    /// The relevance of the song's activity while it plays: the default, level with other
    /// activities (ties go to the one started first).
    static let playingRelevance = 0.0
    /// While paused: below every activity at the default relevance, so the song steps back
    /// into a capsule as soon as anything else is live.
    static let pausedRelevance = -10.0

    var relevance: Double { playing ? Self.playingRelevance : Self.pausedRelevance }

    /// The same song on the same timeline (within a second): re-sampling the position of a
    /// song that simply kept playing must not send a new progress to the broker.
    func sameTimeline(as other: NowPlaying) -> Bool {
        track == other.track && playing == other.playing && source == other.source
            && abs((startedAt - other.startedAt) / .milliseconds(1)) < 1000
    }
}
