/// Limits on calls whose cost grows with what they are given or what they return, so that
/// no peer can take the bus thread from the others (docs/broker.md, "Limits against slow and
/// greedy peers").
///
/// `Render.Subscribe` and `Control.PreviewPlan` plan a whole scene each time (a 3,000-row
/// panel: tens of milliseconds), and `Modules.Register` validates every module rule (3,000
/// named rules: 58 ms). Each such call runs on the bus thread, and every other call waits
/// behind it: three connections looping on `PreviewPlan` raised another module's update from
/// 0.5 ms to 285 ms. So the time these calls take is charged to the *process* that made them
/// (its pid, from the bus daemon: connections are cheap to multiply, processes less so), and
/// a process that has used its share is refused with `LimitsExceeded` until it has some again.
///
/// | limit | default | what it bounds |
/// |---|---|---|
/// | `workShare` | 0.25 | bus-thread CPU time one process's `Subscribe`, `PreviewPlan` and `Register` calls may take, averaged: a quarter of every second |
/// | `workBurst` | 1 s | what a process that was quiet may take at once (many renderers of one process subscribing together, a module with many rules starting) |
public struct CallLimits: Hashable, Sendable {
    public var workShare: Double
    public var workBurst: Double

    public init(workShare: Double = 0.25, workBurst: Double = 1) {
        self.workShare = workShare
        self.workBurst = workBurst
    }

    public static let standard = CallLimits()
}

/// Who a call is charged to: a process, or (when the bus daemon cannot say which) a connection.
enum Peer: Hashable, Sendable, CustomStringConvertible {
    case process(UInt32)
    case connection(String)

    var description: String {
        switch self {
        case .process(let pid): "process \(pid)"
        case .connection(let name): "connection \(name)"
        }
    }
}

/// A bucket of bus-thread seconds per peer: `share` seconds come in every second, up to
/// `burst`. A call may start while its peer's bucket is not empty, and what it took is taken
/// from the bucket afterwards (it may go below zero: the peer then waits longer). A pure value.
struct WorkLimiter {
    let share: Double
    let burst: Double
    /// Peers with a bucket at once; beyond it, full buckets are forgotten (a forgotten bucket
    /// is a full one, which is what a quiet peer has anyway).
    static let maxTracked = 1024

    private var buckets: [Peer: (seconds: Double, at: Double)] = [:]

    init(_ limits: CallLimits) {
        // Limits come from the configuration: keep them positive and finite.
        share = limits.workShare.isFinite && limits.workShare > 0 ? min(limits.workShare, 1) : 0.25
        burst = limits.workBurst.isFinite && limits.workBurst > 0 ? limits.workBurst : 1
    }

    private func seconds(of peer: Peer, at now: Double) -> Double {
        guard let bucket = buckets[peer] else { return burst }
        return min(burst, bucket.seconds + max(0, now - bucket.at) * share)
    }

    /// Nil when `peer` may make a call at `now`; else the seconds until it may.
    func wait(_ peer: Peer, at now: Double) -> Double? {
        let left = seconds(of: peer, at: now)
        return left > 0 ? nil : (-left + 0.001) / share
    }

    /// Takes `spent` seconds from `peer`'s bucket.
    mutating func charge(_ peer: Peer, _ spent: Double, at now: Double) {
        buckets[peer] = (seconds(of: peer, at: now) - max(0, spent), max(buckets[peer]?.at ?? now, now))
        if buckets.count > Self.maxTracked {
            buckets = buckets.filter { _, bucket in bucket.seconds + max(0, now - bucket.at) * share < burst }
        }
    }
}
