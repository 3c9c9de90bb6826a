/// Bounds how fast one peer can press controls (`Render.Activate`, `Control.Invoke`): a token
/// bucket per process (a `Peer`, so that twenty connections of one process share one bucket),
/// `rate` tokens a second up to `burst`.
///
/// A person presses a few times a second at most; the bucket lets a burst of `burst` through
/// (a script pressing several controls at once, a renderer catching up after a stall), then
/// `rate` a second. A peer beyond it is refused at once, before any lookup, so a flood costs
/// the broker a dictionary read per call and leaves module connections unbothered. Buckets of
/// quiet peers are forgotten once `maxTracked` is reached: a forgotten bucket is a full one,
/// which is what a quiet peer has anyway.
struct ActivationLimiter {
    let rate: Double
    let burst: Double
    /// Peers with a bucket at once; beyond it, full buckets are dropped.
    static let maxTracked = 1024

    private var buckets: [Peer: Bucket] = [:]

    struct Bucket {
        var tokens: Double
        var updatedAt: Double
    }

    init(rate: Double, burst: Int) {
        // Limits come from the configuration: keep them positive and finite.
        self.rate = rate.isFinite && rate > 0 ? rate : 20
        self.burst = Double(max(1, burst))
    }

    /// Takes one token for `peer` at `now` (seconds); false when it has none left.
    mutating func take(_ peer: Peer, at now: Double) -> Bool {
        var bucket = buckets[peer] ?? Bucket(tokens: burst, updatedAt: now)
        // Time only moves forward; an elapsed time beyond `burst / rate` fills the bucket.
        let elapsed = min(max(0, now - bucket.updatedAt), burst / rate)
        bucket.tokens = min(burst, bucket.tokens + elapsed * rate)
        bucket.updatedAt = max(bucket.updatedAt, now)
        let allowed = bucket.tokens >= 1
        if allowed { bucket.tokens -= 1 }
        buckets[peer] = bucket
        if buckets.count > Self.maxTracked { forgetFull(at: now) }
        return allowed
    }

    /// How many peers have a bucket (for tests).
    var trackedCount: Int { buckets.count }

    private mutating func forgetFull(at now: Double) {
        buckets = buckets.filter { _, bucket in bucket.tokens + max(0, now - bucket.updatedAt) * rate < burst }
    }
}
