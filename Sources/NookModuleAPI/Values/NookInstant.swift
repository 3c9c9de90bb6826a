import NookCore
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

    /// Whole and fractional seconds since the Unix epoch (saturating at `Int64`'s bounds in
    /// microseconds; NaN reads as the epoch).
    public init(unixSeconds: Double) { unixMicroseconds = Int64(saturating: (unixSeconds * 1_000_000).rounded()) }

    /// The current wall-clock time (`CLOCK_REALTIME`).
    public static func now() -> NookInstant {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return NookInstant(unixMicroseconds: Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000)
    }

    public static func < (lhs: NookInstant, rhs: NookInstant) -> Bool { lhs.unixMicroseconds < rhs.unixMicroseconds }

    /// Instant arithmetic saturates at `Int64`'s bounds in microseconds instead of trapping, so
    /// a time read from outside (a media player's song length) cannot crash a module; the
    /// broker then refuses a date outside its range with a clear error.
    public static func + (lhs: NookInstant, rhs: Duration) -> NookInstant {
        let (seconds, attoseconds) = rhs.components
        // In 128 bits, where no sum of these can overflow, then clamped to Int64.
        let micros = Int128(lhs.unixMicroseconds) + Int128(seconds) * 1_000_000 + Int128(attoseconds / 1_000_000_000_000)
        return NookInstant(unixMicroseconds: Int64(clamping: micros))
    }

    public static func - (lhs: NookInstant, rhs: Duration) -> NookInstant { lhs + (Duration.zero - rhs) }

    /// The time from `other` to `self`.
    public static func - (lhs: NookInstant, rhs: NookInstant) -> Duration {
        // In 128 bits: the difference of any two instants fits.
        .microseconds(Int128(lhs.unixMicroseconds) - Int128(rhs.unixMicroseconds))
    }

    public var description: String { "\(unixMicroseconds)µs" }
}
