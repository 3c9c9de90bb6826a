import NookCore
extension NookView {
    /// Draws the view at `opacity` (0...1; clamped, NaN counts as 0). Opacity on opacity
    /// multiplies. After a mark or an animation scope it goes on a wrapper, so the mark keeps
    /// covering exactly the view it was applied to.
    public func opacity(_ opacity: Double) -> EncodedView {
        let value = opacity.isNaN ? 0 : min(1, max(0, opacity))
        var adding = Layers()
        adding.opacity = true
        return _encode().modified(adding: adding) { props in
            props.opacity = (props.opacity ?? 1) * value
        }
    }
}
