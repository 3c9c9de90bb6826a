import NookCore
import NookRenderModel

/// Writes one `SVGRecording`: the sampled tracks as SMIL animations, then the timeline.
struct Canvas {
    let timeline: RecordingTimeline
    let tracks: FrameTracks
    var total: Double { timeline.total }
    var entries: [RecordingTimeline.Entry] { timeline.entries }

    static let textColor = "#f5f6f8"
    static let viewColor = "#4c7bd9"
    static let imageColor = "#8b93a3"

    func draw() -> String {
        let bounds = tracks.bounds
        let timelineTop = bounds.y + bounds.height
        let height = bounds.height + 44
        let n = SVGText.number

        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg" + SVGText.attributes([
            ("xmlns", "http://www.w3.org/2000/svg"), ("version", "1.1"),
            ("viewBox", "\(n(bounds.x)) \(n(bounds.y)) \(n(bounds.width)) \(n(height))"),
            ("width", n(bounds.width * 2)), ("height", n(height * 2)),
            ("data-plans", String(entries.count)), ("data-duration", n(total)),
        ]) + ">\n"
        out += "<title>nookctl record: \(entries.count) plans, \(n(total)) s</title>\n"
        out += "<defs><clipPath id=\"chrome-clip\">" + shape(tracks.chrome, id: nil, fill: nil) + "</clipPath>"
        if tracks.hasDissolve { out += "<clipPath id=\"chrome-fading-clip\">" + shape(tracks.fading, id: nil, fill: nil) + "</clipPath>" }
        out += "</defs>\n"
        out += "<rect" + SVGText.attributes([("x", n(bounds.x)), ("y", n(bounds.y)), ("width", n(bounds.width)),
                                             ("height", n(height)), ("fill", "#dfe3ea")]) + "/>\n"
        if tracks.hasDissolve { out += shape(tracks.fading, id: "chrome-fading", fill: "#000000") + "\n" }
        out += shape(tracks.chrome, id: "chrome", fill: "#000000") + "\n"
        out += "<g id=\"items\">\n"
        for (index, item) in tracks.items.enumerated() { out += self.item(item, id: "item-\(index)") + "\n" }
        out += "</g>\n"
        out += timelineStrip(left: bounds.x, width: bounds.width, top: timelineTop)
        out += "</svg>\n"
        return out
    }

    /// A chrome rect (or its clip, with no id and fill): every attribute animated.
    func shape(_ shape: FrameTracks.ShapeTracks, id: String?, fill: String?) -> String {
        var attributes: [(String, String)] = id.map { [("id", $0)] } ?? []
        let animated: [(String, Track)] = [("x", shape.x), ("y", shape.y), ("width", shape.width), ("height", shape.height), ("rx", shape.radius)]
            + (fill == nil ? [] : [("opacity", shape.opacity)])
        attributes += animated.map { ($0.0, SVGText.number($0.1.first ?? 0)) }
        if let fill { attributes.append(("fill", fill)) }
        return "<rect" + SVGText.attributes(attributes) + ">" + animated.map { SVGText.animate($0.0, $0.1, total: total) }.joined() + "</rect>"
    }

    /// One display item: a group whose opacity follows the item's, around its box and, for
    /// text, the text on its baseline.
    func item(_ item: FrameTracks.Item, id: String) -> String {
        let n = SVGText.number
        var group: [(String, String)] = [("id", id), ("data-path", item.path)]
        if let key = item.sharedKey { group.append(("data-key", key)) }
        switch item.clip {
        case .chrome: group.append(("clip-path", "url(#chrome-clip)"))
        case .fading: group.append(("clip-path", "url(#chrome-fading-clip)"))
        case .none: break
        }
        group.append(("opacity", n(item.opacity.first ?? 0)))
        let box: [(String, Track)] = [("x", item.x), ("y", item.y), ("width", item.width), ("height", item.height)]
        func element(_ name: String, _ tracks: [(String, Track)], _ extra: [(String, String)], body: String = "") -> String {
            "<\(name)" + SVGText.attributes(tracks.map { ($0.0, n($0.1.first ?? 0)) } + extra) + ">"
                + tracks.map { SVGText.animate($0.0, $0.1, total: total) }.joined() + body + "</\(name)>"
        }
        var body: String
        switch item.content {
        case .text(let text, let style):
            body = element("rect", box, [("class", "box"), ("fill", "none")])
                + element("text", [("x", item.x), ("y", item.baseline), ("font-size", item.fontSize)],
                          [("font-family", "sans-serif"), ("fill", Self.hex(style.color))], body: SVGText.escape(text))
        case .shape(let kind, let fill, let radius):
            let rounded = kind == .capsule || kind == .circle ? min(item.width.first ?? 0, item.height.first ?? 0) / 2 : radius
            body = element("rect", box, [("class", "box"), ("rx", n(rounded)), ("fill", Self.hex(fill))])
        case .image:
            body = element("rect", box, [("class", "box"), ("rx", n(min(item.width.first ?? 0, item.height.first ?? 0) / 4)), ("fill", Self.imageColor)])
        case .progress(_, _, let tint):
            body = element("rect", box, [("class", "box"), ("fill", Self.hex(tint))])
        case .custom:
            body = element("rect", box, [("class", "box"), ("rx", "4"), ("fill", Self.viewColor)])
        }
        return "<g" + SVGText.attributes(group) + ">" + SVGText.animate("opacity", item.opacity, total: total) + body + "</g>"
    }

    /// `#rrggbb` (alpha is left to the item's opacity).
    static func hex(_ colour: RGBA) -> String {
        func byte(_ value: Double) -> String {
            let clamped = Int((min(max(value.isFinite ? value : 0, 0), 1) * 255).rounded())
            let digits = String(clamped, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        return "#" + byte(colour.red) + byte(colour.green) + byte(colour.blue)
    }
}
