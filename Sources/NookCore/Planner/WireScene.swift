/// A plan read back from the wire: every field of the planner's `TransitionPlan`, with the
/// destination scene as the wire carries it.
public typealias ReceivedPlan = Plan<WireScene>

/// A plan's `scene` as the wire carries it (or its `scene_delta` applied to a held one): the
/// destination's presentation, chrome, capsules and laid-out nodes, each node with its props
/// as sent. What `PlannerScene.wireDictionary` writes, read back.
public struct WireScene: Hashable, Sendable {
    public var presentation: Presentation
    /// Absent from a scene that does not say (the wire form always does).
    public var chrome: ChromeShape?
    public var capsules: [CapsuleChrome] = []
    /// Slot order, then preorder (parents before children).
    public var nodes: [WireSceneNode] = []

    public static let empty = WireScene(presentation: .hidden, chrome: nil)
}

/// One node of a wire scene: where it is and what it shows. Its own type, not a `SceneNode`,
/// because a renderer must draw what a newer broker sends and skip what it does not know: the
/// kind, slot and props stay as sent, where `SceneNode`'s typed fields would refuse them.
/// Renderers draw these directly (nook-renderer keeps a `NodeLook` beside each).
public struct WireSceneNode: Hashable, Sendable {
    /// The contract's slot name (kept as written: a newer sender's slot still draws).
    public var slot: String
    public var owner: String
    public var path: String
    /// The contract's kind (kept as written: an unknown kind draws its children only).
    public var kind: String
    public var rect: Rect
    /// Everything of the entry but `slot`, `owner`, `path`, `kind`, `rect` and `variants`:
    /// the view props as sent, plus `expanded_classes` and `suppressed` where present.
    public var props: [String: PropValue]
    public var variants: [WireVariant] = []

    /// The keys of a scene entry that are not props.
    public static let sceneKeys: Set<String> = ["slot", "owner", "path", "kind", "rect", "variants"]

    /// A node's identity across scenes (contract 1.1, `scene_delta`).
    public struct Key: Hashable, Sendable {
        public var slot: String
        public var owner: String
        public var path: String
    }

    public var key: Key { Key(slot: slot, owner: owner, path: path) }

    /// Marked `suppressed` (contract 1.1, rule 10): not drawn, nor anything inside it.
    public var isSuppressed: Bool { props["suppressed"] == .bool(true) }
}

/// A resolved parent-state variant (rule 23) as the wire carries it: `classes` apply while
/// every condition holds.
public struct WireVariant: Hashable, Sendable {
    public var conditions: [ResolvedCondition]
    public var classes: String
}

extension PlannerScene {
    /// This scene as a renderer reads it back from `wireDictionary`.
    public var wireScene: WireScene {
        WireScene(
            presentation: presentation, chrome: layout.chrome, capsules: layout.capsules,
            nodes: nodes.map { node in
                var props = node.props.rawProps
                if let expanded = node.expandedClasses { props["expanded_classes"] = .string(expanded) }
                if suppressed.contains(node.path) { props["suppressed"] = .bool(true) }
                return WireSceneNode(
                    slot: node.slot.rawValue, owner: node.owner, path: node.path, kind: node.kind.rawValue, rect: node.rect,
                    props: props, variants: node.variants.map { WireVariant(conditions: $0.conditions, classes: $0.utility) })
            })
    }
}
