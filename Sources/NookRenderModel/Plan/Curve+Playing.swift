import NookCore

/// How a renderer plays a plan's curve: NookCore's own values, except that once a curve's
/// time is up it sits exactly at its end (a spring only settles to within 0.1%), and moves
/// no more. (A curve's `samples`, when a plan carries them, are this same curve sampled for a
/// renderer without springs; this one evaluates the curve itself.)
extension Curve {
    /// Progress at `t` seconds into the plan (delay included): 0 before, exactly 1 once the
    /// curve is at rest; springs may overshoot.
    func progress(at t: Double) -> Double {
        t >= totalDuration && t >= delay ? 1 : value(at: t)
    }

    /// Progress per second at `t`; 0 once at rest.
    func presentedVelocity(at t: Double) -> Double {
        t >= totalDuration ? 0 : velocity(at: t)
    }

    /// Makes a spring start with `progressVelocity` (an interrupted motion continuing, rule
    /// 21): the planner's own value assumed its `from_rect`, and the presenter starts from what
    /// is on screen. Timed curves start at rest, as in the planner.
    mutating func takeOver(_ progressVelocity: Double) {
        guard case .spring = kind, let continued = try? withInitialVelocity(progressVelocity) else { return }
        self = continued
    }

    /// Progress clamped to 0...1, for opacities.
    func fraction(at t: Double) -> Double { min(max(progress(at: t), 0), 1) }

    func isMoving(at t: Double) -> Bool { t < totalDuration }
}
