import NookCore
/// The length `.infinity` is sent as in a `max_*` frame: far beyond any display. The contract
/// only allows finite sizes, and a maximum this large lets the view take whatever it is offered.
public let nookUnboundedLength = 1_000_000.0

extension NookView {
    /// A fixed size on either axis. Merges into the view's own node when it can; otherwise
    /// (the view already has a frame on that axis, a mark, appearance classes or an animation
    /// scope) the view is wrapped in a `zstack` carrying the frame, which centres it.
    /// A non-centre `alignment` always uses a wrapper, since it places the view inside the frame.
    ///
    /// ```swift
    /// CoverArt(track: track).frame(width: 20, height: 20).nookSharedElement("cover")
    /// ```
    public func frame(width: Double? = nil, height: Double? = nil, alignment: Alignment? = nil) -> EncodedView {
        var adding = Layers()
        adding.frameWidth = width != nil
        adding.frameHeight = height != nil
        return _encode().modified(adding: adding, forceWrap: needsAlignedWrapper(alignment)) { props in
            if let width { props.width = width }
            if let height { props.height = height }
            if let alignment, alignment != .center { props.alignment = alignment }
        }
    }

    /// A flexible frame: the view takes what it is offered, clamped to these bounds.
    /// `.infinity` as a maximum means "as much as offered" (sent as `nookUnboundedLength`).
    ///
    /// ```swift
    /// Text(title).frame(maxWidth: .infinity, alignment: .leading)
    /// ```
    public func frame(
        minWidth: Double? = nil, maxWidth: Double? = nil, minHeight: Double? = nil, maxHeight: Double? = nil,
        alignment: Alignment? = nil
    ) -> EncodedView {
        var adding = Layers()
        adding.frameWidth = minWidth != nil || maxWidth != nil
        adding.frameHeight = minHeight != nil || maxHeight != nil
        return _encode().modified(adding: adding, forceWrap: needsAlignedWrapper(alignment)) { props in
            if let minWidth { props.minWidth = minWidth }
            if let maxWidth { props.maxWidth = bounded(maxWidth) }
            if let minHeight { props.minHeight = minHeight }
            if let maxHeight { props.maxHeight = bounded(maxHeight) }
            if let alignment, alignment != .center { props.alignment = alignment }
        }
    }
}

private func needsAlignedWrapper(_ alignment: Alignment?) -> Bool { alignment != nil && alignment != .center }

private func bounded(_ length: Double) -> Double { length == .infinity ? nookUnboundedLength : length }
