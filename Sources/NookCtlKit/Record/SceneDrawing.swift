/// Simple pictures of scene nodes at rest, from the plan's `scene.nodes` only: text as text,
/// shapes in their colour, images and custom views as labelled boxes, progress as a bar.
/// Stacks and spacers draw nothing (their children do).
enum SceneDrawing {
    static let textColor = "#f5f6f8"
    static let viewColor = "#4c7bd9"
    static let imageColor = "#8b93a3"

    /// The SVG for one node, or "" when it draws nothing. `extra` goes inside the element(s)'
    /// wrapper (an opacity `<animate>` for a node hidden while its copy travels); `labelled`
    /// false leaves a custom view's name off (its children draw its content).
    static func node(_ node: WireRecord, extra: String = "", labelled: Bool = true) -> String {
        guard let rect = node.rect("rect"), rect.width > 0 || rect.height > 0 else { return "" }
        let body = shapes(node, rect, labelled: labelled)
        guard !body.isEmpty else { return "" }
        let path = node.string("path")
        return "<g" + SVGText.attributes([("data-path", path)]) + ">" + extra + body + "</g>"
    }

    static func shapes(_ node: WireRecord, _ rect: WireRect, labelled: Bool = true) -> String {
        let n = SVGText.number
        let box: [(String, String)] = [("x", n(rect.x)), ("y", n(rect.y)), ("width", n(rect.width)), ("height", n(rect.height))]
        switch node.string("kind") {
        case "text":
            let size = node.double("font_size") ?? 13
            var text = node.string("text")
            if text.isEmpty, node["timer_end"] != nil { text = "0:00" }
            return "<text" + SVGText.attributes([
                ("x", n(rect.x)), ("y", n(rect.y + min(rect.height, size) * 0.85)), ("font-size", n(size)),
                ("font-family", "sans-serif"), ("fill", textColor),
            ]) + ">" + SVGText.escape(text) + "</text>"
        case "shape":
            var radius = node.double("corner_radius") ?? 0
            switch node.string("shape") {
            case "circle", "capsule": radius = min(rect.width, rect.height) / 2
            case "rect": radius = 0
            default: break
            }
            let color = node.string("color").isEmpty ? imageColor : node.string("color")
            return "<rect" + SVGText.attributes(box + [("rx", n(radius)), ("fill", color)]) + "/>"
        case "image":
            return "<rect" + SVGText.attributes(box + [("rx", n(min(rect.width, rect.height) / 4)), ("fill", imageColor)]) + "/>"
        case "view":
            var out = "<rect" + SVGText.attributes(box + [("rx", n(min(4, rect.height / 4))), ("fill", viewColor)]) + "/>"
            let name = node.string("name")
            if labelled, !name.isEmpty, rect.height >= 14, rect.width >= 30 {
                out += "<text" + SVGText.attributes([
                    ("x", n(rect.x + 3)), ("y", n(rect.y + 11)), ("font-size", "9"), ("font-family", "sans-serif"),
                    ("fill", textColor),
                ]) + ">" + SVGText.escape(name) + "</text>"
            }
            return out
        case "progress":
            let value = min(max(node.double("value") ?? 0.5, 0), 1)
            var filled = box
            filled[2] = ("width", n(rect.width * value))
            return "<rect" + SVGText.attributes(box + [("fill", "#3a3f48")]) + "/>"
                + "<rect" + SVGText.attributes(filled + [("fill", textColor)]) + "/>"
        default:
            return ""
        }
    }

    /// The fill a moving copy of `node` takes.
    static func fill(for node: WireRecord?) -> String {
        switch node?.string("kind") {
        case "text": "#d9dce3"
        case "shape": node?.string("color").isEmpty == false ? node!.string("color") : imageColor
        case "image": imageColor
        default: viewColor
        }
    }
}
