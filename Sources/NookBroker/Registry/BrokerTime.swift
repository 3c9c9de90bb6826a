/// A point on the broker's monotonic clock, in seconds from an origin the caller picks.
///
/// The registry never reads a clock: every call that can start or end a grace period is told
/// the time, so tests step time by hand and the service passes `ContinuousClock` readings.
public struct BrokerTime: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var seconds: Double

    public init(seconds: Double) { self.seconds = seconds }

    public static let zero = BrokerTime(seconds: 0)

    public static func < (lhs: BrokerTime, rhs: BrokerTime) -> Bool { lhs.seconds < rhs.seconds }
    public static func + (lhs: BrokerTime, rhs: Double) -> BrokerTime { BrokerTime(seconds: lhs.seconds + rhs) }

    public var description: String { "t=\(seconds)s" }
}
