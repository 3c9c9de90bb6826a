import NookCore
/// One view per element of a collection, joining the enclosing stack.
///
/// With an `id` (a key path, or `Identifiable` elements), each element's root node gets that
/// id as its `identity` when the id's text is a valid identifier (SPEC rule 1) and the node has
/// none yet, so the broker can follow a row that moves, or a group that keeps its namespace.
///
/// ```swift
/// VStack {
///     ForEach(timers, id: \.id) { timer in TimerRow(timer: timer) }
/// }
/// ```
public struct ForEach: NookView {
    public typealias Body = Never
    let content: EncodedView

    public init<Data: Sequence, Content: NookView>(
        _ data: Data, @NookViewBuilder content: (Data.Element) -> Content
    ) {
        self.content = EncodedView(joining: data.map { content($0)._encode() })
    }

    public init<Data: Sequence, ID: Hashable, Content: NookView>(
        _ data: Data, id: KeyPath<Data.Element, ID>, @NookViewBuilder content: (Data.Element) -> Content
    ) {
        self.content = EncodedView(
            joining: data.map { element in
                let encoded = content(element)._encode()
                return EncodedView(pieces: Self.identified(encoded, id: element[keyPath: id]), actions: encoded.actions)
            })
    }

    public init<Data: Sequence, Content: NookView>(
        _ data: Data, @NookViewBuilder content: (Data.Element) -> Content
    ) where Data.Element: Identifiable {
        self.init(data, id: \.id, content: content)
    }

    public func _encode() -> EncodedView { content }

    private static func identified(_ view: EncodedView, id: some Hashable) -> [Piece] {
        let text = String(describing: id)
        guard Identifier.isValid(text) else { return view.pieces }
        return view.pieces.map { piece in
            var piece = piece
            if piece.node.props.identity == nil { piece.node.props.identity = text }
            return piece
        }
    }
}
