import NookCore

/// Makes a plan drawable by a renderer that declared fewer capabilities.
public enum PlanDowngrade {
    /// Without `relayout`, every `resize` element is scaled instead (SPEC rule 5's other style).
    /// (Sampled curves, for renderers without `spring`, are chosen when encoding.)
    public static func apply(_ plan: TransitionPlan, for capabilities: Set<RenderCapability>) -> TransitionPlan {
        var plan = plan
        if !capabilities.contains(.relayout) {
            for index in plan.elements.indices { plan.elements[index].style = .scale }
        }
        return plan
    }
}
