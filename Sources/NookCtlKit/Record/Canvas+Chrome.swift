import NookCore

/// Step 2 of `SVGRecording`: the chrome and its clip.
extension Canvas {
    /// True when some plan dissolves its chrome (`chrome.cross_fade`, Reduce Motion): the
    /// document then carries a second chrome rect for the shape fading out.
    var hasDissolves: Bool { entries.contains { $0.plan.record("chrome").bool("cross_fade") } }

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
            if chrome.bool("cross_fade") {
                let dissolve = Dissolve(entry: entry, from: from, fromRadius: fromRadius, to: to, toRadius: toRadius, curve: curve)
                dissolve.drawDestination(on: &tracks, frameRate: frameRate)
                previous = to
                previousRadius = toRadius
                continue
            }
            // After a hide dip the chrome grows from its hidden point (the top centre), as the
            // renderer draws it. The curve's delay already holds the dip, so every track is
            // sampled from the plan's start.
            let begin = entry.start + entry.dip
            let originRadius = entry.dip > 0 ? 0 : fromRadius
            let origin = entry.dip > 0 ? from.hiddenPoint : from
            tracks.x.jump(at: entry.start, to: origin.x)
            tracks.y.jump(at: entry.start, to: origin.y)
            tracks.width.jump(at: entry.start, to: max(0, origin.width))
            tracks.height.jump(at: entry.start, to: max(0, origin.height))
            tracks.radius.jump(at: entry.start, to: max(0, originRadius))
            let progress = { (t: Double) in curve.value(at: t) }
            let settle = curve.totalDuration
            if entry.end > entry.start {
                tracks.x.sample(from: entry.start, to: entry.end, frameRate: frameRate, progress: progress, value: { origin.interpolated(to: to, $0).x }, settle: settle)
                tracks.y.sample(from: entry.start, to: entry.end, frameRate: frameRate, progress: progress, value: { origin.interpolated(to: to, $0).y }, settle: settle)
                tracks.width.sample(from: entry.start, to: entry.end, frameRate: frameRate, progress: progress, value: { max(0, origin.interpolated(to: to, $0).width) }, settle: settle)
                tracks.height.sample(from: entry.start, to: entry.end, frameRate: frameRate, progress: progress, value: { max(0, origin.interpolated(to: to, $0).height) }, settle: settle)
                tracks.radius.sample(from: entry.start, to: entry.end, frameRate: frameRate, progress: progress, value: { max(0, originRadius + (toRadius - originRadius) * $0) }, settle: settle)
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
                tracks.opacity.sample(from: entry.start, to: entry.end, frameRate: frameRate, progress: progress,
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

/// A chrome that dissolves (`chrome.cross_fade`, rule 18) instead of morphing: the `#chrome`
/// rect (and the clip) jumps to the destination shape when the plan starts, and
/// `#chrome-fading` to the source shape; neither ever takes a shape in between. Their
/// opacities follow the renderer's rule: the larger shape carries the fade (the destination
/// in at `p`, the source out at `1 - p`), the smaller one stays opaque until the fade ends,
/// so nothing is half-transparent where the two overlap. A `via_hidden` plan dissolves from
/// nothing (the chrome drops to hidden at once).
struct Dissolve {
    let entry: RecordingTimeline.Entry
    let from: WireRect
    let fromRadius: Double
    let to: WireRect
    let toRadius: Double
    let curve: Curve

    init(entry: RecordingTimeline.Entry, from: WireRect, fromRadius: Double, to: WireRect, toRadius: Double, curve: Curve) {
        self.entry = entry
        self.from = entry.dip > 0 ? from.hiddenPoint : from
        self.fromRadius = entry.dip > 0 ? 0 : fromRadius
        self.to = to
        self.toRadius = toRadius
        self.curve = curve
    }

    static func area(_ rect: WireRect) -> Double { max(0, rect.width) * max(0, rect.height) }
    var destinationIsSmaller: Bool { Self.area(to) <= Self.area(from) }
    /// Progress of the fade, delay included, from the plan's start.
    func fraction(_ t: Double) -> Double { min(max(curve.value(at: t), 0), 1) }

    func place(_ tracks: inout Canvas.RectTracks, _ rect: WireRect, _ radius: Double) {
        tracks.x.jump(at: entry.start, to: rect.x)
        tracks.y.jump(at: entry.start, to: rect.y)
        tracks.width.jump(at: entry.start, to: max(0, rect.width))
        tracks.height.jump(at: entry.start, to: max(0, rect.height))
        tracks.radius.jump(at: entry.start, to: max(0, radius))
    }

    func drawDestination(on tracks: inout Canvas.RectTracks, frameRate: Double) {
        place(&tracks, to, toRadius)
        if destinationIsSmaller {
            tracks.opacity.jump(at: entry.start, to: 1)
        } else {
            tracks.opacity.jump(at: entry.start, to: 0)
            tracks.opacity.sample(from: entry.start, to: entry.end, frameRate: frameRate, progress: fraction, value: { $0 },
                                  settle: curve.totalDuration)
        }
    }

    func drawSource(on tracks: inout Canvas.RectTracks, frameRate: Double) {
        place(&tracks, from, fromRadius)
        tracks.opacity.jump(at: entry.start, to: 1)
        if destinationIsSmaller {
            tracks.opacity.sample(from: entry.start, to: entry.end, frameRate: frameRate, progress: fraction, value: { 1 - $0 },
                                  settle: curve.totalDuration)
        } else {
            tracks.opacity.jump(at: min(entry.start + curve.totalDuration, entry.end), to: 0)
        }
    }
}

extension Canvas {
    /// The `#chrome-fading` rect's tracks: the source shape of each dissolve, invisible
    /// otherwise.
    func fadingChromeTracks() -> RectTracks {
        var tracks = RectTracks()
        var previous = WireRect.zero
        var previousRadius = 0.0
        for entry in entries {
            let chrome = entry.plan.record("chrome")
            let from = chrome.rect("from_rect") ?? previous
            let to = chrome.rect("to_rect") ?? from
            let fromRadius = chrome.double("from_radius") ?? previousRadius
            let toRadius = chrome.double("to_radius") ?? fromRadius
            if chrome.bool("cross_fade") {
                Dissolve(entry: entry, from: from, fromRadius: fromRadius, to: to, toRadius: toRadius,
                         curve: WireCurve.curve(chrome.record("curve")))
                    .drawSource(on: &tracks, frameRate: frameRate)
            } else {
                tracks.opacity.jump(at: entry.start, to: 0)
            }
            previous = to
            previousRadius = toRadius
        }
        return tracks
    }
}

extension WireRect {
    /// Where a chrome hidden by a dip sits (rule 13): no size, at the top centre of `self`.
    var hiddenPoint: WireRect { WireRect(x: x + width / 2, y: y, width: 0, height: 0) }
}
