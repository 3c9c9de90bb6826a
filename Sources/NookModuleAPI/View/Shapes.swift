import NookCore
/// A rectangle filling its frame.
public struct Rectangle: NookView {
    public typealias Body = Never
    var props = shapeProps(.rect)
    public init() {}
    /// Fills the shape with `color`.
    public func fill(_ color: NookColor) -> Rectangle { filled(self, color) }
    public func _encode() -> EncodedView { EncodedView(ViewNode(kind: .shape, props: props)) }
}

/// A rectangle with rounded corners.
public struct RoundedRectangle: NookView {
    public typealias Body = Never
    var props = shapeProps(.roundedRect)
    public init(cornerRadius: Double) { props.cornerRadius = cornerRadius }
    public func fill(_ color: NookColor) -> RoundedRectangle { filled(self, color) }
    public func _encode() -> EncodedView { EncodedView(ViewNode(kind: .shape, props: props)) }
}

/// A circle centred in its frame.
public struct Circle: NookView {
    public typealias Body = Never
    var props = shapeProps(.circle)
    public init() {}
    public func fill(_ color: NookColor) -> Circle { filled(self, color) }
    public func _encode() -> EncodedView { EncodedView(ViewNode(kind: .shape, props: props)) }
}

/// A rectangle whose short sides are half circles.
public struct Capsule: NookView {
    public typealias Body = Never
    var props = shapeProps(.capsule)
    public init() {}
    public func fill(_ color: NookColor) -> Capsule { filled(self, color) }
    public func _encode() -> EncodedView { EncodedView(ViewNode(kind: .shape, props: props)) }
}

private protocol FillableShape { var props: NodeProps { get set } }
extension Rectangle: FillableShape {}
extension RoundedRectangle: FillableShape {}
extension Circle: FillableShape {}
extension Capsule: FillableShape {}

private func shapeProps(_ shape: ShapeKind) -> NodeProps {
    var props = NodeProps()
    props.shape = shape
    return props
}

private func filled<S: FillableShape>(_ shape: S, _ color: NookColor) -> S {
    var copy = shape
    copy.props.color = color.hex
    return copy
}
