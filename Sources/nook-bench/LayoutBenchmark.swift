import NookCore

/// Layout cost per tree size, to show it grows linearly with the number of nodes
/// (SPEC: 10,000 nodes under 10 ms). Run from a release build; figures are wall-clock times
/// of whole `LayoutEngine.layout` calls (flatten, measure, place, result), so every
/// allocation a caller would pay is included.
func runLayoutBenchmark() -> [Figure] {
    print("layout: SwiftUI-style propose/accept over list-like content trees")
    print("  nodes     runs     p50 (µs)     p99 (µs)   p50 per node (ns)")
    var perNode: [Int: Double] = [:]
    var p50At10k = 0.0
    for (nodes, runs) in [(64, 20_000), (1_000, 2_000), (10_000, 300)] {
        let tree = LayoutBenchmarkTree.make(nodes: nodes)
        precondition(tree.nodeCount == nodes, "benchmark tree has \(tree.nodeCount) nodes, wanted \(nodes)")
        let proposal = ProposedSize(width: 448, height: nil)
        var samples: [Double] = []
        samples.reserveCapacity(runs)
        var checksum = 0.0
        let clock = ContinuousClock()
        // Warm up caches and the allocator before measuring.
        for _ in 0..<max(3, runs / 20) {
            checksum += LayoutEngine.layout(tree, rootPath: "expanded", proposal: proposal).nodes.last?.rect.maxY ?? 0
        }
        for _ in 0..<runs {
            let start = clock.now
            let result = LayoutEngine.layout(tree, rootPath: "expanded", proposal: proposal)
            let elapsed = start.duration(to: clock.now)
            checksum += result.nodes.last?.rect.maxY ?? 0
            samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
        }
        samples.sort()
        let p50 = samples[samples.count / 2]
        let p99 = samples[min(samples.count - 1, samples.count * 99 / 100)]
        perNode[nodes] = p50 * 1000 / Double(nodes)
        if nodes == 10_000 { p50At10k = p50 }
        print(String(nodes).leftPadding(7), String(runs).leftPadding(8), fmt(p50).leftPadding(12), fmt(p99).leftPadding(12),
              fmt(perNode[nodes]!).leftPadding(19), "   (checksum \(Int(checksum) % 1000))")
    }
    let ratio = (perNode[10_000] ?? 0) / max(perNode[64] ?? 1, .leastNonzeroMagnitude)
    print("  per-node cost, 10,000 vs 64 nodes: \(fmt(ratio))x (about 1 means linear growth)")
    print("  10,000 nodes under 10 ms (p50 \(fmt(p50At10k / 1000)) ms): \(p50At10k < 10_000 ? "yes" : "NO")")
    runSceneGeometryBenchmark()
    let relayout = runRelayoutBenchmark()
    return relayout + [
        Figure(name: "layout 10,000 nodes p50", value: p50At10k / 1000, unit: "ms", goal: "< 10 ms (layout alone)", ratio: nil, met: p50At10k < 10_000),
        Figure(name: "layout per-node cost 10,000 vs 64", value: ratio, unit: "x", goal: "about 1 (linear)", ratio: nil, met: nil),
    ]
}

/// Whole scenes as the broker lays them out: 8 activities (the primary's compact views, 7
/// capsules) in the pill, and a 64-node expanded view, on a notched display.
private func runSceneGeometryBenchmark() {
    let display = DisplayInfo(width: 1512, height: 982, notchWidth: 200, notchHeight: 32, scale: 2)
    let compact = LayoutBenchmarkTree.row(0)
    var content = SceneContent(
        compactLeading: OwnedView(module: "music", activity: "song", view: compact),
        compactTrailing: OwnedView(module: "music", activity: "song", view: LayoutBenchmarkTree.text("3:42", size: 12)),
        minimal: (1..<8).map { OwnedView(module: "timer", activity: "t\($0)", view: LayoutBenchmarkTree.row($0).children[0]) },
        expanded: .activity(OwnedView(module: "music", activity: "song", view: LayoutBenchmarkTree.make(nodes: 64))))
    content.peek = OwnedView(module: "music", activity: "song", view: compact)
    print("scene geometry (8 activities; expanded view of 64 nodes)")
    print("  presentation   runs     p50 (µs)     p99 (µs)")
    let clock = ContinuousClock()
    for presentation in [Presentation.pill, .peek, .expanded] {
        let runs = 20_000
        var samples: [Double] = []
        samples.reserveCapacity(runs)
        var checksum = 0
        for _ in 0..<runs {
            let start = clock.now
            let scene = SceneGeometry.layout(display: display, tokens: GeometryTokens(), presentation: presentation, content: content)
            let elapsed = start.duration(to: clock.now)
            checksum &+= scene.slots.count
            samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
        }
        samples.sort()
        let name = presentation.rawValue + String(repeating: " ", count: max(0, 12 - presentation.rawValue.count))
        print("  " + name, String(runs).leftPadding(7), fmt(samples[runs / 2]).leftPadding(12), fmt(samples[runs * 99 / 100]).leftPadding(12),
              "   (checksum \(checksum % 1000))")
    }
}

/// Content shaped like a long expanded view: sections of rows, each row an icon, a title
/// and subtitle, a spacer, a timer and a progress bar.
enum LayoutBenchmarkTree {
    static func make(nodes target: Int) -> ViewNode {
        var remaining = target - 1
        var sections: [ViewNode] = []
        var rowNumber = 0
        while remaining > 0 {
            remaining -= 1
            var rows: [ViewNode] = []
            while remaining >= row(0).nodeCount, rows.count < 8 {
                rows.append(row(rowNumber))
                rowNumber += 1
                remaining -= rows.last!.nodeCount
            }
            if rows.count < 8 {
                // Top up with single texts so the tree has exactly `target` nodes.
                while remaining > 0 { rows.append(text("extra \(remaining)", size: 11)); remaining -= 1 }
            }
            var section = ViewNode(kind: .vstack, children: rows)
            section.props.alignment = .leading
            section.props.classes = "p-2 gap-1"
            sections.append(section)
        }
        var root = ViewNode(kind: .vstack, children: sections)
        root.props.spacing = 12
        return root
    }

    static func row(_ number: Int) -> ViewNode {
        var icon = ViewNode(kind: .image)
        icon.props.symbol = "music.note"
        icon.props.classes = "size-6"
        var titles = ViewNode(kind: .vstack, children: [
            text("Track number \(number) with a longer title", size: 13, weight: "semibold"),
            text("Artist \(number % 17)", size: 11),
        ])
        titles.props.alignment = .leading
        var timer = text("", size: 11)
        timer.props.text = nil
        timer.props.timerEnd = 1_800_000_000_000_000
        var progress = ViewNode(kind: .progress)
        progress.props.value = 0.4
        progress.props.maxWidth = 60
        var row = ViewNode(kind: .hstack, children: [icon, titles, ViewNode(kind: .spacer), timer, progress])
        row.props.padding = EdgeInsets(top: 4, leading: 8, bottom: 4, trailing: 8)
        return row
    }

    static func text(_ string: String, size: Double, weight: String? = nil) -> ViewNode {
        var node = ViewNode(kind: .text)
        node.props.text = string
        node.props.fontSize = size
        node.props.fontWeight = weight
        return node
    }
}
