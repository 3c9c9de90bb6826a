import NookCore

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
        if hasDissolves { out += rect(fadingChromeTracks(), id: "chrome-fading", fill: "#000000") + "\n" }
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
}
