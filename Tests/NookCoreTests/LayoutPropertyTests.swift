import NookTestSupport
import Testing
@testable import NookCore

private typealias F = LayoutFixture

/// Properties every layout must have, checked over many seeded pseudo-random trees.
@Suite struct LayoutPropertyTests {
    static let seeds: [UInt64] = Array(1...300)

    /// True when the node sets its own length on that axis (a fixed, min or max frame, from
    /// props or classes): the one way a child is allowed to stick out of its parent.
    static func hasFrame(_ node: ViewNode, horizontal: Bool) -> Bool {
        let attributes = LayoutAttributes(node)
        return horizontal
            ? attributes.fixedWidth != nil || attributes.minWidth != nil || attributes.maxWidth != nil
            : attributes.fixedHeight != nil || attributes.minHeight != nil || attributes.maxHeight != nil
    }

    static func proposals(_ rng: inout SeededGenerator) -> [ProposedSize] {
        [.unspecified, ProposedSize(width: 0, height: 0),
         ProposedSize(width: Double.random(in: 0...400, using: &rng), height: nil),
         ProposedSize(width: Double.random(in: 0...400, using: &rng), height: Double.random(in: 0...300, using: &rng))]
    }

    @Test(arguments: seeds)
    func childrenStayInsideParentsWithoutFrames(seed: UInt64) {
        var trees = LayoutRandomTrees(seed: seed)
        let tree = trees.tree(depth: 4)
        let source = tree.preorderNodes
        var failures: [String] = []
        for proposal in Self.proposals(&trees.rng) {
            let result = LayoutEngine.layout(tree, rootPath: "slot", proposal: proposal)
            for node in result.nodes {
                guard let parentIndex = node.parentIndex else { continue }
                let parent = result.nodes[parentIndex]
                let e = Geometry.epsilon
                if !Self.hasFrame(source[parentIndex], horizontal: true),
                   node.rect.minX < parent.rect.minX - e || node.rect.maxX > parent.rect.maxX + e {
                    failures.append("\(node.path) x \(node.rect) outside \(parent.rect) for \(proposal)")
                }
                if !Self.hasFrame(source[parentIndex], horizontal: false),
                   node.rect.minY < parent.rect.minY - e || node.rect.maxY > parent.rect.maxY + e {
                    failures.append("\(node.path) y \(node.rect) outside \(parent.rect) for \(proposal)")
                }
            }
        }
        #expect(failures.isEmpty, "seed \(seed): \(failures.prefix(3))")
    }

    @Test(arguments: seeds)
    func sizesAreFiniteAndNeverNegative(seed: UInt64) {
        var trees = LayoutRandomTrees(seed: seed)
        trees.frameChance = 0.4
        let tree = trees.tree(depth: 4)
        for proposal in Self.proposals(&trees.rng) + [ProposedSize(width: .nan, height: .infinity)] {
            let result = LayoutEngine.layout(tree, rootPath: "slot", proposal: proposal)
            #expect(result.nodes.count == tree.nodeCount)
            let bad = result.nodes.filter {
                !($0.rect.x.isFinite && $0.rect.y.isFinite && $0.rect.width.isFinite && $0.rect.height.isFinite
                  && $0.rect.width >= 0 && $0.rect.height >= 0)
            }
            #expect(bad.isEmpty, "seed \(seed): \(bad.prefix(3))")
        }
    }

    @Test(arguments: seeds)
    func sameInputGivesTheSameRects(seed: UInt64) {
        var first = LayoutRandomTrees(seed: seed)
        var second = LayoutRandomTrees(seed: seed)
        let tree = first.tree(depth: 4)
        #expect(tree == second.tree(depth: 4))
        let proposal = ProposedSize(width: 240, height: 120)
        let a = LayoutEngine.layout(tree, rootPath: "slot", proposal: proposal)
        let b = LayoutEngine.layout(tree, rootPath: "slot", proposal: proposal)
        #expect(a == b)
    }

    @Test(arguments: seeds)
    func rootTakesTheSizeItReportsWhenMeasured(seed: UInt64) {
        var trees = LayoutRandomTrees(seed: seed)
        let tree = trees.tree(depth: 4)
        let proposal = ProposedSize(width: 200, height: 100)
        let size = LayoutEngine.size(of: tree, proposal: proposal)
        #expect(LayoutEngine.layout(tree, rootPath: "r", proposal: proposal).root?.rect.size == size)
    }
}
