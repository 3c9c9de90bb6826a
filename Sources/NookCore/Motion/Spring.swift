import Synchronization

// The C maths library only, for exp, sin and cos; NookCore imports nothing that does I/O.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A damped spring described the SwiftUI way, by response and damping fraction.
///
/// Physics (mass m = 1): stiffness k = (2π / response)² · m, damping c = 4π · ζ · m / response,
/// where ζ is `dampingFraction`. The animated value is progress: it starts at `from` (0 for a
/// fresh move) with velocity `velocity` (progress per second) and is pulled towards 1. With
/// u = progress − 1 the motion is u'' + 2ζω₀u' + ω₀²u = 0, ω₀ = 2π / response, and is sampled in
/// closed form for under- (ζ < 1), critically (ζ = 1) and over-damped (ζ > 1) springs.
///
/// ```swift
/// let spring = try Spring(response: 0.42, dampingFraction: 0.82)
/// spring.value(at: 0.1)                        // progress 0.1 s in
/// spring.value(at: 0.1, from: 0.3, velocity: 2) // resuming an interrupted move
/// ```
public struct Spring: Hashable, Sendable {
    /// Seconds for one undamped oscillation; larger is slower. Always > 0.
    public let response: Double
    /// ζ: 1 is critically damped (no overshoot), below 1 bounces, above 1 creeps. Always > 0.
    public let dampingFraction: Double

    /// How close to rest counts as settled: the motion's distance from rest in phase space,
    /// √(u² + (u'/ω₀)²), must fall to 0.1% of where it started. Because that quantity is
    /// proportional to the square root of the spring's energy, it only ever shrinks, so the
    /// settle time is well defined and found by bisection.
    public static let settleFraction = 1e-3

    /// The widest parameters a spring can have and still be sampled in finite numbers
    /// (ω₀² and the decay rates stay far from overflow). What clients may send is narrower,
    /// `NumberDomain.springResponse` and `.dampingFraction`; these leave room for the
    /// shortened springs `DurationCap` makes.
    public static let responseBounds = 1e-6...1e6
    public static let dampingFractionBounds = 1e-6...1e6

    /// Refuses a response or damping fraction that is not finite or outside its bounds (a
    /// spring with no damping would never settle, so zero is refused too).
    public init(response: Double, dampingFraction: Double) throws(CurveError) {
        guard response.isFinite, response > 0, Self.responseBounds.contains(response) else {
            throw CurveError(
                parameter: "response",
                message: "a spring's response must be a finite number of seconds above 0 (within \(Self.responseBounds)), found \(NumberText.short(response))")
        }
        guard dampingFraction.isFinite, dampingFraction > 0, Self.dampingFractionBounds.contains(dampingFraction) else {
            throw CurveError(
                parameter: "dampingFraction",
                message: "a spring's damping fraction must be finite and above 0 (within \(Self.dampingFractionBounds)), found \(NumberText.short(dampingFraction))")
        }
        self.response = response
        self.dampingFraction = dampingFraction
    }

    public var mass: Double { 1 }
    /// ω₀ = 2π / response, the undamped angular frequency.
    public var angularFrequency: Double { 2 * Double.pi / response }
    /// k = (2π / response)² · m.
    public var stiffness: Double { angularFrequency * angularFrequency * mass }
    /// c = 4π · ζ · m / response.
    public var damping: Double { 4 * Double.pi * dampingFraction * mass / response }

    /// Seconds until a move from 0 at rest settles (see `settleFraction`).
    public var settleDuration: Double { settleDuration(from: 0, velocity: 0) }

    /// Progress at `t` seconds for a motion starting at `from` with `velocity` (progress/s).
    public func value(at t: Double, from start: Double = 0, velocity: Double = 0) -> Double {
        1 + state(at: t, from: start, velocity: velocity).displacement
    }

    /// Velocity in progress per second at `t` seconds.
    public func velocity(at t: Double, from start: Double = 0, velocity: Double = 0) -> Double {
        state(at: t, from: start, velocity: velocity).velocity
    }

