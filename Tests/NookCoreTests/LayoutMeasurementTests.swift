import Testing
@testable import NookCore

private typealias F = LayoutFixture

/// Pins how often layout measures nodes, so a change that re-measures subtrees per probe
/// (exponential in depth) fails here rather than in production.
@Suite struct LayoutMeasurementTests {
    /// Alternating h/v stacks, each holding a text, a spacer and the next level: every level
    /// probes its children three ways, which without the cache would cost 3^depth.
    static func deepTree(depth: Int) -> ViewNode {
        var node = F.text("leaf text that wraps")
        for level in 0..<depth {
            let children = [F.text("level \(level)"), F.spacer(), node]
            node = level.isMultiple(of: 2) ? F.hstack(children) : F.vstack(children)
        }
        return node
    }

    @Test func deepTreesAreMeasuredAFewTimesPerNodeNotExponentially() {
        var perNode: [Double] = []
        for depth in [10, 20, 40, 100, 300] {
            let tree = Self.deepTree(depth: depth)
            let (_, measurements) = LayoutEngine.layoutCountingMeasurements(
                tree, rootPath: "expanded", proposal: ProposedSize(width: 448, height: 240))
            perNode.append(Double(measurements) / Double(tree.nodeCount))
        }
        print("measurements per node at depth 10, 20, 40, 100, 300:", perNode)
        #expect(perNode.allSatisfy { $0 <= 12 }, "\(perNode)")
        // Flat (or falling) as depth grows: no hidden dependence on depth.
        #expect(perNode.last! <= perNode.first!, "\(perNode)")
    }

    @Test func wideTreesAreMeasuredAFewTimesPerNode() {
        var random = LayoutRandomTrees(seed: 7)
        let tree = F.vstack((0..<50).map { _ in random.tree(depth: 3, maxChildren: 5) })
        let (_, measurements) = LayoutEngine.layoutCountingMeasurements(
            tree, rootPath: "expanded", proposal: ProposedSize(width: 448, height: 240))
        let perNode = Double(measurements) / Double(tree.nodeCount)
        print("measurements per node, wide random tree of \(tree.nodeCount):", perNode)
        #expect(perNode <= 12)
    }
}
