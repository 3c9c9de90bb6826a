import NookCore
/// Flexible empty space in a stack: takes what is left along the stack's axis.
///
/// `minLength` is the least it shrinks to; without it, 0 (and no extra gap beside it).
public struct Spacer: NookView {
    public typealias Body = Never
    var props = NodeProps()

    public init(minLength: Double? = nil) { props.minLength = minLength }

    public func _encode() -> EncodedView { EncodedView(ViewNode(kind: .spacer, props: props)) }
}
