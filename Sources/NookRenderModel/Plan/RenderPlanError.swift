import NookCore

/// A plan the presenter cannot read: names the key path (`chrome.to_rect`,
/// `scene.nodes.3.kind`) and says what was wrong.
///
/// Only the shape of the plan is checked (keys the renderer needs, with the contract's
/// types). Unknown node kinds, props and classes are not errors: they draw plainly and are
/// listed in `PlanPresenter.warnings`.
public typealias RenderPlanError = WireFieldError

extension WireFieldError {
    /// A `scene_delta` against a scene this renderer does not hold (it missed or refused a
    /// plan): subscribing again brings a whole scene.
    public var needsWholeScene: Bool { key == WireScene.deltaBaseKey }
}
