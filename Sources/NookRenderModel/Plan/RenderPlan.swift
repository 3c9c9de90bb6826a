import NookCore

/// A received plan as a renderer plays it: NookCore's own plan read from the wire
/// (`ReceivedPlan`), its scene indexed for drawing (CONTRACT, "The plan `a{sv}`"; additions
/// in docs/planner.md). An empty `fontFamily` means the broker did not say, when the
/// renderer's own `font` applies.
typealias RenderPlan = Plan<RenderScene>

extension SlotChange {
    var identity: SlotKey { SlotKey(slot: slot.rawValue, owner: owner) }
}

/// A slot by name and owner: what stays the same while a slot stays on screen.
struct SlotKey: Hashable, Sendable {
    var slot: String
    var owner: String
}

/// The plan's `scene` as the wire carried it, indexed for drawing.
struct RenderScene: Hashable, Sendable {
    /// What the plan said, kept so the next plan's `scene_delta` can edit it.
    var wire: WireScene
    var chrome: ChromeShape?
    var capsules: [CapsuleShape]
    /// The wire scene's nodes, in the plan's order: slot order, then preorder (parents before
    /// children).
    var nodes: [WireSceneNode] { _read { yield wire.nodes } }
    /// Each node's look at rest, at its position in `nodes`.
    var looks: [NodeLook]
    /// `nodes` index by path.
    var index: [String: Int]
    /// Paths of nodes marked `suppressed` (contract 1.1, rule 10): never drawn in place, nor
    /// anything inside them.
    var suppressed: Set<String>

    /// - Parameter warnings: gains a line per node kind and prop this renderer does not know.
    init(_ wire: WireScene, warnings: inout [String]) {
        self.wire = wire
        chrome = wire.chrome.map { ChromeShape(rect: $0.rect, radius: $0.cornerRadius) }
        capsules = wire.capsules.map { CapsuleShape(owner: $0.owner, rect: $0.shape.rect, radius: $0.shape.cornerRadius) }
        var looks: [NodeLook] = []
        looks.reserveCapacity(wire.nodes.count)
        var index: [String: Int] = [:]
        var suppressed: Set<String> = []
        for (position, node) in wire.nodes.enumerated() {
            if !Self.knownKinds.contains(node.kind) {
                warnings.append("\(node.path): unknown node kind \"\(node.kind)\", its children drawn without it")
            }
            for key in node.props.keys where !Self.knownProps.contains(key) { warnings.append("\(node.path): unknown prop \"\(key)\" ignored") }
            looks.append(NodeLook(node, parent: NodePath.parent(of: node.path).flatMap { index[$0] }))
            if index[node.path] == nil { index[node.path] = position }
            if node.isSuppressed { suppressed.insert(node.path) }
        }
        self.looks = looks
        self.index = index
        self.suppressed = suppressed
    }

    static let empty: RenderScene = {
        var none: [String] = []
        return RenderScene(.empty, warnings: &none)
    }()

    func node(at path: String) -> WireSceneNode? { index[path].map { nodes[$0] } }

    /// The keys a scene node's entry may carry (data/contract.json): its props and the scene keys.
    static let knownProps = ContractKeys.sceneNodePropKeys.union(WireSceneNode.entryOnlyKeys)
    static let knownKinds: Set<String> = Set(NodeKind.allCases.map(\.rawValue))
}

/// A capsule beside the pill (`scene.capsules`).
struct CapsuleShape: Hashable, Sendable {
    var owner: String
    var rect: Rect
    var radius: Double
}

/// What a renderer reads once from a scene node's classes and props when the plan arrives,
/// since every frame reuses it: not a node of its own (the node is the `WireSceneNode` at the
/// same position of `RenderScene.nodes`), only its look at rest and its parent.
struct NodeLook: Hashable, Sendable {
    /// The drawing utilities of `classes` at rest (a class naming a theme rule arrives
    /// expanded, `expanded_classes`: renderers never see `rules.named`).
    var baseStyle: ClassStyle
    /// The `opacity` prop, within 0...1.
    var opacity: Double
    /// The parent's position in `RenderScene.nodes`; nil for a slot's root.
    var parent: Int?

    init(_ node: WireSceneNode, parent: Int?) {
        var style = ClassStyle()
        if case .string(let classes)? = node.props[scene: .expandedClasses] ?? node.props[.classes] { style.apply(classes) }
        baseStyle = style
        opacity = min(max(NodeContent.number(node.props[.opacity]) ?? 1, 0), 1)
        self.parent = parent
    }
}

extension WireSceneNode {
    var slotKey: SlotKey { SlotKey(slot: slot, owner: owner) }
}
