/// Double -> integer conversions that cannot trap: `Int(x)` crashes on NaN, infinity and
/// anything beyond the integer's range, so every conversion of a computed Double goes
/// through these, which saturate at the bounds and read NaN as 0.
extension Int64 {
    public init(saturating value: Double) {
        if value.isNaN {
            self = 0
        } else if value >= 9_223_372_036_854_775_807.0 {  // 2^63: the first Double past Int64.max
            self = .max
        } else if value <= -9_223_372_036_854_775_808.0 {
            self = .min
        } else {
            self = Int64(value)
        }
    }
}

extension Int {
    public init(saturating value: Double) {
        self = Int(Int64(saturating: value))
    }
}

extension Int64 {
    /// `self + other`, stuck at the bounds instead of overflowing.
    public func saturatingAdd(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// `self - other`, stuck at the bounds instead of overflowing.
    public func saturatingSubtract(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : difference
    }
}
