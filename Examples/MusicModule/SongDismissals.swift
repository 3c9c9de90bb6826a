/// A person's dismissal of the song, respected: the player that was playing is not shown again
/// until it stops (pauses, or nothing plays) and then plays again, and then as a new activity,
/// since a dismissed activity id never comes back (ActivityKit's rule).
struct SongDismissals: Sendable {
    private enum Phase: Sendable {
        case showing
        /// Dismissed while it played: hidden until it stops.
        case held
        /// Stopped since the dismissal: hidden until it plays.
        case waiting
    }

    private var phase = Phase.showing
    /// How many songs were dismissed: the activity's id is `song`, `song-2`, `song-3`...
    private(set) var count = 0

    var activityID: String { count == 0 ? "song" : "song-\(count + 1)" }

    /// The current song's activity was dismissed.
    mutating func dismissed(_ id: String) {
        guard id == activityID else { return }
        count += 1
        phase = .held
    }

    /// Whether to show what plays now.
    mutating func shows(_ now: NowPlaying?) -> Bool {
        let playing = now?.playing == true
        switch phase {
        case .showing: break
        case .held: if !playing { phase = .waiting }
        case .waiting: if playing { phase = .showing }
        }
        return phase == .showing && now != nil
    }
}
