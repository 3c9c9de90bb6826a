import Testing
@testable import NookCore

/// A prepared slot resolves its namespaces with the node paths its layout already built.
/// That must give exactly what resolving from the tree alone gives, and a layout of another
/// tree must never lend its paths.
@Suite struct NamespaceLayoutPathTests {
    static func node(_ kind: NodeKind, _ classes: String? = nil, shared: SharedMark? = nil, _ children: [ViewNode] = []) -> ViewNode {
        var props = NodeProps()
        props.classes = classes
        props.shared = shared
        return ViewNode(kind: kind, props: props, children: children)
    }

    static let tree = node(.vstack, "group/outer p-2", [
        node(.hstack, "group", [
            node(.image, "shared-[icon] size-5"),
            node(.text, "group-hover:opacity-50 group-focus/outer:underline"),
            node(.shape, shared: SharedMark(id: "cover")),
        ]),
        node(.vstack, "shared-[cover]/outer shared-follower", (0..<12).map { node(.text, "shared-[t\($0)] w-\($0)") }),
        node(.shape, "shared-[lost]/nowhere"),
    ])

    static let owner = SlotOwner(module: "music", activity: "song")

    @Test func layoutPathsGiveTheSameNamespaces() {
        let layout = LayoutEngine.layout(Self.tree, rootPath: "expanded", proposal: ProposedSize(width: 400, height: nil))
        let plain = SlotNamespaces(resolving: Self.tree, slot: "expanded", owner: Self.owner)
        let reused = SlotNamespaces(resolving: Self.tree, slot: "expanded", owner: Self.owner, namedRules: [:], laidOut: layout.nodes)
        #expect(reused == plain)
        #expect(!plain.elements.isEmpty && !plain.variants.isEmpty && !plain.diagnostics.isEmpty)
    }

    /// The planner reads a node's classes by its preorder index; each index gives the list
    /// the path of the laid-out node at that index gives, and nodes without classes give nil.
    @Test func classListsByPreorderIndexMatchThoseByPath() {
        let layout = LayoutEngine.layout(Self.tree, rootPath: "expanded", proposal: ProposedSize(width: 400, height: nil))
        let spaces = SlotNamespaces(resolving: Self.tree, slot: "expanded", owner: Self.owner, namedRules: [:], laidOut: layout.nodes)
        let byPath = spaces.classes
        #expect(byPath.count == Self.tree.nodeCount - 1)  // every node but the shape marked by prop
        for (index, node) in layout.nodes.enumerated() {
            #expect(spaces.classList(atNode: index) == byPath[node.path], "\(node.path)")
        }
        #expect(spaces.classList(atNode: layout.nodes.count) == nil)
        #expect(spaces.classList(atNode: -1) == nil)
    }

    @Test func aLayoutOfAnotherTreeOrRootIsNotUsed() {
        let plain = SlotNamespaces(resolving: Self.tree, slot: "expanded", owner: Self.owner)
        // Same node count, another shape: the 12 texts moved under the first stack.
        var reshaped = Self.tree
        let moved = reshaped.children[1].children
        reshaped.children[1].children = []
        reshaped.children[0].children += moved
        #expect(reshaped.nodeCount == Self.tree.nodeCount)
        let others = [
            LayoutEngine.layout(reshaped, rootPath: "expanded", proposal: ProposedSize(width: 400, height: nil)),
            LayoutEngine.layout(Self.tree, rootPath: "home", proposal: ProposedSize(width: 400, height: nil)),
            LayoutEngine.layout(Self.tree.children[1], rootPath: "expanded", proposal: ProposedSize(width: 400, height: nil)),
        ]
        for other in others {
            let resolved = SlotNamespaces(resolving: Self.tree, slot: "expanded", owner: Self.owner, namedRules: [:], laidOut: other.nodes)
            #expect(resolved == plain)
        }
    }

    @Test func preparedSlotsMatchResolvingFromTheTree() {
        let settings = PlannerSettings(display: DisplayInfo(width: 1512, height: 982, notchWidth: 200, notchHeight: 32, scale: 2))
        var content = SceneContent(
            compactLeading: OwnedView(owner: "music/song", view: Self.tree.children[0]),
            minimal: [OwnedView(owner: "timer/t", view: Self.tree.children[2])])
        content.expanded = .activity(OwnedView(owner: "music/song", view: Self.tree))
        for presentation in [Presentation.pill, .expanded] {
            let scene = PlannerScene(presentation: presentation, content: content, settings: settings)
            for slot in scene.slots {
                #expect(slot.namespaces == SlotNamespaces(resolving: slot.view, slot: slot.rootPath, owner: slot.owner), "\(slot.rootPath)")
            }
        }
    }
}
