#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A point in wall-clock time, as the contract sends it: Unix time in microseconds.
///
/// Timers (`timer_end`), clock-driven progress (`start`/`end`) and an activity's `stale_date`
/// use it. Renderers count from it on their own clock, so a module never sends ticks.
///
/// ```swift
/// let end = NookInstant.now() + .seconds(90)
/// Text(timerEndingAt: end)
/// ```
public struct NookInstant: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var unixMicroseconds: Int64

    public init(unixMicroseconds: Int64) { self.unixMicroseconds = unixMicroseconds }

    /// Whole and fractional seconds since the Unix epoch.
    public init(unixSeconds: Double) { unixMicroseconds = Int64((unixSeconds * 1_000_000).rounded()) }

    /// The current wall-clock time (`CLOCK_REALTIME`).
    public static func now() -> NookInstant {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return NookInstant(unixMicroseconds: Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000)
    }

    public static func < (lhs: NookInstant, rhs: NookInstant) -> Bool { lhs.unixMicroseconds < rhs.unixMicroseconds }

    public static func + (lhs: NookInstant, rhs: Duration) -> NookInstant {
        let (seconds, attoseconds) = rhs.components
        return NookInstant(unixMicroseconds: lhs.unixMicroseconds + seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
    }

    public static func - (lhs: NookInstant, rhs: Duration) -> NookInstant { lhs + (Duration.zero - rhs) }

    /// The time from `other` to `self`.
    public static func - (lhs: NookInstant, rhs: NookInstant) -> Duration {
        .microseconds(lhs.unixMicroseconds - rhs.unixMicroseconds)
    }

    public var description: String { "\(unixMicroseconds)µs" }
}
