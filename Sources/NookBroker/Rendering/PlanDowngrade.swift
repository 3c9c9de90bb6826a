import NookCore

/// Makes a plan drawable by a renderer that declared fewer capabilities.
public enum PlanDowngrade {
    /// Without `relayout`, every `resize` element is scaled instead (SPEC rule 5's other style).
    /// Without `crossfade`, an element whose two views differ (rule 6) travels as its
    /// destination view alone: `cross_fade` false, so the moving frame holds only the incoming
    /// copy (the source is hidden while it travels, as for any element).
    /// (Sampled curves, for renderers without `spring`, are chosen when encoding.)
    public static func apply(_ plan: TransitionPlan, for capabilities: Set<RenderCapability>) -> TransitionPlan {
        var plan = plan
        if !capabilities.contains(.relayout) {
            for index in plan.elements.indices { plan.elements[index].style = .scale }
        }
        if !capabilities.contains(.crossfade) {
            for index in plan.elements.indices { plan.elements[index].crossFade = false }
        }
        return plan
    }
}
