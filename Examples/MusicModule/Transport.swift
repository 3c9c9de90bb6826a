import NookModuleAPI

/// What the song's controls do: the player's MPRIS `Previous`/`PlayPause`/`Next`, or the
/// simulator's own. The buttons in the expanded view and the home call these; the player's
/// new state comes back the usual way (PropertiesChanged, or the simulator's stream) and the
/// next update redraws the play/pause symbol.
struct PlayerCommands: Sendable {
    var previous: @Sendable () async -> Void
    var playPause: @Sendable () async -> Void
    var next: @Sendable () async -> Void

    /// Commands that do nothing (previews, tests of the views).
    static let none = PlayerCommands(previous: {}, playPause: {}, next: {})
}

/// Previous, play/pause and next, with stable action ids (`previous`, `play-pause`, `next`:
/// `nookctl press music/song play-pause`) and the names assistive technology reads.
struct TransportControls: NookView {
    var playing: Bool
    var commands: PlayerCommands
    var size: Double = 20

    var body: some NookView {
        HStack(spacing: 16) {
            Button("Previous", systemImage: "backward.fill", action: commands.previous)
                .frame(width: size, height: size)
                .actionID("previous")
            Button(playing ? "Pause" : "Play", systemImage: playing ? "pause.fill" : "play.fill", action: commands.playPause)
                .frame(width: size, height: size)
                .actionID("play-pause")
            Button("Next", systemImage: "forward.fill", action: commands.next)
                .frame(width: size, height: size)
                .actionID("next")
        }
    }
}
