/// Rule 6's cross-fade: two different views under one id, drawn in the same moving frame.
///
/// Fading one copy out on `1 − p` while the other fades in on `p` leaves both at half at the
/// midpoint, and two copies at half drawn over each other (source-over, coverage
/// `1 − (1 − a)(1 − b)`) cover only 75%: the background shows through. The curves are split
/// instead: the incoming copy fades in over the first half of the move and the outgoing copy
/// fades out over the second half, so at every instant one of them is fully opaque and the
/// pair covers at least as much as the more opaque copy alone. Progress is the element
/// curve's value (a spring may overshoot); it is clamped.
///
/// ```swift
/// CrossFade.incoming(0.25)   // 0.5
/// CrossFade.outgoing(0.25)   // 1
/// ```
public enum CrossFade {
    /// The progress at which the incoming copy is fully in and the outgoing one starts to go.
    public static let split = 0.5

    /// The incoming copy's opacity factor at `progress`.
    public static func incoming(_ progress: Double) -> Double { clamp(progress / split) }

    /// The outgoing copy's opacity factor at `progress`.
    public static func outgoing(_ progress: Double) -> Double { clamp((1 - progress) / (1 - split)) }

    /// What two layers of opacity `a` and `b` cover together, drawn one over the other.
    public static func coverage(_ a: Double, _ b: Double) -> Double { 1 - (1 - a) * (1 - b) }

    static func clamp(_ value: Double) -> Double { value.isNaN ? 0 : min(max(value, 0), 1) }
}
