/// What a node's class string says, sorted by who acts on it.
///
/// The broker reads the group and shared declarations (namespaces, rule 15-16), the animation
/// classes (rule 17) and the layout utilities; renderers get the variants and the
/// passthrough utilities. Problems never throw: a malformed class is left out and explained
/// in `diagnostics`, and the element draws as if it were not there.
///
/// ```swift
/// let classes = ClassList(parsing: "group/hero animate-smooth duration-400 p-2 opacity-70")
/// classes.group        // GroupDeclaration(name: "hero")
/// classes.animation    // preset .smooth, duration 0.4 s
/// classes.passthrough  // ["opacity-70"]
/// ```
public struct ClassList: Hashable, Sendable {
    /// `group` or `group/<name>`: this node owns a namespace.
    public var group: GroupDeclaration?
    /// `shared-[id]` or `shared-[id]/<name>`: this node is a group-scoped shared element.
    public var shared: SharedClass?
    /// `shared-frame|position|size` when written; nil means the default, frame.
    public var sharedProperties: SharedProperties?
    /// `shared-source|follower` when written; nil means the default, source.
    public var sharedRole: SharedRole?
    /// `animate-*`, `duration-*`, `delay-*`.
    public var animation: AnimationClasses
    /// Plain `w-*`, `h-*`, `size-*`, `p*-*`, `gap-*` utilities, in the order written.
    public var layout: [LayoutUtility]
    /// Utilities behind variants (`hover:`, `group-hover/hero:`), for renderers.
    public var variants: [VariantClass]
    /// Utilities the broker has no use for (`opacity-70`, `bg-indigo-500`), for renderers, in order.
    public var passthrough: [String]
    /// Why something written was ignored or overridden.
    public var diagnostics: [Diagnostic]

    public init() {
        animation = AnimationClasses()
        layout = []
        variants = []
        passthrough = []
        diagnostics = []
    }

    /// The matched properties in effect (rule 16).
    public var matchedProperties: SharedProperties { sharedProperties ?? .frame }
    /// False only for `shared-follower`.
    public var isSource: Bool { sharedRole != .follower }
}

/// `group` (anonymous, `name == nil`) or `group/<name>`.
public struct GroupDeclaration: Hashable, Sendable {
    public var name: String?
    public init(name: String? = nil) { self.name = name }
}

/// `shared-[id]` (nearest group) or `shared-[id]/<groupName>` (nearest ancestor so named).
public struct SharedClass: Hashable, Sendable {
    public var id: String
    public var groupName: String?
}

public enum SharedRole: String, Hashable, Sendable, CaseIterable {
    case source, follower
}

/// An `animate-<name>` preset. The built-in four come from `rules.animations.<name>` like any
/// custom one; they are cases so code can name them.
public enum AnimationPreset: Hashable, Sendable {
    case smooth, snappy, bouncy, linear
    case custom(String)

    public init(name: String) {
        switch name {
        case "smooth": self = .smooth
        case "snappy": self = .snappy
        case "bouncy": self = .bouncy
        case "linear": self = .linear
        default: self = .custom(name)
        }
    }

    public var name: String {
        switch self {
        case .smooth: "smooth"
        case .snappy: "snappy"
        case .bouncy: "bouncy"
        case .linear: "linear"
        case .custom(let name): name
        }
    }

    /// The theme token holding this preset's curve.
    public var tokenPath: String { "rules.animations." + name }
}

/// The animation classes of one node (rule 17). Times are in seconds.
public struct AnimationClasses: Hashable, Sendable {
    public var preset: AnimationPreset?
    /// `duration-<ms>`, in seconds.
    public var duration: Double?
    /// `delay-<ms>`, in seconds.
    public var delay: Double?

    public var isEmpty: Bool { preset == nil && duration == nil && delay == nil }
}

/// A utility behind one or more variants: `active:group-hover/hero:opacity-50`.
public struct VariantClass: Hashable, Sendable {
    /// Outermost first, as written: `[active, group-hover/hero]`.
    public var conditions: [VariantCondition]
    /// The utility that applies when every condition holds: `opacity-50`.
    public var utility: String
    /// The token as written, for renderers that parse variants themselves.
    public var token: String

    /// True when a condition refers to a group (and so needs resolving to a group node).
    public var needsGroup: Bool { conditions.contains { $0.isGroup } }
}

/// One variant in a chain: the element's own state (`hover`) or a group's (`group-hover/hero`).
public struct VariantCondition: Hashable, Sendable {
    /// `hover`, `focus`, `active`, `pressed`, `disabled`, or any element state a renderer knows.
    public var state: String
    /// True for `group-<state>`.
    public var isGroup: Bool = false
    /// The `/<name>` of a group variant; nil selects the nearest group.
    public var groupName: String?

    /// The states a group variant may name (rule 23).
    public static let groupStates: Set<String> = ["hover", "focus", "active", "pressed", "disabled"]

    /// The variant as written: `hover`, `group-hover`, `group-hover/hero`.
    public var spelling: String {
        guard isGroup else { return state }
        return "group-" + state + (groupName.map { "/" + $0 } ?? "")
    }
}
