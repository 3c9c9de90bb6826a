/// Which namespace a shared key lives in (the plan's `namespace`: `nook`, `group`, `custom`).
public enum NamespaceKind: String, Hashable, Sendable, CaseIterable {
    /// `.nookSharedElement` / `shared.namespace == ""`: matched within the module, across
    /// surfaces (rule 3) and in content transitions of the same slot.
    case nook
    /// `shared-[id]` classes: matched within one group node of one slot (rule 15).
    case group
    /// `.twShared(_, in:)` / `shared.namespace != ""`: a caller namespace within one slot.
    case custom
}

/// The string two marked elements must share to be matched, tagged with its namespace.
///
/// Formats (owner is `<module>` for module-level views, `<module>/<activity>` otherwise):
/// - nook: `<module>/<id>` as written (rule 8's suffixing gives the full set of answer keys);
/// - group: `<owner>/<slot>/group#<n>/<id>` for the n-th group node in preorder, or
///   `<owner>/<slot>/group:<identity>/<id>` for a group with an explicit `identity`;
/// - custom: `<owner>/<slot>/ns:<namespace>/<id>`.
/// `#` and `:` cannot occur in ids, so the formats never collide.
public struct SharedKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var namespace: NamespaceKind
    public var key: String {
        get { text }
        set {
            text = newValue
            digest = newValue.hashValue
        }
    }
    private var text: String
    /// The key's own `hashValue`, taken once when it is set: element matching looks each key
    /// up in a dictionary, and hashing a 40-byte key cost about 470 instructions a lookup.
    /// Equal strings have equal hash values, so unequal digests also answer `==` at once.
    private var digest: Int

    public init(_ namespace: NamespaceKind, _ key: String) {
        self.namespace = namespace
        text = key
        digest = key.hashValue
    }

    public static func == (lhs: SharedKey, rhs: SharedKey) -> Bool {
        lhs.digest == rhs.digest && lhs.namespace == rhs.namespace && lhs.text == rhs.text
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(namespace)
        hasher.combine(digest)
    }

    public var description: String { namespace.rawValue + ":" + key }

    public static func < (lhs: SharedKey, rhs: SharedKey) -> Bool {
        (lhs.namespace.rawValue, lhs.key) < (rhs.namespace.rawValue, rhs.key)
    }
}

/// Whose view a slot tree is: a module-level view (`activity == nil`) or an activity's.
public struct SlotOwner: Hashable, Sendable, CustomStringConvertible {
    public var module: String
    public var activity: String?

    public init(module: String, activity: String? = nil) {
        self.module = module
        self.activity = activity
    }

    /// `<module>` or `<module>/<activity>`, the plan's `owner`.
    public var description: String { activity.map { module + "/" + $0 } ?? module }
}

/// One marked node, resolved to its namespace and key, with the options matching needs.
public struct SharedElement: Hashable, Sendable {
    public var key: SharedKey
    /// The id as written (`cover`, `timer.a1`).
    public var id: String
    /// The marked node's path (`expanded/0/1`).
    public var path: String
    public var role: SharedRole
    public var properties: SharedProperties
    public var anchor: SharedAnchor
    public var style: SharedStyle
    /// For group keys, the path of the group node the id resolved to.
    public var groupPath: String?
    /// The marked node's preorder index in its slot's tree (its laid-out index), or -1 when
    /// unknown (an element made by hand); the planner finds the node by it, not by `path`.
    var node: Int = -1

    public init(
        key: SharedKey, id: String, path: String, role: SharedRole = .source, properties: SharedProperties = .frame,
        anchor: SharedAnchor = .center, style: SharedStyle = .resize, groupPath: String? = nil
    ) {
        self.key = key
        self.id = id
        self.path = path
        self.role = role
        self.properties = properties
        self.anchor = anchor
        self.style = style
        self.groupPath = groupPath
    }

    init(key: SharedKey, id: String, path: String, node: Int, role: SharedRole, properties: SharedProperties,
         anchor: SharedAnchor = .center, style: SharedStyle = .resize, groupPath: String? = nil) {
        self.init(key: key, id: id, path: path, role: role, properties: properties, anchor: anchor, style: style, groupPath: groupPath)
        self.node = node
    }

    public var isSource: Bool { role == .source }

    // Equality leaves out `node`: it only says where `path` is, so an element made by hand
    // with the same path is the same element.
    public static func == (lhs: SharedElement, rhs: SharedElement) -> Bool {
        lhs.key == rhs.key && lhs.id == rhs.id && lhs.path == rhs.path && lhs.role == rhs.role && lhs.properties == rhs.properties
            && lhs.anchor == rhs.anchor && lhs.style == rhs.style && lhs.groupPath == rhs.groupPath
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(id)
        hasher.combine(path)
        hasher.combine(role)
        hasher.combine(properties)
        hasher.combine(anchor)
        hasher.combine(style)
        hasher.combine(groupPath)
    }
}
