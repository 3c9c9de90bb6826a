/// The namespaces of one slot's tree, resolved: every marked node with its key, every group,
/// every group variant pointed at its group node, and the parsed classes of each node.
///
/// Contract (SPEC rules 15, 16, 23):
/// - A node owns a group namespace when its classes say `group` / `group/<name>` or it has a
///   `group` prop (the prop wins when both are present). A node's own group never encloses
///   the node itself, only its descendants.
/// - `shared-[id]` resolves to the nearest enclosing group; `shared-[id]/<name>` to the nearest
///   ancestor group named `<name>`, however many groups lie between. Sibling groups with one
///   name are separate namespaces. No group to resolve to: the node draws normally, is not
///   matched, and a `missing-group` warning says why. Group variants resolve the same way.
/// - A group's identity is its `identity` prop when it has one, else its ordinal among the
///   tree's group nodes in preorder, so a group keeps its namespace across updates.
/// - `shared` props give `nook` keys (`namespace == ""`) or `custom` keys (a caller namespace).
///
/// ```swift
/// let spaces = SlotNamespaces(resolving: view.root, slot: "expanded",
///                             owner: SlotOwner(module: "music", activity: "song"))
/// for element in spaces.elements { print(element.key, element.path) }
/// ```
public struct SlotNamespaces: Hashable, Sendable {
    /// Marked nodes in preorder; a node with both a `shared` prop and a `shared-[id]` class appears twice.
    public var elements: [SharedElement]
    /// Group nodes in preorder.
    public var groups: [GroupNode]
    /// Resolved variants by node path (only nodes that have variants).
    public var variants: [String: [ResolvedVariant]]
    /// Parsed class strings by node path (only nodes with a `classes` prop), so later stages
    /// (layout, animation scope) need not parse again. Built on demand from `classLists`;
    /// the planner reads them by preorder node index (`classList(atNode:)`).
    public var classes: [String: ClassList] {
        Dictionary(zip(classListPaths, classLists), uniquingKeysWith: { _, last in last })
    }
    /// The parsed class strings, in preorder of the nodes that have one.
    var classLists: [ClassList] = []
    /// The path of the node each of `classLists` belongs to.
    var classListPaths: [String] = []
    /// For each node in preorder, its entry in `classLists`, or -1 when it has no classes.
    var classListOfNode: [Int32] = []
    /// Class diagnostics and resolution diagnostics, in tree order.
    public var diagnostics: [Diagnostic]
    /// By node path, the class strings that name a theme rule, with the rules expanded
    /// (`NamedRules.expand`), for renderers, which never see the theme's rules.
    public var expandedClasses: [String: String] = [:]

    public init(
        elements: [SharedElement] = [], groups: [GroupNode] = [], variants: [String: [ResolvedVariant]] = [:],
        diagnostics: [Diagnostic] = []
    ) {
        self.elements = elements
        self.groups = groups
        self.variants = variants
        self.diagnostics = diagnostics
    }

    /// The parsed classes of the node at preorder `index` of the slot's tree; nil when it has none.
    func classList(atNode index: Int) -> ClassList? {
        withClassList(atNode: index) { $0?.pointee }
    }

    /// Calls `body` with the parsed classes of the node at preorder `index`, read in place (a
    /// copy retains every array and string of the list), or nil when it has none.
    func withClassList<R>(atNode index: Int, _ body: (UnsafePointer<ClassList>?) -> R) -> R {
        guard index >= 0, index < classListOfNode.count else { return body(nil) }
        let entry = Int(classListOfNode[index])
        guard entry >= 0 else { return body(nil) }
        return classLists.withUnsafeBufferPointer { body($0.baseAddress! + entry) }
    }
}

/// A node that owns a group namespace.
public struct GroupNode: Hashable, Sendable {
    public var path: String
    /// nil for an anonymous `group`.
    public var name: String?
    public var identity: GroupIdentity
    /// The key prefix its shared ids live under: `<owner>/<slot>/group#0`.
    public var namespaceKey: String
}

/// How a group is recognised across updates of its slot.
public enum GroupIdentity: Hashable, Sendable {
    /// From the group node's `identity` prop.
    case explicit(String)
    /// Its index among the tree's group nodes, in preorder.
    case ordinal(Int)
}

/// A variant chain with each group condition pointed at the group node it refers to.
public struct ResolvedVariant: Hashable, Sendable {
    public var conditions: [ResolvedCondition]
    public var utility: String
    /// The class token as written.
    public var token: String
}

/// One condition of a variant chain: a state, on the element itself or on a group node.
public struct ResolvedCondition: Hashable, Sendable {
    public var state: String
    /// The group node whose state counts, or nil for the element's own state.
    public var groupPath: String?
}
