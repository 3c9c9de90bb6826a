/// The capsules beside the pill, shown while their plan is current.
extension Canvas {

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
}
