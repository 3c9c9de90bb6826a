import NookCore
/// An image: a named icon (`symbol`) or a picture at a URI (`uri`).
///
/// On Linux an icon name is a freedesktop icon-theme name (`media-playback-start-symbolic`), or
/// one of the SF-Symbols-style names NookCore's `SymbolNames` maps (`music.note`, `play.fill`;
/// docs/module-guide.md lists them). Another dotted name draws as an outline, and the broker
/// says so with `unknown-symbol`. Without a frame an image is a 20 pt square; one fixed side
/// sets the other.
public struct Image: NookView {
    public typealias Body = Never
    var props = NodeProps()

    public init(systemName: String) { props.symbol = systemName }

    public init(uri: String) { props.uri = uri }

    /// Tints a symbol (`color`); pictures at a URI draw as they are unless tinted this way.
    public func foregroundStyle(_ color: NookColor) -> Image {
        var copy = self
        copy.props.color = color.hex
        return copy
    }

    public func _encode() -> EncodedView { EncodedView(ViewNode(kind: .image, props: props)) }
}
