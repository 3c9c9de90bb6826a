import NookModuleAPI

/// A built-in playlist played on the module's own clock: no player needed (`--simulate`).
/// Its controls work like a player's: play/pause holds the song where it is, previous and
/// next change the song; each change is yielded like a player's `PropertiesChanged`.
actor Simulator {
    static let playlist = [
        Track(title: "Morning Tide", artist: "The Harbour Lights", artURL: nil, length: nil),
        Track(title: "Paper Lanterns", artist: "Quiet Engines", artURL: nil, length: nil),
        Track(title: "Northbound", artist: "Ada & the Modems", artURL: nil, length: nil),
    ]

    let length: Duration
    let output: AsyncStream<NowPlaying?>.Continuation
    private var index = 0
    private var playing = true
    /// Where the song was at `sampled`.
    private var position: Duration = .zero
    private var sampled = NookInstant.now()
    private var advance: Task<Void, Never>?

    init(length: Duration, output: AsyncStream<NowPlaying?>.Continuation) {
        self.length = length
        self.output = output
    }

    /// Plays the playlist in a loop, each song `length` long.
    static func play(length: Duration) -> (Simulator, AsyncStream<NowPlaying?>) {
        let (stream, continuation) = AsyncStream<NowPlaying?>.makeStream(bufferingPolicy: .bufferingNewest(8))
        let simulator = Simulator(length: length, output: continuation)
        Task { await simulator.changed() }
        return (simulator, stream)
    }

    var commands: PlayerCommands {
        PlayerCommands(
            previous: { await self.skip(by: -1) }, playPause: { await self.playPause() }, next: { await self.skip(by: 1) })
    }

    func playPause() {
        let now = NookInstant.now()
        if playing { position = min(length, position + (now - sampled)) }
        sampled = now
        playing.toggle()
        changed()
    }

    func skip(by step: Int) {
        index = (index + step % Self.playlist.count + Self.playlist.count) % Self.playlist.count
        position = .zero
        sampled = .now()
        changed()
    }

    /// Yields the song as it is now and sets the timer for its end (none while paused).
    func changed() {
        var track = Self.playlist[index]
        track.length = length
        output.yield(NowPlaying(track: track, playing: playing, position: position, sampled: sampled, source: "Simulator"))
        advance?.cancel()
        guard playing else { return }
        let left = length - position
        advance = Task { [weak self] in
            try? await Task.sleep(for: left)
            guard !Task.isCancelled else { return }
            await self?.skip(by: 1)
        }
    }
}
