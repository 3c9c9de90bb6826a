/// A plan the presenter cannot read: names the key path (`chrome.to_rect`,
/// `scene.nodes.3.kind`) and says what was wrong.
///
/// Only the shape of the plan is checked here (keys the renderer needs, with the contract's
/// types). Unknown node kinds, props and classes are not errors: they draw plainly and are
/// listed in `PlanPresenter.warnings`.
public struct RenderPlanError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The offending key, as a dotted path from the plan's top (`elements.0.curve.type`).
    public var key: String
    public var message: String

    public init(key: String, message: String) {
        self.key = key
        self.message = message
    }

    public var description: String { "\(key): \(message)" }

    static let unknownBase = "the scene this delta edits is not the one held"

    /// A `scene_delta` against a scene this renderer does not hold (it missed or refused a
    /// plan): subscribing again brings a whole scene.
    public var needsWholeScene: Bool { key == "scene_delta.base" }
}
