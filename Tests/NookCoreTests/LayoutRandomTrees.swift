import NookTestSupport
@testable import NookCore

/// Random but valid view trees for property tests and the benchmark's shape of content.
struct LayoutRandomTrees {
    var rng: SeededGenerator
    /// Probability that a node gets each optional frame prop.
    var frameChance = 0.2

    init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

    private mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
    private mutating func length(_ range: ClosedRange<Double>) -> Double {
        (Double.random(in: range, using: &rng) * 2).rounded() / 2
    }

    mutating func tree(depth: Int, maxChildren: Int = 4) -> ViewNode {
        let containers: [NodeKind] = [.hstack, .vstack, .zstack, .view]
        let leaves: [NodeKind] = [.text, .image, .shape, .progress, .spacer, .view]
        let isContainer = depth > 0 && chance(0.6)
        let kind = isContainer ? containers.randomElement(using: &rng)! : leaves.randomElement(using: &rng)!
        var props = NodeProps()
        var children: [ViewNode] = []
        if isContainer {
            let count = Int.random(in: 0...maxChildren, using: &rng)
            for _ in 0..<count { children.append(tree(depth: depth - 1, maxChildren: maxChildren)) }
            if chance(0.3) { props.spacing = length(0...12) }
            props.alignment = chance(0.5) ? Alignment.allCases.randomElement(using: &rng) : nil
        }
        switch kind {
        case .text:
            let words = ["Now", "playing", "00:42", "Tea", "timer", "a", "longer-word-here", "日本", "🎵"]
            props.text = (0..<Int.random(in: 0...5, using: &rng)).map { _ in words.randomElement(using: &rng)! }.joined(separator: " ")
            props.fontSize = length(8...24)
            props.fontWeight = ["regular", "bold", "light", nil].randomElement(using: &rng)!
            props.monospacedDigits = chance(0.3)
            if chance(0.1) { props.text = nil; props.timerEnd = 1_800_000_000_000_000 }
        case .progress:
            props.value = 0.3
            props.progressStyle = chance(0.5) ? .linear : .circular
        case .spacer:
            if chance(0.5) { props.minLength = length(0...20) }
        case .shape:
            props.shape = .roundedRect
        default:
            break
        }
        if chance(frameChance) { props.width = length(0...120) }
        if chance(frameChance) { props.height = length(0...60) }
        if chance(frameChance / 2) { props.minWidth = length(0...80) }
        if chance(frameChance / 2) { props.maxWidth = length(0...200) }
        if chance(frameChance / 2) { props.minHeight = length(0...40) }
        if chance(frameChance / 2) { props.maxHeight = length(0...100) }
        if chance(0.2) {
            props.padding = EdgeInsets(top: length(0...8), leading: length(0...8), bottom: length(0...8), trailing: length(0...8))
        }
        if chance(0.2) {
            let utilities = ["w-10", "h-6", "size-5", "p-1", "px-2", "pt-1", "gap-2", "hover:w-40", "rounded-lg", "w-[37]"]
            props.classes = (0..<Int.random(in: 1...3, using: &rng)).map { _ in utilities.randomElement(using: &rng)! }.joined(separator: " ")
        }
        return ViewNode(kind: kind, props: props, children: children)
    }
}

extension ViewNode {
    /// The subtree's nodes in preorder (the order `LayoutResult.nodes` uses).
    var preorderNodes: [ViewNode] {
        var nodes: [ViewNode] = [self]
        for child in children { nodes.append(contentsOf: child.preorderNodes) }
        return nodes
    }

    /// The same tree with every node marked as a shared element in every way the contract
    /// allows: a `shared` prop, `shared-*` and `group` classes, and a `group` prop.
    var markedEverywhere: ViewNode {
        var copy = self
        copy.props.shared = SharedMark(id: "cover", style: .scale, namespace: "", properties: .frame, anchor: .center, isSource: true)
        copy.props.classes = ((copy.props.classes.map { $0 + " " }) ?? "") + "shared-[cover] group/hero shared-[cover]/hero shared-size"
        copy.props.group = "hero"
        copy.children = children.map(\.markedEverywhere)
        return copy
    }
}
