import NookCore
/// Options of an activity update.
public struct UpdateOptions: Hashable, Sendable {
    /// False: the broker shows the new views at once (`animate` b, default true).
    public var animate: Bool
    /// The caller's own animation, used by animation scopes that name no preset.
    public var animation: AnimationPreset?

    public init(animate: Bool = true, animation: AnimationPreset? = nil) {
        self.animate = animate
        self.animation = animation
    }

    /// Only what differs from the contract's defaults.
    var wireOptions: [String: PropValue] {
        var out: [String: PropValue] = [:]
        if !animate { out[CallKey.animate.name] = .bool(false) }
        if let animation { out[CallKey.animation.name] = .string(animation.name) }
        return out
    }
}
