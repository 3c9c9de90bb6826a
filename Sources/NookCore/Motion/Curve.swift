/// A fully resolved timing curve: how progress runs from 0 to 1 over time, after a delay.
///
/// Every curve in a plan is one of these, and knows where it came from (`source`, e.g.
/// `motion.sharedElement.convert -> transition.convert`, `override`, `chrome`). Sampling is a
/// pure function of time, so a renderer, a golden test and an interruption all agree.
///
/// ```swift
/// let curve = try Curve.spring(response: 0.42, dampingFraction: 0.82, source: "transition.convert")
/// curve.value(at: 0.2); curve.velocity(at: 0.2); curve.samples(frameRate: 60)
/// ```
public struct Curve: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case spring(Spring)
        /// A timing function over `duration` seconds.
        case bezier(CubicBezier, duration: Double)
        case linear(duration: Double)
        /// No animation: the new value applies at once (after the delay).
        case none
    }

    public var kind: Kind
    /// Seconds before the motion starts.
    public private(set) var delay: Double
    /// Where this curve was resolved from.
    public var source: String
    /// For springs: the progress per second the motion starts with, when it takes over from
    /// an interrupted one (SPEC rule 21). Ignored by other kinds, which start at rest.
    public private(set) var initialVelocity: Double

    /// Checks the kind's durations and the delay: finite and not negative.
    public init(_ kind: Kind, delay: Double = 0, source: String = "", initialVelocity: Double = 0) throws(CurveError) {
        switch kind {
        case .bezier(_, let duration), .linear(let duration):
            try Self.check(duration, "duration")
        case .spring, .none:
            break
        }
        try Self.check(delay, "delay")
        // Far beyond any real move (progress per second), and small enough that a spring's
        // closed form stays finite.
        guard initialVelocity.isFinite, abs(initialVelocity) <= 1e12 else {
            throw CurveError(parameter: "initialVelocity", message: "a curve's initial velocity must be finite and at most 1e12, found \(initialVelocity)")
        }
        self.kind = kind
        self.delay = delay
        self.source = source
        self.initialVelocity = initialVelocity
    }

    /// The longest duration or delay a curve can have at all (what clients may send is far
    /// shorter, `NumberDomain.duration`): sums of a few stay finite, like a spring's settle
    /// time, which is solved for at most this long.
    public static let maxSeconds = 1e6

    private static func check(_ seconds: Double, _ parameter: String) throws(CurveError) {
        guard seconds.isFinite, seconds >= 0, seconds <= maxSeconds else {
            throw CurveError(
                parameter: parameter,
                message: "a curve's \(parameter) must be a finite, non-negative number of seconds (at most \(NumberText.short(maxSeconds))), found \(NumberText.short(seconds))")
        }
    }

    public static func spring(response: Double, dampingFraction: Double, delay: Double = 0, source: String = "")
        throws(CurveError) -> Curve
    {
        try Curve(.spring(Spring(response: response, dampingFraction: dampingFraction)), delay: delay, source: source)
    }

    public static func bezier(_ points: CubicBezier, duration: Double, delay: Double = 0, source: String = "")
        throws(CurveError) -> Curve
    {
        try Curve(.bezier(points, duration: duration), delay: delay, source: source)
    }

    public static func linear(duration: Double, delay: Double = 0, source: String = "") throws(CurveError) -> Curve {
        try Curve(.linear(duration: duration), delay: delay, source: source)
    }

    public static func none(source: String = "") -> Curve {
        Curve(unchecked: .none, delay: 0, source: source, initialVelocity: 0)
    }

    private init(unchecked kind: Kind, delay: Double, source: String, initialVelocity: Double) {
        self.kind = kind
        self.delay = delay
        self.source = source
        self.initialVelocity = initialVelocity
    }

    // MARK: Timing

    /// Seconds of motion after the delay: a spring's settle time, a timed curve's duration.
    public var activeDuration: Double {
        switch kind {
        case .spring(let spring): spring.settleDuration(from: 0, velocity: initialVelocity)
        case .bezier(_, let duration), .linear(let duration): duration
        case .none: 0
        }
    }

    /// Delay plus active duration.
    public var totalDuration: Double { delay + activeDuration }

    /// Progress at `t` seconds from the curve's start (delay included): 0 before the motion
    /// starts, 1 once a timed curve ends. Springs may overshoot past 1.
    public func value(at t: Double) -> Double {
        let local = t - delay
        switch kind {
        case .spring(let spring):
            return local <= 0 ? 0 : spring.value(at: local, velocity: initialVelocity)
        case .bezier(let points, let duration):
            if local <= 0 { return 0 }
            return duration == 0 ? 1 : points.progress(at: local / duration)
        case .linear(let duration):
            if local <= 0 { return 0 }
            return duration == 0 ? 1 : min(local / duration, 1)
        case .none:
            return local < 0 ? 0 : 1
        }
    }

    /// Progress per second at `t`: closed form for springs, the Bézier's derivative divided
    /// by its duration, a constant for linear curves, and 0 outside the motion.
    public func velocity(at t: Double) -> Double {
        let local = t - delay
        switch kind {
        case .spring(let spring):
            return local < 0 ? 0 : spring.velocity(at: local, velocity: initialVelocity)
        case .bezier(let points, let duration):
            guard local >= 0, local <= duration, duration > 0 else { return 0 }
            return points.slope(at: local / duration) / duration
        case .linear(let duration):
            guard local >= 0, local < duration, duration > 0 else { return 0 }
            return 1 / duration
        case .none:
            return 0
        }
    }

    // MARK: Variations

    /// The same shape over `seconds`: a spring's response, a timed curve's duration (the
    /// `duration-<ms>` class). A `none` curve is unchanged.
    public func withDuration(_ seconds: Double) throws(CurveError) -> Curve {
        var copy = self
        switch kind {
        case .spring(let spring):
            copy.kind = .spring(try Spring(response: seconds, dampingFraction: spring.dampingFraction))
        case .bezier(let points, _):
            try Self.check(seconds, "duration")
            copy.kind = .bezier(points, duration: seconds)
        case .linear:
            try Self.check(seconds, "duration")
            copy.kind = .linear(duration: seconds)
        case .none:
            break
        }
        return copy
    }

    public func withDelay(_ seconds: Double) throws(CurveError) -> Curve {
        try Self.check(seconds, "delay")
        var copy = self
        copy.delay = seconds
        return copy
    }

    /// The same curve starting with `velocity` progress per second (an interrupted move).
    public func withInitialVelocity(_ velocity: Double) throws(CurveError) -> Curve {
        try Curve(kind, delay: delay, source: source, initialVelocity: velocity)
    }

    // MARK: Keyframes

    /// `count` progress values evenly spaced over `0...totalDuration`, both ends included,
    /// for renderers that cannot evaluate springs. `count` below 2 is treated as 2.
    public func samples(count: Int) -> [Double] {
        let count = max(count, 2)
        let total = totalDuration
        return (0..<count).map { index in value(at: total * Double(index) / Double(count - 1)) }
    }

    /// The most samples one curve gets: a minute (the longest `NumberDomain.duration`) at
    /// 1000 Hz (the highest `NumberDomain.refreshRate`). Plans are capped far below that
    /// (`motion.maxDuration`); this bounds what any curve at all can cost.
    public static let maxSampleCount = 60_001

    /// One progress value per frame at `frameRate` Hz, from 0 to `totalDuration` inclusive;
    /// `maxSampleCount` values evenly spread over the curve when that would be more.
    public func samples(frameRate: Double) -> [Double] {
        guard frameRate.isFinite, frameRate > 0 else { return samples(count: 2) }
        let total = totalDuration  // a spring's settle time is solved for, so ask once
        let frames = (total * frameRate).rounded(.up)
        guard frames.isFinite, frames < Double(Self.maxSampleCount) else { return samples(count: Self.maxSampleCount) }
        return (0...Int(frames)).map { frame in value(at: min(Double(frame) / frameRate, total)) }
    }
}
