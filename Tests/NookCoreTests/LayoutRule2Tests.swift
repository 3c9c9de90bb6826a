import Testing
@testable import NookCore

private typealias F = LayoutFixture

/// SPEC rule 2: at rest a marked element draws exactly as an unmarked one.
@Suite struct LayoutRule2Tests {
    @Test func rule2_markingChangesNoLayout() {
        var trees: [ViewNode] = [
            // The seed's compact cover and its home counterpart.
            F.hstack([F.box(20, 20) { $0.name = "CoverArt" }, F.text("Song title")]),
            F.hstack([F.box(156, 156) { $0.name = "CoverArt" }, F.vstack([F.text("Song"), F.text("Artist")], alignment: .leading)]),
            // The class DSL's hero card.
            F.vstack([F.zstack([F.shape().changingProps { $0.classes = "w-20 h-20" }]), F.text("Toggle")]) { $0.classes = "animate-smooth duration-400" },
        ]
        var random = LayoutRandomTrees(seed: 0xC0FFEE)
        for _ in 0..<100 { trees.append(random.tree(depth: 4)) }

        var differences: [String] = []
        for (number, tree) in trees.enumerated() {
            for proposal in [ProposedSize.unspecified, ProposedSize(width: 120, height: 22), ProposedSize(width: 448, height: nil)] {
                let plain = LayoutEngine.layout(tree, rootPath: "expanded", proposal: proposal)
                let marked = LayoutEngine.layout(tree.markedEverywhere, rootPath: "expanded", proposal: proposal)
                for (a, b) in zip(plain.nodes, marked.nodes) where a != b {
                    differences.append("tree \(number) \(a.path): \(a.rect) vs \(b.rect)")
                }
                if plain.nodes.count != marked.nodes.count { differences.append("tree \(number): node count") }
            }
        }
        #expect(differences.isEmpty, "\(differences.prefix(5))")
    }
}
