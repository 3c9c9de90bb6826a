/// Limits on what nookd broadcasts (`Control.StateChanged`, and `PropertiesChanged` of
/// `Presentation` and `ReduceMotion`), so that a listener that stops reading cannot freeze it
/// (docs/broker.md, "Limits against slow and greedy peers").
///
/// Why: dbus-daemon keeps every signal a listener has not read yet and charges its bytes to
/// the *sender* until the last listener has read it. Once a sender's share reaches the bus's
/// `max_incoming_bytes` (1 GB on a desktop session bus, 127 MiB by default), the daemon stops
/// reading from the sender: nothing nookd sends leaves, not even a reply to `GetState`. A
/// listener that never reads (a suspended status bar, a script that added a match and went to
/// sleep) holds every broadcast, so without bounds nookd froze within seconds of a flood.
/// Each limit below bounds one part of that:
///
/// | limit | default | what it bounds |
/// |---|---|---|
/// | `maxLabelBytes` | 256 | an `accessibility_label` in a `StateChanged` item (cut at a character boundary) |
/// | `maxRecordBytes` | 64 KiB | one `StateChanged`: `items` and `activities` take the first activities in display order that fit in half, `modules` the first modules by id that fit in the other half; `truncated` says something was left out (`GetState` has all) |
/// | `bytesPerSecond` / `burstBytes` | 64 KiB / 256 KiB | broadcast bytes: a token bucket, so a listener that never reads gains at most this much a second |
/// | `maxHeldBytes` | 48 MiB | nookd's messages the bus daemon holds unread (its `Debug.Stats` `IncomingBytes`, asked at most once a second, plus what was broadcast since): a broadcast that could reach it pauses broadcasts; below half of it they resume with the current state |
/// | `maxQueuedWrites` | 256 | messages waiting in nookd's own write queue (the daemon reads it slowly or not at all): broadcasts wait while more wait |
public struct BroadcastLimits: Hashable, Sendable {
    public var maxLabelBytes: Int = 256
    public var maxRecordBytes: Int = 64 << 10
    public var bytesPerSecond: Int = 64 << 10
    public var burstBytes: Int = 256 << 10
    public var maxHeldBytes: Int = 48 << 20
    public var maxQueuedWrites: Int = 256 

    public static let standard = BroadcastLimits()

    /// How often nookd asks the bus daemon how much of its output it holds, while it
    /// broadcasts or while broadcasts are paused (seconds).
    public static let heldBytesCheckInterval = 1.0
}

/// A token bucket of bytes: `rate` bytes a second, at most `burst` at once. A pure value (time
/// comes in as an argument).
///
/// ```swift
/// var budget = ByteBudget(rate: 65_536, burst: 262_144, at: .zero)
/// budget.wait(for: 70_000, at: .zero)     // 0: the burst covers it
/// budget.spend(70_000, at: .zero)
/// ```
struct ByteBudget: Hashable, Sendable {
    let rate: Double
    let burst: Double
    private(set) var tokens: Double
    private(set) var updatedAt: BrokerTime

    init(rate: Int, burst: Int, at now: BrokerTime) {
        // Limits come from the configuration: keep them positive.
        self.rate = Double(max(1, rate))
        self.burst = Double(max(1, burst))
        tokens = self.burst
        updatedAt = now
    }

    private func tokens(at now: BrokerTime) -> Double {
        min(burst, tokens + max(0, now.seconds - updatedAt.seconds) * rate)
    }

    /// Seconds from `now` until `bytes` may be spent (0: now). A message bigger than the burst
    /// waits for a full bucket, and then goes (the bucket runs into debt).
    func wait(for bytes: Int, at now: BrokerTime) -> Double {
        let needed = min(Double(bytes), burst)
        let available = tokens(at: now)
        return available >= needed ? 0 : (needed - available) / rate
    }

    mutating func spend(_ bytes: Int, at now: BrokerTime) {
        tokens = tokens(at: now) - Double(bytes)
        updatedAt = max(updatedAt, now)
    }
}
