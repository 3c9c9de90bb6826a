import NookCore
/// A progress indicator: a fixed fraction, or progress the renderer advances on its own
/// clock between two instants (a song's position), so no update is needed while it runs.
///
/// ```swift
/// ProgressView(value: 0.25)
/// ProgressView(start: song.startedAt, end: song.endsAt).progressViewStyle(.circular)
/// ```
public struct ProgressView: NookView {
    public typealias Body = Never
    var props = NodeProps()

    /// A fraction in 0...1; values outside are clamped, NaN counts as 0.
    public init(value: Double) { props.value = value.isNaN ? 0 : min(1, max(0, value)) }

    /// Progress that runs from `start` to `end` (`start`/`end` in unix µs).
    public init(start: NookInstant, end: NookInstant) {
        props.start = start.unixMicroseconds
        props.end = end.unixMicroseconds
    }

    /// `linear` (a bar, the renderer's default) or `circular`.
    public func progressViewStyle(_ style: ProgressStyle) -> ProgressView {
        var copy = self
        copy.props.progressStyle = style
        return copy
    }

    public func _encode() -> EncodedView { EncodedView(ViewNode(kind: .progress, props: props)) }
}
