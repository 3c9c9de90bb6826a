import NookCore
/// Several views with no container of their own: they join the enclosing stack, and a
/// modifier on the group applies to each of them.
public struct Group: NookView {
    public typealias Body = Never
    let content: EncodedView

    public init(@NookViewBuilder content: () -> some NookView) { self.content = content()._encode() }

    public func _encode() -> EncodedView { content }
}
