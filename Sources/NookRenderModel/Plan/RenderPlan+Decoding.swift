import NookCore

extension RenderPlan {
    /// Reads a plan `a{sv}` as the Plan signal or the Subscribe reply carries it, with
    /// NookCore's reader (`ReceivedPlan(wire:)`).
    /// - Throws: `RenderPlanError` naming the first key it cannot read.
    /// - Parameter warnings: gains one line per thing the renderer will not draw faithfully
    ///   (unknown curve types, changes, styles, node kinds, props).
    /// - Parameter held: the scene the renderer holds and its plan's serial, which a plan with
    ///   `scene_delta` edits; such a plan against any other base throws (the renderer then
    ///   subscribes again for a whole scene).
    init(wire value: PropValue, held: (serial: UInt64, scene: RenderScene)? = nil, warnings: inout [String]) throws(RenderPlanError) {
        let received = try ReceivedPlan(wire: value, held: held.map { ($0.serial, $0.scene.wire) }, warnings: &warnings)
        self = received.withScene(RenderScene(received.scene, warnings: &warnings))
    }
}
