/// A CSS-style timing function: a cubic Bézier from (0, 0) to (1, 1) through two control points.
///
/// x is the fraction of the duration, y the progress. To sample at a time the curve is solved
/// for the parameter s with x(s) = time fraction: Newton's method from s = x, falling back to
/// bisection when the slope is too flat for Newton to be safe.
public struct CubicBezier: Hashable, Sendable {
    public let x1: Double
    public let y1: Double
    public let x2: Double
    public let y2: Double

    /// Refuses non-finite points and x outside 0...1 (x must stay a function of time).
    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) throws(CurveError) {
        guard [x1, y1, x2, y2].allSatisfy(\.isFinite) else {
            throw CurveError(parameter: "points", message: "cubic Bézier points must be finite, found [\(x1), \(y1), \(x2), \(y2)]")
        }
        guard (0...1).contains(x1), (0...1).contains(x2) else {
            throw CurveError(parameter: "points", message: "cubic Bézier x values must lie in 0...1, found \(x1) and \(x2)")
        }
        // Far wider than clients may send (`NumberDomain.bezierY`); keeps the cubic finite.
        guard abs(y1) <= Self.maxY, abs(y2) <= Self.maxY else {
            throw CurveError(parameter: "points", message: "cubic Bézier y values must lie within ±1e6, found \(y1) and \(y2)")
        }
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    public var points: [Double] { [x1, y1, x2, y2] }

    /// The largest |y| a control point may have.
    public static let maxY = 1e6

    /// The CSS `ease` curve.
    public static let ease = try! CubicBezier(0.25, 0.1, 0.25, 1)
    /// A straight line: progress equals the time fraction.
    public static let identity = try! CubicBezier(0, 0, 1, 1)

    /// Progress at time fraction `x` (clamped to 0...1).
    public func progress(at x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        return Self.coordinate(solve(x), y1, y2)
    }

    /// d(progress)/d(time fraction) at `x`: divide by the duration for progress per second.
    public func slope(at x: Double) -> Double {
        let clamped = min(max(x, 0), 1)
        // At the ends dx/ds can vanish (x1 = 0 or x2 = 1); step in a hair to take the limit.
        let s = min(max(solve(clamped), 1e-7), 1 - 1e-7)
        let dx = Self.derivative(s, x1, x2)
        let dy = Self.derivative(s, y1, y2)
        return dx == 0 ? 0 : dy / dx
    }

    /// The parameter s with x(s) = x.
    func solve(_ x: Double) -> Double {
        var s = x
        for _ in 0..<8 {
            let error = Self.coordinate(s, x1, x2) - x
            if abs(error) < 1e-12 { return s }
            let dx = Self.derivative(s, x1, x2)
            if abs(dx) < 1e-6 { break }
            s -= error / dx
            if s < 0 || s > 1 { break }
        }
        // Bisection: x(s) is monotone because both control x values lie in 0...1.
        var low = 0.0
        var high = 1.0
        s = x
        for _ in 0..<64 {
            let value = Self.coordinate(s, x1, x2)
            if abs(value - x) < 1e-12 { break }
            if value < x { low = s } else { high = s }
            s = (low + high) / 2
        }
        return s
    }

    /// One coordinate of the curve at parameter s, with end points 0 and 1.
    static func coordinate(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let inverse = 1 - s
        return 3 * inverse * inverse * s * p1 + 3 * inverse * s * s * p2 + s * s * s
    }

    static func derivative(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let inverse = 1 - s
        return 3 * inverse * inverse * p1 + 6 * inverse * s * (p2 - p1) + 3 * s * s * (1 - p2)
    }
}
