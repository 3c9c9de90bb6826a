import NookCore

/// The local countdown a `timer_end` text shows: `4:59`, `12:00`, `1:02:03`.
///
/// Whole seconds are rounded up, so the text reads `0:01` during the last second and `0:00`
/// from the end on (never negative).
public enum Countdown {
    /// - Parameters:
    ///   - end: the timer's end, unix microseconds (the `timer_end` prop).
    ///   - unixTime: now, seconds since 1970.
    public static func text(end: Int64, unixTime: Double) -> String {
        let remaining = Double(end) / 1_000_000 - unixTime
        let seconds = remaining > 0 ? Int(saturating: (remaining - 1e-9).rounded(.up)) : 0
        let hours = seconds / 3600
        let minutes = (seconds % 3600) / 60
        let rest = seconds % 60
        func two(_ value: Int) -> String { value < 10 ? "0" + String(value) : String(value) }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(rest))" : "\(minutes):\(two(rest))"
    }
}
