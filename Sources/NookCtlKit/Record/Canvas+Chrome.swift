/// Step 2 of `SVGRecording`: the chrome and its clip.
extension Canvas {

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
}
