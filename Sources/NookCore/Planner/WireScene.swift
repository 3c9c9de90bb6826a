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
public struct WireSceneNode: Sendable {
    /// The contract's slot name (kept as written: a newer sender's slot still draws).
    public var slot: String
    public var owner: String
    public var path: String
    /// The contract's kind (kept as written: an unknown kind draws its children only).
    public var kind: String
    public var rect: Rect
    /// The node's entry as sent, read by the contract's keys (`props[.value]`, `props[scene:
    /// .suppressed]`): the view props, `expanded_classes` and `suppressed` where present, and
    /// the scene keys themselves (`slot`, `rect`, ..., an upserted node's `index`). Kept whole so it shares the decoded plan's storage rather than being copied
    /// out of it for every node; the scene keys are read into the fields above, and equality
    /// leaves them out (`entryOnlyKeys`).
    public var props: [String: PropValue]
    public var variants: [WireVariant] = []

    /// The keys of a scene entry that are not props: read into this node's own fields, and
    /// left in `props` only because it is the entry as sent.
    public static let entryOnlyKeys: Set<String> = Set(SceneKey.allCases.filter { !SceneKey.carriedInProps.contains($0) }.map(\.name))

    /// A node's identity across scenes (contract 1.1, `scene_delta`).
    public struct Key: Hashable, Sendable {
        public var slot: String
        public var owner: String
        public var path: String
    }

    public var key: Key { Key(slot: slot, owner: owner, path: path) }

    /// Marked `suppressed` (contract 1.1, rule 10): not drawn, nor anything inside it.
    public var isSuppressed: Bool { props["suppressed"] == .bool(true) }

    /// `props` without the entry's scene keys: what the node carries beyond its own fields.
    public var viewProps: [String: PropValue] { props.filter { !Self.entryOnlyKeys.contains($0.key) } }
}

extension WireSceneNode: Hashable {
    /// Two nodes are equal when their fields, variants and `viewProps` are: a node read from
    /// the wire equals the planner's `wireScene` node it was written from.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.slot == rhs.slot && lhs.owner == rhs.owner && lhs.path == rhs.path && lhs.kind == rhs.kind && lhs.rect == rhs.rect
            && lhs.variants == rhs.variants && lhs.viewProps == rhs.viewProps
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(slot)
        hasher.combine(owner)
        hasher.combine(path)
        hasher.combine(kind)
        hasher.combine(rect)
        hasher.combine(variants)
        hasher.combine(viewProps)
    }
}

/// A resolved parent-state variant (rule 23) as the wire carries it: `classes` apply while
/// every condition holds.
public struct WireVariant: Hashable, Sendable {
    public var conditions: [ResolvedCondition]
    public var classes: String
}

extension PlannerScene {
    /// This scene as a renderer reads it back from `wireDictionary`: each node's props are its
    /// wire entry (`wireEntry(for:)`), as a renderer's are.
    public var wireScene: WireScene {
        WireScene(
            presentation: presentation, chrome: layout.chrome, capsules: layout.capsules,
            nodes: nodes.map { node in
                WireSceneNode(
                    slot: node.slot.rawValue, owner: node.owner, path: node.path, kind: node.kind.rawValue, rect: node.rect,
                    props: wireEntry(for: node), variants: node.variants.map { WireVariant(conditions: $0.conditions, classes: $0.utility) })
            })
    }
}
