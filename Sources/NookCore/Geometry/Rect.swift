/// Points in display coordinates: origin top-left, y grows downwards.
public struct Point: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let zero = Point(x: 0, y: 0)
}

public struct Size: Hashable, Sendable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
    public static let zero = Size(width: 0, height: 0)
}

/// A rectangle in display points; the wire form is `(dddd)` x, y, width, height.
public struct Rect: Hashable, Sendable {
    public var origin: Point
    public var size: Size

    public init(x: Double, y: Double, width: Double, height: Double) {
        origin = Point(x: x, y: y)
        size = Size(width: width, height: height)
    }
    public init(origin: Point, size: Size) { self.origin = origin; self.size = size }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var x: Double { origin.x }
    public var y: Double { origin.y }
    public var width: Double { size.width }
    public var height: Double { size.height }
    public var minX: Double { origin.x }
    public var minY: Double { origin.y }
    public var maxX: Double { origin.x + size.width }
    public var maxY: Double { origin.y + size.height }
    public var midX: Double { origin.x + size.width / 2 }
    public var midY: Double { origin.y + size.height / 2 }

    /// True when `other` lies inside this rect, allowing `Geometry.epsilon` of rounding.
    public func contains(_ other: Rect) -> Bool {
        other.minX >= minX - Geometry.epsilon && other.minY >= minY - Geometry.epsilon
            && other.maxX <= maxX + Geometry.epsilon && other.maxY <= maxY + Geometry.epsilon
    }

    public func offsetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: x + dx, y: y + dy, width: width, height: height)
    }

    /// Equal within `Geometry.epsilon` on every component.
    public func isClose(to other: Rect) -> Bool {
        Geometry.isClose(x, other.x) && Geometry.isClose(y, other.y)
            && Geometry.isClose(width, other.width) && Geometry.isClose(height, other.height)
    }
}

/// Insets in the contract's order for `padding (dddd)`: top, leading, bottom, trailing.
public struct EdgeInsets: Hashable, Sendable {
    public var top: Double
    public var leading: Double
    public var bottom: Double
    public var trailing: Double
    public init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
        self.top = top; self.leading = leading; self.bottom = bottom; self.trailing = trailing
    }
    public init(all value: Double) { self.init(top: value, leading: value, bottom: value, trailing: value) }
    public static let zero = EdgeInsets()
    public var horizontal: Double { leading + trailing }
    public var vertical: Double { top + bottom }
}

/// One shared tolerance for comparing geometry, so every module agrees on "the same place".
public enum Geometry {
    public static let epsilon = 1e-6
    public static func isClose(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= epsilon }
}