    /// Seconds until the motion from `start` with `velocity` is within `settleFraction` of
    /// its starting distance from rest; 0 when it starts at rest on the target.
    public func settleDuration(from start: Double, velocity: Double) -> Double {
        let key = SettleKey(spring: self, start: start, velocity: velocity)
        if let known = Self.solved.withLock({ $0.value(for: key) }) { return known }
        let duration = solveSettleDuration(from: start, velocity: velocity)
        Self.solved.withLock { $0.insert(duration, for: key) }
        return duration
    }

    /// Settle times already solved. A pure function of its key, asked again and again for the
    /// same few theme springs (a plan's duration, duration caps, every renderer's read), and each
    /// solve is a bisection of some ten thousand instructions.
    private static let solved = Mutex(BoundedCache<SettleKey, Double>(capacity: 512))

    private struct SettleKey: Hashable {
        var spring: Spring
        var start: Double
        var velocity: Double
    }

    private func solveSettleDuration(from start: Double, velocity: Double) -> Double {
        let initial = phaseRadius(displacement: start - 1, velocity: velocity)
        guard initial > 0 else { return 0 }
        let threshold = initial * Self.settleFraction
        func settled(_ t: Double) -> Bool {
            let s = state(at: t, from: start, velocity: velocity)
            return phaseRadius(displacement: s.displacement, velocity: s.velocity) <= threshold
        }
        var high = response
        while !settled(high) && high < 1e6 { high *= 2 }
        var low = 0.0
        while high - low > 1e-7 * max(1, high) {
            let mid = (low + high) / 2
            if settled(mid) { high = mid } else { low = mid }
        }
        return high
    }

    private func phaseRadius(displacement: Double, velocity: Double) -> Double {
        let scaled = velocity / angularFrequency
        return (displacement * displacement + scaled * scaled).squareRoot()
    }

    /// Displacement from the target (u = progress − 1) and velocity at `t`.
    func state(at t: Double, from start: Double, velocity v0: Double) -> (displacement: Double, velocity: Double) {
        let u0 = start - 1
        guard t > 0 else { return (u0, v0) }
        // Past the longest time a curve can last the phase ω_d·t would overflow to infinity
        // (cos(inf) is NaN); any spring is at rest long before, so time stops there.
        let t = min(t, Curve.maxSeconds)
        let w0 = angularFrequency
        let zeta = dampingFraction
        if abs(zeta - 1) < 1e-6 {
            // Critically damped: u = (A + Bt)·e^(−ω₀t).
            let a = u0
            let b = v0 + w0 * u0
            let decay = exp(-w0 * t)
            return ((a + b * t) * decay, (b - w0 * (a + b * t)) * decay)
        }
        if zeta < 1 {
            // Under-damped: u = e^(−ζω₀t)·(A cos ω_d t + B sin ω_d t).
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let a = u0
            let b = (v0 + zeta * w0 * u0) / wd
            let decay = exp(-zeta * w0 * t)
            let c = cos(wd * t)
            let s = sin(wd * t)
            let u = decay * (a * c + b * s)
            let du = decay * ((wd * b - zeta * w0 * a) * c - (wd * a + zeta * w0 * b) * s)
            return (u, du)
        }
        // Over-damped: u = C₁e^(r₁t) + C₂e^(r₂t), r = −ω₀(ζ ∓ √(ζ² − 1)).
        let root = (zeta * zeta - 1).squareRoot()
        let r1 = -w0 * (zeta - root)
        let r2 = -w0 * (zeta + root)
        let c2 = (v0 - r1 * u0) / (r2 - r1)
        let c1 = u0 - c2
        let e1 = exp(r1 * t)
        let e2 = exp(r2 * t)
        return (c1 * e1 + c2 * e2, c1 * r1 * e1 + c2 * r2 * e2)
    }
}

/// A curve parameter that cannot describe motion (NaN, a non-positive response, ...).
public struct CurveError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The parameter at fault: `response`, `dampingFraction`, `duration`, `points`, `delay`.
    public var parameter: String
    public var message: String

    public var description: String { message }
}
