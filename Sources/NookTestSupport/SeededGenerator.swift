import Foundation

/// SplitMix64: a tiny, well-mixed seeded generator, so every random case replays from its seed.
/// The one generator every randomised test uses (NookCore's properties, the broker's fuzzing
/// and the frame scheduler's interleavings).
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }

    /// The seed of one randomised test: `NOOK_TEST_SEED` when set (to replay the seed a
    /// failure printed), else a fresh one.
    public static func runSeed() -> UInt64 {
        if let text = ProcessInfo.processInfo.environment["NOOK_TEST_SEED"], let seed = UInt64(text) { return seed }
        return UInt64.random(in: 0 ... .max)
    }

    /// The seed of a randomised test that pins one: `NOOK_TEST_SEED` when set, else `pinned`.
    public static func runSeed(pinned: UInt64) -> UInt64 {
        if let text = ProcessInfo.processInfo.environment["NOOK_TEST_SEED"], let seed = UInt64(text) { return seed }
        return pinned
    }

    /// What a failure message says of its seed: `seed 42 (NOOK_TEST_SEED=42 replays it)`.
    public static func replay(_ seed: UInt64) -> String { "seed \(seed) (NOOK_TEST_SEED=\(seed) replays it)" }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SeededGenerator {
    /// A number in `0..<bound` (`bound` > 0).
    public mutating func next(upTo bound: UInt64) -> UInt64 { next() % bound }
}
