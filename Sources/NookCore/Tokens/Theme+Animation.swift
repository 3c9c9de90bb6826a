/// The curve an animation scope runs on, and what the module should hear about it.
public struct AnimationResolution: Hashable, Sendable {
    public var curve: Curve
    /// `unknown-animation` when a named preset is not in `rules.animations`.
    public var diagnostics: [Diagnostic] = []
}

extension Theme {
    /// The curve for an animation scope (SPEC rule 17).
    ///
    /// The preset is the class's `animate-<name>`, else the caller's own animation (the
    /// update's `animation` option), else `rules.view.preset`. A preset missing from
    /// `rules.animations` falls back to `rules.view.preset` with an `unknown-animation`
    /// warning. `duration-<ms>` then replaces the preset's duration (a spring's response) and
    /// `delay-<ms>` its delay. The curve's `source` says which of these applied, e.g.
    /// `animate-bouncy -> rules.animations.bouncy, duration-400`.
    /// Reduce Motion and `animate: false` are the planner's to apply, not this function's.
    public func animationCurve(for classes: AnimationClasses, callerPreset: String? = nil) -> AnimationResolution {
        var diagnostics: [Diagnostic] = []
        var label: String
        var curve: Curve?
        if let name = classes.preset?.name ?? callerPreset {
            label = classes.preset != nil ? "animate-" + name : "animation " + name
            curve = self.curve(at: AnimationPreset(name: name).tokenPath)
            if curve == nil {
                diagnostics.append(
                    Diagnostic(
                        .unknownAnimation, .warning,
                        "no animation named \"\(name)\" in rules.animations; using rules.view.preset", id: name))
            }
        } else {
            label = ""
        }
        if curve == nil {
            label = label.isEmpty ? "" : label + " (unknown)"
            curve = self.curve(at: "rules.view.preset")
        }
        // The resolver guarantees rules.view.preset is a curve, so this only guards the impossible.
        var result = curve ?? Curve.none(source: "rules.view.preset")
        var suffix: [String] = []
        if let duration = classes.duration, let timed = try? result.withDuration(duration) {
            result = timed
            suffix.append("duration-\(Int64(saturating: (duration * 1000).rounded()))")
        }
        if let delay = classes.delay, let delayed = try? result.withDelay(delay) {
            result = delayed
            suffix.append("delay-\(Int64(saturating: (delay * 1000).rounded()))")
        }
        var source = label.isEmpty ? result.source : label + " -> " + result.source
        if !suffix.isEmpty { source += ", " + suffix.joined(separator: ", ") }
        result.source = source
        return AnimationResolution(curve: result, diagnostics: diagnostics)
    }
}
