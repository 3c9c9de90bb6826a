import NookBus
import NookCore

/// `record --svg`: a renderer of the contract that draws a sequence of plans into ONE
/// animated SVG any browser plays (SMIL `<animate>`, looping).
///
/// It uses only what the plans say:
/// 1. A clock (`RecordingTimeline`): each plan starts when it arrived, idle gaps shortened.
/// 2. The chrome: a rect whose x, y, width, height and corner radius follow the plan's chrome
///    curve from `from_rect`/`from_radius` to `to_rect`/`to_radius`; the same tracks drive a
///    `clipPath` (`#chrome-clip`) so whatever is clipped to the chrome is clipped to its
///    shape in between. A `via_hidden` conversion hides it for `hide_dip` first.
/// 3. Slots: the nodes of each plan's `scene`, grouped by slot and owner, fade in on their
///    `appear` curve (delay included), fade out on the next plan's `disappear` curve, and
///    hand over at once when the next plan says the slot stays or updates.
/// 4. Shared elements: one rect per `elements` entry (`id="element-<serial>-<n>"`) moving from
///    `from_rect` to `to_rect` on its curve, inside the chrome clip when `clip` is `chrome`;
///    the nodes it stands for are hidden while it travels; `cross_fade` adds the source's
///    look fading out over it.
/// 5. Content transitions: `layout` `move` entries slide their node, `insert` entries fade it in.
/// 6. A timeline along the bottom: a tick and `#serial cause` label per plan, and a playhead.
///
/// Curves are sampled with NookCore's `Curve` at `frameRate` samples per second and played
/// linearly between samples, so springs overshoot and settle the same everywhere. The output
/// is deterministic: the same plans give the same bytes.
public struct SVGRecording: Sendable {
    public var plans: [RecordedPlan]
    public var frameRate: Double

    public init(plans: [RecordedPlan], frameRate: Double = 60) {
        self.plans = plans
        self.frameRate = frameRate
    }

    /// The SVG document.
    public var document: String {
        var canvas = Canvas(timeline: RecordingTimeline(plans), frameRate: frameRate)
        return canvas.draw()
    }
}

/// The drawing state of one `SVGRecording`.
struct Canvas {
    let timeline: RecordingTimeline
    let frameRate: Double
    var total: Double { timeline.total }
    var entries: [RecordingTimeline.Entry] { timeline.entries }
    /// Seconds when each node (plan index, path) is hidden because a copy of it travels.
    var hidden: [String: [(Double, Double)]] = [:]

    init(timeline: RecordingTimeline, frameRate: Double) {
        self.timeline = timeline
        self.frameRate = frameRate > 0 && frameRate.isFinite ? frameRate : 60
    }

    static let jump = Track.jump

