import NookCore
import NookRenderModel

/// Rule 5's `resize` in a renderer: a 64-node element laid out again in each frame's rect
/// (`ElementRelayout`), over the rects of a whole flight from a 120 x 40 pill slot to a
/// 448 x 400 panel, as a 120 Hz display would draw it. Goal: well under 1 ms a frame.
func runRelayoutBenchmark() -> [Figure] {
    let tree = LayoutBenchmarkTree.make(nodes: 64)
    precondition(tree.nodeCount == 64, "benchmark tree has \(tree.nodeCount) nodes, wanted 64")
    let relayout = ElementRelayout(root: tree, rootPath: "expanded/0")
    let from = Rect(x: 600, y: 4, width: 120, height: 40)
    let to = Rect(x: 532, y: 48, width: 448, height: 400)
    let frames = 60
    let rects = (0..<frames).map { index -> Rect in
        let p = Double(index) / Double(frames - 1)
        return Rect(x: from.x + (to.x - from.x) * p, y: from.y + (to.y - from.y) * p,
                    width: from.width + (to.width - from.width) * p, height: from.height + (to.height - from.height) * p)
    }
    var samples: [Double] = []
    let runs = 200
    samples.reserveCapacity(runs * frames)
    var checksum = 0
    let clock = ContinuousClock()
    for _ in 0..<10 { for rect in rects { checksum &+= relayout.rects(in: rect, text: .estimate).count } }
    for _ in 0..<runs {
        for rect in rects {
            let start = clock.now
            let laidOut = relayout.rects(in: rect, text: .estimate)
            let elapsed = start.duration(to: clock.now)
            checksum &+= laidOut.count
            samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
        }
    }
    samples.sort()
    let p50 = samples[samples.count / 2]
    let p99 = samples[min(samples.count - 1, samples.count * 99 / 100)]
    print("relayout: a 64-node resize element laid out in each frame's rect (\(runs) flights of \(frames) frames)")
    print("  p50 \(fmt(p50)) µs, p99 \(fmt(p99)) µs per frame (checksum \(checksum % 1000)); p50 well under 1 ms: \(p50 < 1000 ? "yes" : "NO")")
    return [Figure(name: "relayout 64-node element per frame p50", value: p50, unit: "µs", goal: "well under 1 ms", ratio: nil, met: p50 < 1000)]
}
