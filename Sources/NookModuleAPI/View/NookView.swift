import NookCore
import Synchronization
/// A piece of UI a module describes: the SDK turns it into the contract's view nodes.
///
/// Write your own views the way you would in SwiftUI: a struct with a `body`. Each custom view
/// becomes one node of kind `view` whose `name` is the Swift type's name (`CoverArt`) and whose
/// children are its body. The name is part of the "same view" identity the broker uses when a
/// shared element moves (SPEC rule 6): the same custom view on both sides simply moves, two
/// different ones cross-fade inside the moving frame.
///
/// ```swift
/// struct CoverArt: NookView {
///     var track: Track
///     var body: some NookView {
///         Image(uri: track.artURL)
///     }
/// }
/// ```
///
/// State lives in your model, not in the view: a view is a value the SDK encodes at once.
public protocol NookView {
    associatedtype Body: NookView

    /// The view's content. Several views at the top level overlap like a `ZStack`.
    @NookViewBuilder var body: Body { get }

    /// The custom view name sent as the node's `name`. Defaults to the type's name.
    static var nookViewName: String { get }

    /// Values sent as the node's `params` (`a{sv}`), for renderers that draw a custom view
    /// themselves. Empty by default; when empty, no `params` key is sent.
    var nookParams: [String: PropValue] { get }

    /// Encodes the view. Custom views use the default; the SDK's own views override it.
    func _encode() -> EncodedView
}

extension NookView {
    public static var nookViewName: String { TypeNames.name(of: Self.self) }

    public var nookParams: [String: PropValue] { [:] }

    /// A custom view: one `view` node named after the type, with its body as children.
    public func _encode() -> EncodedView {
        var props = NodeProps()
        props.name = Self.nookViewName
        let params = nookParams
        if !params.isEmpty { props.params = params }
        let content = body._encode()
        var children = content.nodes
        InstanceNamespaces.claim(in: &children, declaredBy: self)
        return EncodedView(ViewNode(kind: .view, props: props, children: children), actions: content.actions)
    }
}

/// The SDK's built-in views have no body: they encode themselves directly.
extension NookView where Body == Never {
    public var body: Never { fatalError("\(Self.self) is a built-in view and has no body") }
}

extension Never: NookView {
    public typealias Body = Never
    public func _encode() -> EncodedView { EncodedView() }
}

extension NookView {
    /// The encoded nodes of this view, in order (usually one), control ids derived from
    /// their place under the key `view` (`view.0.1`; see `NookAction`).
    public var viewNodes: [ViewNode] {
        let encoded = _encode()
        return encoded.pieces.indices.map { index in
            encoded.actions.finalized(InstanceNamespaces.resolve(encoded.pieces[index].node), key: "view.\(index)").0
        }
    }

    /// This view as a single root node, as a slot needs it: one top-level view is the root,
    /// several are stacked in a `vstack` (as a window's root does in SwiftUI), none give an
    /// empty `zstack`.
    public var viewNode: ViewNode { _encode().rootNode }
}

/// Type names, worked out once per type: `String(describing:)` of a type walks its metadata
/// and demangles, a few microseconds every time a view is encoded. Bounded by the program's types.
enum TypeNames {
    private static let names = Mutex<[ObjectIdentifier: String]>([:])

    static func name(of type: Any.Type) -> String {
        let key = ObjectIdentifier(type)
        if let name = names.withLock({ $0[key] }) { return name }
        let name = String(describing: type)
        names.withLock { $0[key] = name }
        return name
    }
}
