import NookCore
/// The edges of a box, for `.padding(_:_:)`.
public enum Edge: Hashable, Sendable, CaseIterable {
    case top, leading, bottom, trailing

    /// A set of edges: `.horizontal`, `.vertical`, `.all`, or any combination.
    public struct Set: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let top = Set(rawValue: 1)
        public static let leading = Set(rawValue: 2)
        public static let bottom = Set(rawValue: 4)
        public static let trailing = Set(rawValue: 8)
        public static let horizontal: Set = [.leading, .trailing]
        public static let vertical: Set = [.top, .bottom]
        public static let all: Set = [.top, .leading, .bottom, .trailing]
    }
}

extension NookView {
    /// Space around the view on every edge, in points (default 8).
    public func padding(_ length: Double = 8) -> EncodedView { padding(.all, length) }

    /// Space on the chosen edges, in points (default 8).
    ///
    /// ```swift
    /// Text(title).padding(.horizontal, 12)
    /// ```
    public func padding(_ edges: Edge.Set, _ length: Double = 8) -> EncodedView {
        padding(
            EdgeInsets(
                top: edges.contains(.top) ? length : 0, leading: edges.contains(.leading) ? length : 0,
                bottom: edges.contains(.bottom) ? length : 0, trailing: edges.contains(.trailing) ? length : 0))
    }

    /// Space per edge. Padding straight after padding adds up on one node; padding after a
    /// frame (or a mark, appearance classes, an animation scope) goes on a wrapper outside it.
    public func padding(_ insets: EdgeInsets) -> EncodedView {
        var adding = Layers()
        adding.paddingProp = true
        return _encode().modified(adding: adding) { props in
            let old = props.padding ?? .zero
            props.padding = EdgeInsets(
                top: old.top + insets.top, leading: old.leading + insets.leading,
                bottom: old.bottom + insets.bottom, trailing: old.trailing + insets.trailing)
        }
    }
}
