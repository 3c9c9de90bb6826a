import NookCore

/// Step 4 of `SVGRecording`: shared elements moving inside the chrome clip.
extension Canvas {
    func elements() -> String {
        var out = ""
        for (index, entry) in entries.enumerated() {
            let serial = entry.plan.uint("serial")
            let scene = entry.plan.record("scene").records("nodes")
            let previousScene = index > 0 ? entries[index - 1].plan.record("scene").records("nodes") : []
            for (number, element) in entry.plan.records("elements").enumerated() {
                guard let from = element.rect("from_rect"), let to = element.rect("to_rect") else { continue }
                let destination = scene.first { $0.string("path") == element.string("to_path") }
                let source = previousScene.first { $0.string("path") == element.string("from_path") }
                let move = Move(from: from, to: to, curve: WireCurve.curve(element.record("curve")), entry: entry, frameRate: frameRate)

                var tracks = RectTracks()
                tracks.x = move.track { $0.x }
                tracks.y = move.track { $0.y }
                tracks.width = move.track { max(0, $0.width) }
                tracks.height = move.track { max(0, $0.height) }
                tracks.opacity = move.visibility
                let look = destination ?? source
                let isText = look?.string("kind") == "text"
                var group = rect(tracks, id: "element-\(serial)-\(number)", fill: isText ? "none" : SceneDrawing.fill(for: look))
                if element.bool("cross_fade") {
                    var fading = tracks
                    fading.opacity = move.fadingOut
                    group += rect(fading, id: nil, fill: SceneDrawing.fill(for: source ?? destination) == "#d9dce3" ? "#a9b0bd" : "#d9dce3")
                }
                if isText, let look { group += text(look, move) }
                var attributes: [(String, String)] = [("data-key", element.string("key")), ("data-serial", String(serial))]
                if element.string("clip") == "chrome" { attributes.append(("clip-path", "url(#chrome-clip)")) }
                out += "<g" + SVGText.attributes(attributes) + ">" + group + "</g>\n"
            }
        }
        return out
    }

    /// A text element's moving copy: its text, scaled with the frame's height (text moves as
    /// `scale` would draw it; the rect beside it carries the exact frame).
    func text(_ node: WireRecord, _ move: Move) -> String {
        let size = node.double("font_size") ?? 13
        let height = max(move.to.height, 1)
        var content = node.string("text")
        if content.isEmpty, node["timer_end"] != nil { content = "0:00" }
        let x = move.track { $0.x }
        let y = move.track { $0.y + min($0.height, size * $0.height / height) * 0.85 }
        let fontSize = move.track { max(0, size * $0.height / height) }
        let n = SVGText.number
        let body = SVGText.animate("x", x, total: total) + SVGText.animate("y", y, total: total)
            + SVGText.animate("font-size", fontSize, total: total) + SVGText.animate("opacity", move.visibility, total: total)
        return "<text" + SVGText.attributes([
            ("x", n(x.first ?? 0)), ("y", n(y.first ?? 0)), ("font-size", n(fontSize.first ?? size)), ("font-family", "sans-serif"),
            ("fill", SceneDrawing.textColor), ("opacity", "0"),
        ]) + ">" + body + SVGText.escape(content) + "</text>"
    }

    /// One element's trip: from `from` at the plan's start to `to` on its curve, cut short when
    /// the next plan starts first.
    struct Move {
        let from: WireRect
        let to: WireRect
        let curve: Curve
        let entry: RecordingTimeline.Entry
        let frameRate: Double
        /// When it lands (or is interrupted).
        var land: Double { min(entry.start + curve.totalDuration, entry.end) }

        /// Any quantity of the moving frame over the whole recording: at `from` before the
        /// plan, sampled along the curve while it moves, and at `to` once it has landed (or,
        /// when interrupted, just after it has been hidden).
        func track(_ quantity: (WireRect) -> Double) -> Track {
            var track = Track()
            track.add(0, quantity(from))
            track.sample(from: entry.start, to: land, frameRate: frameRate, progress: { curve.value(at: $0) },
                         value: { quantity(from.interpolated(to: to, $0)) }, settle: curve.totalDuration)
            track.jump(at: land + 2 * Track.jump, to: quantity(to))
            return track
        }

        /// Shown only while it travels.
        var visibility: Track {
            var track = Track()
            track.add(0, 0)
            track.jump(at: entry.start, to: 1)
            track.jump(at: land, to: 0)
            return track
        }

        /// For a cross-fade: the source's look fading out along the curve, over the second
        /// half of the move as renderers draw it (`CrossFade.outgoing`).
        var fadingOut: Track {
            var track = Track()
            track.add(0, 0)
            track.jump(at: entry.start, to: 1)
            track.sample(from: entry.start, to: land, frameRate: frameRate, progress: { curve.value(at: $0) },
                         value: { CrossFade.outgoing($0) }, settle: curve.totalDuration)
            track.jump(at: land, to: 0)
            return track
        }
    }
}
