/// Step 6 of `SVGRecording`: plan ticks, labels and a playhead along the bottom.
extension Canvas {

    func timelineStrip(left: Double, width: Double, top: Double) -> String {
        let n = SVGText.number
        let inset = 12.0
        let x0 = left + inset, x1 = left + width - inset
        let axis = top + 10
        func x(_ t: Double) -> Double { x0 + (x1 - x0) * t / total }
        var out = "<g id=\"timeline\" font-family=\"sans-serif\" font-size=\"8\" fill=\"#3b404a\">\n"
        out += "<line" + SVGText.attributes([("x1", n(x0)), ("y1", n(axis)), ("x2", n(x1)), ("y2", n(axis)),
                                             ("stroke", "#7a808c"), ("stroke-width", "1")]) + "/>\n"
        // Labels go on the first of two rows where they clear the previous label of that row;
        // plans too close together for either row keep their tick and a tooltip only.
        var rowEnds = [-Double.infinity, -Double.infinity]
        for entry in entries {
            let at = x(entry.start)
            let label = "#\(entry.plan.serial) \(entry.plan.cause.rawValue)"
            out += "<line" + SVGText.attributes([("x1", n(at)), ("y1", n(axis - 4)), ("x2", n(at)), ("y2", n(axis + 4)),
                                                 ("stroke", "#3b404a"), ("stroke-width", "1")]) + ">"
                + "<title>" + SVGText.escape(label) + "</title></line>"
            // About 4.6 points per character of 8-point sans-serif, plus a gap.
            let width = Double(label.count) * 4.6 + 4
            if let row = rowEnds.indices.first(where: { rowEnds[$0] <= at + 2 }) {
                rowEnds[row] = at + 2 + width
                out += "<text" + SVGText.attributes([("x", n(at + 2)), ("y", n(axis + 13 + Double(row) * 10))]) + ">"
                    + SVGText.escape(label) + "</text>"
            }
            out += "\n"
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
