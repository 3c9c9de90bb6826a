/// An image: a named icon (`symbol`) or a picture at a URI (`uri`).
///
/// On Linux an icon name is a freedesktop icon-theme name (`media-playback-start`); renderers
/// may also map SF-Symbol-style names such as `music.note`. Without a frame an image is a
/// 20 pt square; one fixed side sets the other.
public struct Image: NookView {
    public typealias Body = Never
    var props = NodeProps()

    public init(systemName: String) { props.symbol = systemName }

    public init(uri: String) { props.uri = uri }

    public func _encode() -> EncodedView { EncodedView(ViewNode(kind: .image, props: props)) }
}
