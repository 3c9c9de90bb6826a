import NookCore

/// Steps 3 and 5 of `SVGRecording`: slots fading, nodes hidden while their copy travels,
/// content transitions.
extension Canvas {

    /// Key of a node in one plan's scene.
    static func nodeKey(_ index: Int, _ path: String) -> String { "\(index)|\(path)" }

    mutating func collectHiddenNodes() {
        for (index, entry) in entries.enumerated() {
            for element in entry.plan.records("elements") {
                let land = min(entry.start + WireCurve.curve(element.record("curve")).totalDuration, entry.end)
                hidden[Self.nodeKey(index, element.string("to_path")), default: []].append((entry.start, land))
                if index > 0 {
                    hidden[Self.nodeKey(index - 1, element.string("from_path")), default: []].append((entry.start, total))
                }
                if element.bool("hide_source"), element.string("from_path") != element.string("to_path") {
                    hidden[Self.nodeKey(index, element.string("from_path")), default: []].append((entry.start, entry.end))
                }
            }
        }
    }

    /// The slot curve, its `delay` applied when the curve does not carry it.
    static func slotCurve(_ slot: WireRecord) -> Curve {
        let curve = WireCurve.curve(slot.record("curve"))
        if curve.delay == 0, let delay = slot.double("delay"), delay > 0, let delayed = try? curve.withDelay(delay) { return delayed }
        return curve
    }

    func slots() -> String {
        var out = ""
        for (index, entry) in entries.enumerated() {
            let nodes = entry.plan.record("scene").records("nodes")
            var groups: [(slot: String, owner: String, nodes: [WireRecord])] = []
            for node in nodes {
                let slot = node.string("slot"), owner = node.string("owner")
                if let at = groups.firstIndex(where: { $0.slot == slot && $0.owner == owner }) {
                    groups[at].nodes.append(node)
                } else {
                    groups.append((slot, owner, [node]))
                }
            }
            let layout = entry.plan.records("layout")
            for group in groups {
                let opacity = slotOpacity(index: index, slot: group.slot, owner: group.owner)
                var body = ""
                // Nodes with children in the scene: a custom view that has them is drawn as its
                // box without its name, so the name does not sit on top of its own content.
                let parents = Set(group.nodes.map { node in
                    let path = node.string("path")
                    return path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
                })
                // Rule 10 (contract 1.1): a suppressed node and its subtree are not drawn.
                let suppressed = group.nodes.filter { $0.bool("suppressed") }.map { $0.string("path") }
                for node in group.nodes {
                    let path = node.string("path")
                    if suppressed.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) { continue }
                    var extra = ""
                    if let intervals = hidden[Self.nodeKey(index, path)] {
                        var track = Track()
                        track.add(0, 1)
                        for (start, end) in intervals.sorted(by: { $0.0 < $1.0 }) {
                            track.jump(at: start, to: 0)
                            if end < total { track.jump(at: end, to: 1) }
                        }
                        extra += SVGText.animate("opacity", track, total: total)
                    }
                    if let change = layout.first(where: { $0.string("path") == path }) {
                        extra += layoutAnimation(change, entry: entry)
                    }
                    body += SceneDrawing.node(node, extra: extra, labelled: !parents.contains(path))
                }
                guard !body.isEmpty else { continue }
                let clipped = !["compact_leading", "compact_trailing", "minimal"].contains(group.slot)
                var attributes: [(String, String)] = [("data-slot", group.slot), ("data-owner", group.owner),
                                                      ("data-serial", String(entry.plan.uint("serial"))),
                                                      ("opacity", SVGText.number(opacity.first ?? 0))]
                if clipped { attributes.append(("clip-path", "url(#chrome-clip)")) }
                out += "<g" + SVGText.attributes(attributes) + ">" + SVGText.animate("opacity", opacity, total: total) + body + "</g>\n"
            }
        }
        return out
    }

    /// A slot of plan `index`: hidden before it, fading in when it appears, and either fading
    /// out on the next plan's `disappear` or handing over to the next plan's copy at once.
    func slotOpacity(index: Int, slot: String, owner: String) -> Track {
        let entry = entries[index]
        func change(in plan: WireRecord) -> WireRecord? {
            plan.records("slots").first { $0.string("slot") == slot && $0.string("owner") == owner }
        }
        var track = Track()
        track.add(0, 0)
        if let own = change(in: entry.plan), own.string("change") == "appear" {
            let curve = Self.slotCurve(own)
            track.jump(at: entry.start, to: 0)
            track.sample(from: entry.start, to: entry.end, frameRate: frameRate, progress: { curve.value(at: $0) },
                         value: { min(max($0, 0), 1) }, settle: curve.totalDuration)
        } else {
            track.jump(at: entry.start, to: 1)
        }
        guard index + 1 < entries.count else { return track }
        let next = entries[index + 1]
        if let leaving = change(in: next.plan), leaving.string("change") == "disappear" {
            let curve = Self.slotCurve(leaving)
            let from = track.last ?? 1
            track.add(next.start, from)
            track.sample(from: next.start, to: next.end, frameRate: frameRate, progress: { curve.value(at: $0) },
                         value: { from * (1 - min(max($0, 0), 1)) }, settle: curve.totalDuration)
            track.jump(at: next.end, to: 0)
        } else {
            track.jump(at: next.start, to: 0)
        }
        return track
    }

    /// A content transition: `move` slides the node from its old place, `insert` fades it in.
    func layoutAnimation(_ change: WireRecord, entry: RecordingTimeline.Entry) -> String {
        let curve = WireCurve.curve(change.record("curve"))
        var progress = Track()
        progress.add(0, 1)
        progress.jump(at: entry.start, to: 0)
        progress.sample(from: entry.start, to: entry.end, frameRate: frameRate, progress: { curve.value(at: $0) },
                        value: { $0 }, settle: curve.totalDuration)
        switch change.string("change") {
        case "move":
            guard let from = change.rect("from_rect"), let to = change.rect("to_rect"), !progress.isConstant else { return "" }
            let dx = from.x - to.x, dy = from.y - to.y
            let frames = progress.normalized(total: total)
            let n = SVGText.number
            return "<animateTransform" + SVGText.attributes([
                ("attributeName", "transform"), ("type", "translate"), ("dur", n(total) + "s"), ("repeatCount", "indefinite"),
                ("calcMode", "linear"), ("keyTimes", keyTimes(frames)),
                ("values", frames.map { n(dx * (1 - $0.value)) + "," + n(dy * (1 - $0.value)) }.joined(separator: ";")),
            ]) + "/>"
        case "insert":
            var fade = Track()
            for frame in progress.keyframes { fade.add(frame.time, min(max(frame.value, 0), 1)) }
            return SVGText.animate("opacity", fade, total: total)
        default:
            return ""
        }
    }

    func keyTimes(_ frames: [(time: Double, value: Double)]) -> String {
        var times = frames.map { SVGText.keyTime($0.time / total) }
        times[0] = "0"
        times[times.count - 1] = "1"
        return times.joined(separator: ";")
    }
}
