import Testing
@testable import NookCore

/// Inside NookCore a node is known by its preorder index; paths are built only where they are
/// kept. A marked element's index must name the node its path names in the slot's layout, and
/// the paths layout builds on demand must be the ones the project's path format gives.
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

    @Test func eachMarkedElementsNodeIndexIsWhereItsPathIsLaidOut() {
        let layout = LayoutEngine.layout(Self.tree, rootPath: "expanded", proposal: ProposedSize(width: 400, height: nil))
        let spaces = SlotNamespaces(resolving: Self.tree, slot: "expanded", owner: Self.owner)
        #expect(spaces.elements.count >= 14 && !spaces.variants.isEmpty && !spaces.diagnostics.isEmpty)
        for element in spaces.elements {
            #expect(element.node >= 0 && layout.index(of: element.path) == element.node, "\(element.path)")
            #expect(layout.path(atIndex: element.node) == element.path)
        }
    }

    /// `nodes` and `path(atIndex:)` build the same paths as `NodePath.child` from the root, and
    /// a result rebuilt from its nodes is equal to it.
    @Test func pathsBuiltOnDemandFollowThePathFormat() {
        let layout = LayoutEngine.layout(Self.tree, rootPath: "music/song:minimal", proposal: ProposedSize(width: 400, height: nil))
        var expected: [String] = []
        func walk(_ node: ViewNode, _ path: String) {
            expected.append(path)
            for index in node.children.indices { walk(node.children[index], NodePath.child(path, index)) }
        }
        walk(Self.tree, "music/song:minimal")
        #expect(layout.nodes.map(\.path) == expected)
        #expect(layout.nodes.indices.map { layout.path(atIndex: $0) } == expected)
        for (index, path) in expected.enumerated() { #expect(layout.index(of: path) == index) }
        #expect(LayoutResult(nodes: layout.nodes) == layout)
        #expect(layout.root?.path == "music/song:minimal" && layout.count == Self.tree.nodeCount)
    }

    /// The planner reads a node's classes by its preorder index; each index gives the list
    /// the path of the laid-out node at that index gives, and nodes without classes give nil.
    @Test func classListsByPreorderIndexMatchThoseByPath() {
        let layout = LayoutEngine.layout(Self.tree, rootPath: "expanded", proposal: ProposedSize(width: 400, height: nil))
        let spaces = SlotNamespaces(resolving: Self.tree, slot: "expanded", owner: Self.owner)
        let byPath = spaces.classes
        #expect(byPath.count == Self.tree.nodeCount - 1)  // every node but the shape marked by prop
        for (index, node) in layout.nodes.enumerated() {
            #expect(spaces.classList(atNode: index) == byPath[node.path], "\(node.path)")
        }
        #expect(spaces.classList(atNode: layout.nodes.count) == nil)
        #expect(spaces.classList(atNode: -1) == nil)
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
