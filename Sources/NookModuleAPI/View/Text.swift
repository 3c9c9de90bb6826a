import NookCore
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
    /// module sends nothing while it ticks. Layout sizes it for the widest text it shows from
    /// now on: `00:00` under an hour; an hour or more away, the placeholder
    /// `TextMetrics.timerPlaceholder(seconds:)` gives (`0:00:00`, `00:00:00`) is sent as `text`
    /// beside `timer_end`, as nookctl's timers do, so `1:05:00` is not cut to `1:05…`.
    public init(timerEndingAt end: NookInstant) { self.init(timerEndingAt: end, from: .now()) }

    /// The same, sized for a countdown that runs from `start` (its widest text is at the
    /// start): a module that rebuilds its views while the timer runs keeps one width.
    public init(timerEndingAt end: NookInstant, from start: NookInstant) {
        props.timerEnd = end.unixMicroseconds
        props.text = Self.placeholder(from: start.unixMicroseconds, to: end.unixMicroseconds)
    }

    /// The same, with the end as Unix time in microseconds (sized from now).
    public init(timerEndingAtUnixMicroseconds end: Int64) {
        props.timerEnd = end
        props.text = Self.placeholder(from: NookInstant.now().unixMicroseconds, to: end)
    }

    /// The `text` sent beside `timer_end`: nil under an hour (layout measures `00:00`), else
    /// the widest format of a countdown `end - start` long. The difference is taken in 128
    /// bits, so no pair of instants traps.
    static func placeholder(from start: Int64, to end: Int64) -> String? {
        let seconds = Double(Int128(end) - Int128(start)) / 1_000_000
        return seconds > 3599 ? TextMetrics.timerPlaceholder(seconds: seconds) : nil
    }

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

    /// At most `number` lines (`line_limit`, 1...100); the last ends in an ellipsis when text is
    /// left over. As in SwiftUI, nil lifts the limit.
    public func lineLimit(_ number: Int?) -> Text {
        var copy = self
        copy.props.lineLimit = number.map { min(max($0, 1), 100) }
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
