import Testing
@testable import NookCore

/// `NodePath`: building child paths and finding a node's parent from its path alone.
@Suite struct NodePathTests {
    @Test func childPathsAppendTheirPosition() {
        #expect(NodePath.child("expanded", 0) == "expanded/0")
        #expect(NodePath.child("expanded/3", 255) == "expanded/3/255")
        // Past the ready-made suffixes the position is formatted.
        #expect(NodePath.child("expanded", 256) == "expanded/256")
        #expect(NodePath.child("timer/tea:minimal", 12_345) == "timer/tea:minimal/12345")
    }

    /// A repeating slot's root holds its owner's `/`; it is a root all the same.
    @Test func repeatingSlotRootsHaveNoParent() {
        #expect(NodePath.parent(of: "timer/tea:minimal") == nil)
        #expect(NodePath.parent(of: "music:widget") == nil)
        #expect(NodePath.parent(of: "7/8:minimal") == nil)
        #expect(NodePath.parent(of: "expanded") == nil)
        #expect(NodePath.parent(of: "timer/tea:minimal/0") == "timer/tea:minimal")
        #expect(NodePath.parent(of: "expanded/0/12") == "expanded/0")
        #expect(NodePath.parent(of: "expanded/") == nil)
    }

    /// Every node of real laid-out scenes, capsules and widgets included: the parent read from
    /// the path is the one layout recorded.
    @Test func parentFromPathAgreesWithLayout() {
        var random = LayoutRandomTrees(seed: 21)
        let content = SceneContent(
            compactLeading: OwnedView(module: "m", activity: "a", view: random.tree(depth: 2)),
            compactTrailing: OwnedView(module: "m", activity: "a", view: random.tree(depth: 2)),
            minimal: (0..<3).map { OwnedView(module: "m\($0)", activity: "b\($0)", view: random.tree(depth: 2)) },
            expanded: .board((0..<3).map { OwnedView(module: "w\($0)", view: random.tree(depth: 2)) }))
        var checked = 0
        var sawSlashedRoot = false
        var problems: [String] = []
        for presentation in [Presentation.pill, .expanded] {
            let scene = SceneGeometry.layout(
                display: LayoutSceneTests.laptop, tokens: GeometryTokens(), presentation: presentation, content: content)
            for slot in scene.slots {
                if slot.rootPath.contains("/") { sawSlashedRoot = true }
                let nodes = slot.layout.nodes
                for node in nodes {
                    let expected = node.parentIndex.map { nodes[$0].path }
                    if NodePath.parent(of: node.path) != expected { problems.append("\(node.path): expected \(expected ?? "nil")") }
                    checked += 1
                }
            }
        }
        #expect(problems.isEmpty, "\(problems)")
        #expect(sawSlashedRoot, "a capsule's root holds its owner's /")
        #expect(checked > 20)
    }

    /// Child paths are written as bytes (`NodePath.appendChild`); they must read as the format
    /// says for any parent, ASCII or not, short or long, and any position.
    @Test func childPathsAreTheParentSlashTheDecimalPosition() {
        let parents = ["expanded", "música/canción:minimal", "a", "", "module12345/activity12345:minimal/3/14"]
        for parent in parents {
            for position in [0, 1, 9, 10, 99, 100, 255, 256, 1_234, 99_999, 123_456_789] {
                let path = NodePath.child(parent, position)
                #expect(path == parent + "/" + String(position))
                #expect(path.utf8.elementsEqual((parent + "/" + String(position)).utf8))
            }
            #expect(NodePath.descendant(of: parent, steps: [3, 0, 12]) == parent + "/3/0/12")
            #expect(NodePath.descendant(of: parent, steps: [Int]()) == parent)
        }
        #expect(NodePath.child("x", -1) == "x/-1")
    }
}
