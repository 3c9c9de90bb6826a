/// A run of text: a `text` node.
///
/// ```swift
/// Text(track.title).font(size: 15, weight: .semibold)
/// Text(timerEndingAt: timer.end).monospacedDigit()   // counts down in the renderer
/// ```
public struct Text: NookView {
    public typealias Body = Never
    var props = NodeProps()

    /// Plain text.
    public init(_ text: String) { props.text = text }

    /// A countdown to `end` that the renderer runs on its own clock (`timer_end`), so the
    /// module sends nothing while it ticks. Layout sizes it for a placeholder such as `00:00`.
    public init(timerEndingAt end: NookInstant) { props.timerEnd = end.unixMicroseconds }

    /// The same, with the end as Unix time in microseconds.
    public init(timerEndingAtUnixMicroseconds end: Int64) { props.timerEnd = end }

    /// Sets the font size in points and, when given, the weight.
    public func font(size: Double, weight: FontWeight? = nil) -> Text {
        var copy = self
        copy.props.fontSize = size
        if let weight { copy.props.fontWeight = weight.rawValue }
        return copy
    }

    public func fontWeight(_ weight: FontWeight) -> Text {
        var copy = self
        copy.props.fontWeight = weight.rawValue
        return copy
    }

    /// Digits of equal width, so changing numbers do not jiggle (`monospaced_digits`).
    public func monospacedDigit() -> Text {
        var copy = self
        copy.props.monospacedDigits = true
        return copy
    }

    /// The text's colour (`color`), e.g. `.foregroundStyle(.orange)` or `.foregroundStyle("#FF6F61")`.
    /// Without it text is white on the black nook (or a `text-*` class's colour).
    public func foregroundStyle(_ color: NookColor) -> Text {
        var copy = self
        copy.props.color = color.hex
        return copy
    }

    public func _encode() -> EncodedView { EncodedView(ViewNode(kind: .text, props: props)) }
}

/// Font weights, sent as `font_weight` strings.
public enum FontWeight: String, Hashable, Sendable, CaseIterable {
    case ultraLight = "ultralight"
    case thin, light, regular, medium, semibold, bold, heavy, black
}
