/// Small geometry helpers the planner shares: interpolation and matched properties.
enum RectMath {
    static func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }

    /// The rect `t` of the way from `a` to `b` (t may overshoot for springs).
    static func lerp(_ a: Rect, _ b: Rect, _ t: Double) -> Rect {
        Rect(x: lerp(a.x, b.x, t), y: lerp(a.y, b.y, t), width: lerp(a.width, b.width, t), height: lerp(a.height, b.height, t))
    }

    /// d(rect)/dt when progress runs at `progressVelocity` per second from `a` to `b`.
    static func velocity(from a: Rect, to b: Rect, progressVelocity v: Double) -> RectVelocity {
        RectVelocity(x: (b.x - a.x) * v, y: (b.y - a.y) * v, width: (b.width - a.width) * v, height: (b.height - a.height) * v)
    }

    /// The progress per second a new move from `a` to `b` starts with so that it continues
    /// `velocity` as closely as one number can: the velocity projected onto the move's
    /// direction in (x, y, width, height) space, divided by the move's length. 0 when the move
    /// has no length.
    static func progressVelocity(_ velocity: RectVelocity, from a: Rect, to b: Rect) -> Double {
        let d = [b.x - a.x, b.y - a.y, b.width - a.width, b.height - a.height]
        let v = [velocity.x, velocity.y, velocity.width, velocity.height]
        let lengthSquared = d.reduce(0) { $0 + $1 * $1 }
        guard lengthSquared > Geometry.epsilon else { return 0 }
        var dot = 0.0
        for index in 0..<4 { dot += d[index] * v[index] }
        let result = dot / lengthSquared
        return result.isFinite ? result : 0
    }

    /// The point of `rect` that `anchor` names.
    static func point(_ anchor: SharedAnchor, in rect: Rect) -> Point {
        let x: Double
        let y: Double
        switch anchor {
        case .leading, .topLeading, .bottomLeading: x = rect.minX
        case .trailing, .topTrailing, .bottomTrailing: x = rect.maxX
        case .center, .top, .bottom: x = rect.midX
        }
        switch anchor {
        case .top, .topLeading, .topTrailing: y = rect.minY
        case .bottom, .bottomLeading, .bottomTrailing: y = rect.maxY
        case .center, .leading, .trailing: y = rect.midY
        }
        return Point(x: x, y: y)
    }

    /// A rect of `size` whose `anchor` point is `point`.
    static func rect(size: Size, anchor: SharedAnchor, at point: Point) -> Rect {
        let probe = Self.point(anchor, in: Rect(origin: .zero, size: size))
        return Rect(x: point.x - probe.x, y: point.y - probe.y, width: size.width, height: size.height)
    }

    /// Where a matched element starts, given what the match carries (rule 16):
    /// - frame: the source's frame;
    /// - position: the destination's size, placed at the source's anchor point (only the
    ///   position travels);
    /// - size: the source's size, placed at the destination's anchor point (only the size
    ///   changes).
    static func start(from source: Rect, to destination: Rect, properties: SharedProperties, anchor: SharedAnchor) -> Rect {
        switch properties {
        case .frame: source
        case .position: rect(size: destination.size, anchor: anchor, at: point(anchor, in: source))
        case .size: rect(size: source.size, anchor: anchor, at: point(anchor, in: destination))
        }
    }
}
