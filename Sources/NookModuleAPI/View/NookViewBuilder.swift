import NookCore
/// Builds views from a closure, as SwiftUI's `ViewBuilder` does: a list of views, `if`,
/// `if`/`else`, `switch`, `if let` and `for` loops.
///
/// ```swift
/// VStack {
///     Text(track.title)
///     if let artist = track.artist { Text(artist) }
///     for tag in track.tags { Text(tag) }
/// }
/// ```
@resultBuilder
public enum NookViewBuilder {
    public static func buildExpression<V: NookView>(_ view: V) -> EncodedView { view._encode() }

    public static func buildBlock() -> EncodedView { EncodedView() }

    public static func buildBlock(_ parts: EncodedView...) -> EncodedView {
        EncodedView(joining: parts)
    }

    public static func buildOptional(_ part: EncodedView?) -> EncodedView { part ?? EncodedView() }

    public static func buildEither(first: EncodedView) -> EncodedView { first }

    public static func buildEither(second: EncodedView) -> EncodedView { second }

    public static func buildArray(_ parts: [EncodedView]) -> EncodedView {
        EncodedView(joining: parts)
    }

    public static func buildLimitedAvailability(_ part: EncodedView) -> EncodedView { part }
}
