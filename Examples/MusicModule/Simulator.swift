import NookModuleAPI

/// A built-in playlist played on the module's own clock: no player needed (`--simulate`).
enum Simulator {
    static let playlist = [
        Track(title: "Morning Tide", artist: "The Harbour Lights", artURL: nil, length: nil),
        Track(title: "Paper Lanterns", artist: "Quiet Engines", artURL: nil, length: nil),
        Track(title: "Northbound", artist: "Ada & the Modems", artURL: nil, length: nil),
    ]

    /// Plays the playlist in a loop, each song `length` long, yielding each song as it starts.
    static func play(length: Duration) -> AsyncStream<NowPlaying?> {
        AsyncStream { continuation in
            let task = Task {
                var index = 0
                while !Task.isCancelled {
                    var track = playlist[index % playlist.count]
                    track.length = length
                    continuation.yield(NowPlaying(track: track, playing: true, position: .zero, sampled: .now(), source: "Simulator"))
                    try? await Task.sleep(for: length)
                    index += 1
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
