import NookCore
/// No view at all.
public struct EmptyView: NookView {
    public typealias Body = Never
    public init() {}
    public func _encode() -> EncodedView { EncodedView() }
}