    mutating func draw() -> String {
        let bounds = self.bounds()
        let timelineTop = bounds.y + bounds.height
        let height = bounds.height + 44
        collectHiddenNodes()
        let chrome = chromeTracks()
        let n = SVGText.number

        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg" + SVGText.attributes([
            ("xmlns", "http://www.w3.org/2000/svg"), ("version", "1.1"),
            ("viewBox", "\(n(bounds.x)) \(n(bounds.y)) \(n(bounds.width)) \(n(height))"),
            ("width", n(bounds.width * 2)), ("height", n(height * 2)),
            ("data-plans", String(entries.count)), ("data-duration", n(total)),
        ]) + ">\n"
        out += "<title>nookctl record: \(entries.count) plans, \(n(total)) s</title>\n"
        out += "<defs><clipPath id=\"chrome-clip\">" + rect(chrome, id: nil, fill: nil) + "</clipPath></defs>\n"
        out += "<rect" + SVGText.attributes([("x", n(bounds.x)), ("y", n(bounds.y)), ("width", n(bounds.width)),
                                             ("height", n(height)), ("fill", "#dfe3ea")]) + "/>\n"
        out += rect(chrome, id: "chrome", fill: "#000000") + "\n"
        out += "<g id=\"slots\">\n" + slots() + "</g>\n"
        out += "<g id=\"capsules\">\n" + capsules() + "</g>\n"
        out += "<g id=\"elements\">\n" + elements() + "</g>\n"
        out += timelineStrip(left: bounds.x, width: bounds.width, top: timelineTop)
        out += "</svg>\n"
        return out
    }

    // MARK: Geometry

    /// Everything any plan puts anywhere, padded, at least 480 points wide.
    func bounds() -> WireRect {
        var rects: [WireRect] = []
        for entry in entries {
            let chrome = entry.plan.record("chrome")
            rects += [chrome.rect("from_rect"), chrome.rect("to_rect")].compactMap { $0 }
            for key in ["elements", "layout"] {
                for item in entry.plan.records(key) { rects += [item.rect("from_rect"), item.rect("to_rect")].compactMap { $0 } }
            }
            let scene = entry.plan.record("scene")
            rects += scene.records("nodes").compactMap { $0.rect("rect") }
            rects += scene.records("capsules").compactMap { $0.rect("rect") }
        }
        rects = rects.filter { $0.components.allSatisfy(\.isFinite) && ($0.width > 0 || $0.height > 0) }
        guard var minX = rects.first?.x, var minY = rects.first?.y else { return WireRect(x: 0, y: 0, width: 480, height: 120) }
        var maxX = minX, maxY = minY
        for r in rects {
            minX = min(minX, r.x); minY = min(minY, r.y)
            maxX = max(maxX, r.x + r.width); maxY = max(maxY, r.y + r.height)
        }
        let pad = 24.0
        var box = WireRect(x: minX - pad, y: minY - pad, width: maxX - minX + 2 * pad, height: maxY - minY + 2 * pad)
        if box.width < 480 {
            box.x -= (480 - box.width) / 2
            box.width = 480
        }
        return box
    }

    // MARK: Chrome

    struct RectTracks {
        var x = Track(), y = Track(), width = Track(), height = Track(), radius = Track(), opacity = Track()
    }

    func chromeTracks() -> RectTracks {
        var tracks = RectTracks()
        var previous = WireRect.zero
        var previousRadius = 0.0
        for entry in entries {
            let chrome = entry.plan.record("chrome")
            let from = chrome.rect("from_rect") ?? previous
            let to = chrome.rect("to_rect") ?? from
            let fromRadius = chrome.double("from_radius") ?? previousRadius
            let toRadius = chrome.double("to_radius") ?? fromRadius
            let curve = WireCurve.curve(chrome.record("curve"))
            let begin = entry.start + entry.dip
            tracks.x.jump(at: entry.start, to: from.x)
            tracks.y.jump(at: entry.start, to: from.y)
            tracks.width.jump(at: entry.start, to: max(0, from.width))
            tracks.height.jump(at: entry.start, to: max(0, from.height))
            tracks.radius.jump(at: entry.start, to: max(0, fromRadius))
            let progress = { (t: Double) in curve.value(at: t) }
            let settle = curve.totalDuration
            if entry.end > begin {
                tracks.x.sample(from: begin, to: entry.end, frameRate: frameRate, progress: progress, value: { from.interpolated(to: to, $0).x }, settle: settle)
                tracks.y.sample(from: begin, to: entry.end, frameRate: frameRate, progress: progress, value: { from.interpolated(to: to, $0).y }, settle: settle)
                tracks.width.sample(from: begin, to: entry.end, frameRate: frameRate, progress: progress, value: { max(0, from.interpolated(to: to, $0).width) }, settle: settle)
                tracks.height.sample(from: begin, to: entry.end, frameRate: frameRate, progress: progress, value: { max(0, from.interpolated(to: to, $0).height) }, settle: settle)
                tracks.radius.sample(from: begin, to: entry.end, frameRate: frameRate, progress: progress, value: { max(0, fromRadius + (toRadius - fromRadius) * $0) }, settle: settle)
            }
            // Opacity: hidden at either end fades; a dip hides the chrome first.
            let fromHidden = entry.plan.string("from") == "hidden"
            let toHidden = entry.plan.string("to") == "hidden"
            if entry.dip > 0 { tracks.opacity.jump(at: entry.start, to: 0) }
            switch (fromHidden, toHidden) {
            case (true, true): tracks.opacity.jump(at: entry.start, to: 0)
            case (false, false): tracks.opacity.jump(at: begin, to: 1)
            case (true, false), (false, true):
                if entry.dip == 0 { tracks.opacity.jump(at: entry.start, to: fromHidden ? 0 : 1) }
                tracks.opacity.sample(from: begin, to: entry.end, frameRate: frameRate, progress: progress,
                                      value: { let p = min(max($0, 0), 1); return toHidden ? 1 - p : p }, settle: settle)
            }
            previous = to
            previousRadius = toRadius
        }
        return tracks
    }

    func rect(_ tracks: RectTracks, id: String?, fill: String?) -> String {
        let n = SVGText.number
        var attributes: [(String, String)] = []
        if let id { attributes.append(("id", id)) }
        attributes += [("x", n(tracks.x.first ?? 0)), ("y", n(tracks.y.first ?? 0)), ("width", n(tracks.width.first ?? 0)),
                       ("height", n(tracks.height.first ?? 0)), ("rx", n(tracks.radius.first ?? 0))]
        if let fill { attributes += [("fill", fill), ("opacity", n(tracks.opacity.first ?? 1))] }
        var body = SVGText.animate("x", tracks.x, total: total) + SVGText.animate("y", tracks.y, total: total)
            + SVGText.animate("width", tracks.width, total: total) + SVGText.animate("height", tracks.height, total: total)
            + SVGText.animate("rx", tracks.radius, total: total)
        if fill != nil { body += SVGText.animate("opacity", tracks.opacity, total: total) }
        return "<rect" + SVGText.attributes(attributes) + (body.isEmpty ? "/>" : ">" + body + "</rect>")
    }

    // MARK: Slots

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
                for node in group.nodes {
                    let path = node.string("path")
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
                    body += SceneDrawing.node(node, extra: extra)
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

    // MARK: Capsules

    func capsules() -> String {
        var out = ""
        for (index, entry) in entries.enumerated() {
            for capsule in entry.plan.record("scene").records("capsules") {
                guard let r = capsule.rect("rect") else { continue }
                var visible = Track()
                visible.add(0, 0)
                visible.jump(at: entry.start, to: 1)
                if index + 1 < entries.count { visible.jump(at: entry.end, to: 0) }
                let n = SVGText.number
                out += "<rect" + SVGText.attributes([
                    ("data-owner", capsule.string("owner")), ("x", n(r.x)), ("y", n(r.y)), ("width", n(r.width)),
                    ("height", n(r.height)), ("rx", n(capsule.double("radius") ?? r.height / 2)), ("fill", "#000000"),
                    ("opacity", n(visible.first ?? 0)),
                ]) + ">" + SVGText.animate("opacity", visible, total: total) + "</rect>\n"
            }
        }
        return out
    }

    // MARK: Elements

    func elements() -> String {
        var out = ""
        for (index, entry) in entries.enumerated() {
            let serial = entry.plan.uint("serial")
            let scene = entry.plan.record("scene").records("nodes")
            let previousScene = index > 0 ? entries[index - 1].plan.record("scene").records("nodes") : []
            for (number, element) in entry.plan.records("elements").enumerated() {
                guard let from = element.rect("from_rect"), let to = element.rect("to_rect") else { continue }
                let curve = WireCurve.curve(element.record("curve"))
                let land = min(entry.start + curve.totalDuration, entry.end)
                var tracks = RectTracks()
                var fadeOut = Track()
                let progress = { (t: Double) in curve.value(at: t) }
                tracks.x.add(0, from.x); tracks.y.add(0, from.y)
                tracks.width.add(0, from.width); tracks.height.add(0, from.height)
                tracks.x.sample(from: entry.start, to: land, frameRate: frameRate, progress: progress, value: { from.interpolated(to: to, $0).x }, settle: curve.totalDuration)
                tracks.y.sample(from: entry.start, to: land, frameRate: frameRate, progress: progress, value: { from.interpolated(to: to, $0).y }, settle: curve.totalDuration)
                tracks.width.sample(from: entry.start, to: land, frameRate: frameRate, progress: progress, value: { max(0, from.interpolated(to: to, $0).width) }, settle: curve.totalDuration)
                tracks.height.sample(from: entry.start, to: land, frameRate: frameRate, progress: progress, value: { max(0, from.interpolated(to: to, $0).height) }, settle: curve.totalDuration)
                // Interrupted before landing: once hidden, settle on the destination.
                let after = land + 2 * Track.jump
                tracks.x.jump(at: after, to: to.x); tracks.y.jump(at: after, to: to.y)
                tracks.width.jump(at: after, to: to.width); tracks.height.jump(at: after, to: to.height)
                tracks.opacity.add(0, 0)
                tracks.opacity.jump(at: entry.start, to: 1)
                tracks.opacity.jump(at: land, to: 0)
                fadeOut.add(0, 0)
                fadeOut.jump(at: entry.start, to: 1)
                fadeOut.sample(from: entry.start, to: land, frameRate: frameRate, progress: progress, value: { 1 - min(max($0, 0), 1) }, settle: curve.totalDuration)
                fadeOut.jump(at: land, to: 0)

                let destination = scene.first { $0.string("path") == element.string("to_path") }
                let source = previousScene.first { $0.string("path") == element.string("from_path") }
                var group = rect(tracks, id: "element-\(serial)-\(number)", fill: SceneDrawing.fill(for: destination ?? source))
                if element.bool("cross_fade") {
                    var look = tracks
                    look.opacity = fadeOut
                    group += rect(look, id: nil, fill: SceneDrawing.fill(for: source ?? destination) == "#d9dce3" ? "#a9b0bd" : "#d9dce3")
                }
                var attributes: [(String, String)] = [("data-key", element.string("key")), ("data-serial", String(serial))]
                if element.string("clip") == "chrome" { attributes.append(("clip-path", "url(#chrome-clip)")) }
                out += "<g" + SVGText.attributes(attributes) + ">" + group + "</g>\n"
            }
        }
        return out
    }

    // MARK: Timeline

    func timelineStrip(left: Double, width: Double, top: Double) -> String {
        let n = SVGText.number
        let inset = 12.0
        let x0 = left + inset, x1 = left + width - inset
        let axis = top + 10
        func x(_ t: Double) -> Double { x0 + (x1 - x0) * t / total }
        var out = "<g id=\"timeline\" font-family=\"sans-serif\" font-size=\"8\" fill=\"#3b404a\">\n"
        out += "<line" + SVGText.attributes([("x1", n(x0)), ("y1", n(axis)), ("x2", n(x1)), ("y2", n(axis)),
                                             ("stroke", "#7a808c"), ("stroke-width", "1")]) + "/>\n"
        for (index, entry) in entries.enumerated() {
            let at = x(entry.start)
            out += "<line" + SVGText.attributes([("x1", n(at)), ("y1", n(axis - 4)), ("x2", n(at)), ("y2", n(axis + 4)),
                                                 ("stroke", "#3b404a"), ("stroke-width", "1")]) + "/>"
            out += "<text" + SVGText.attributes([("x", n(at + 2)), ("y", n(axis + 13 + Double(index % 2) * 10))]) + ">"
                + SVGText.escape("#\(entry.plan.uint("serial")) \(entry.plan.string("cause"))") + "</text>\n"
        }
        out += "<text" + SVGText.attributes([("x", n(x1)), ("y", n(axis - 4)), ("text-anchor", "end")]) + ">\(n(total)) s</text>\n"
        out += "<line" + SVGText.attributes([("x1", n(x0)), ("y1", n(axis - 7)), ("x2", n(x0)), ("y2", n(axis + 7)),
                                             ("stroke", "#d23c3c"), ("stroke-width", "1.5")]) + ">"
        for attribute in ["x1", "x2"] {
            out += "<animate" + SVGText.attributes([("attributeName", attribute), ("dur", n(total) + "s"),
                                                    ("repeatCount", "indefinite"), ("values", "\(n(x0));\(n(x1))")]) + "/>"
        }
        out += "</line>\n</g>\n"
        return out
    }
}
