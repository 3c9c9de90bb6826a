import NookCore

/// What one scene node draws, resolved for an instant: text with its countdown, images,
/// shapes, progress against the clock, custom views. Stacks, spacers and unknown kinds draw
/// nothing themselves (nil).
enum NodeContent {
    /// - Parameter foreground: the colour of text, symbols, shapes and progress that neither
    ///   their `color` nor a class sets (white by default; the renderer's config may change it).
    static func content(of node: WireSceneNode, style: ClassStyle, unixTime: Double, customViews: Set<String>,
                        foreground: RGBA = .white) -> DrawContent? {
        let props = node.props
        switch node.kind {
        case "text":
            var text = string(props[.text]) ?? ""
            let timerEnd = integer(props[.timerEnd])
            if let timerEnd { text = Countdown.text(end: timerEnd, unixTime: unixTime) }
            let textStyle = TextStyle(
                size: number(props[.fontSize]) ?? 13, weight: TextFont.cssWeight(string(props[.fontWeight])),
                color: color(props) ?? style.foreground ?? foreground,
                monospacedDigits: bool(props[.monospacedDigits]) ?? (timerEnd != nil),
                alignment: style.alignment ?? .leading, italic: style.italic, underline: style.underline,
                lineLimit: integer(props[.lineLimit]).map { Int(clamping: $0) })
            return .text(text, textStyle)
        case "image":
            // Symbols draw in the foreground colour (white on the black chrome); pictures as they are.
            if let symbol = string(props[.symbol]) { return .image(source: symbol, tint: color(props) ?? style.foreground ?? foreground) }
            guard let uri = string(props[.uri]) else { return nil }
            return .image(source: uri, tint: color(props) ?? style.foreground)
        case "shape":
            let kind = string(props[.shape]).flatMap(ShapeKind.init(rawValue:)) ?? .rect
            let fill = color(props) ?? style.foreground ?? foreground
            let radius: Double
            switch kind {
            case .rect: radius = 0
            case .roundedRect: radius = number(props[.cornerRadius]) ?? 8
            case .circle, .capsule: radius = min(node.rect.width, node.rect.height) / 2
            }
            return .shape(kind, fill: fill, cornerRadius: radius)
        case "progress":
            let progressStyle = string(props[.style]).flatMap(ProgressStyle.init(rawValue:)) ?? .linear
            return .progress(fraction: fraction(props, unixTime: unixTime), style: progressStyle, tint: style.foreground ?? foreground)
        case "view":
            guard let name = string(props[.name]), customViews.contains(name) else { return nil }
            var properties: [String: String] = [:]
            if case .dictionary(let params)? = props[.params] {
                for (key, value) in params { properties[key] = text(value) }
            }
            return .custom(name: name, properties: properties)
        default:
            return nil
        }
    }

    /// A custom view the toolkit draws itself: its children (the module's fallback body) are
    /// not drawn.
    static func drawsItself(_ node: WireSceneNode, customViews: Set<String>) -> Bool {
        node.kind == "view" && string(node.props[.name]).map(customViews.contains) == true
    }

    /// `value`, or how far now is between `start` and `end` (unix µs), in 0...1.
    static func fraction(_ props: [String: PropValue], unixTime: Double) -> Double {
        if let start = integer(props[.start]), let end = integer(props[.end]), end > start {
            let now = unixTime * 1_000_000
            return min(max((now - Double(start)) / Double(end - start), 0), 1)
        }
        return min(max(number(props[.value]) ?? 0, 0), 1)
    }

    /// A prop as text for a custom view: scalars plainly, lists joined by commas.
    static func text(_ value: PropValue) -> String {
        switch value {
        case .bool(let v): String(v)
        case .int(let v): String(v)
        case .uint(let v): String(v)
        case .double(let v): String(v)
        case .string(let v): v
        case .array(let items), .structure(let items): items.map(text).joined(separator: ",")
        case .dictionary(let entries): entries.sorted { $0.key < $1.key }.map { "\($0.key)=\(text($0.value))" }.joined(separator: ",")
        case .node(let node): node.kind
        }
    }

    /// The node's own `color`: it wins over `text-*` classes, as a shape's fill does.
    static func color(_ props: [String: PropValue]) -> RGBA? { string(props[.color]).flatMap(RGBA.init(hex:)) }

    static func string(_ value: PropValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    static func bool(_ value: PropValue?) -> Bool? {
        if case .bool(let flag)? = value { return flag }
        return nil
    }

    static func number(_ value: PropValue?) -> Double? {
        switch value {
        case .double(let v)?: v.isFinite ? v : nil
        case .int(let v)?: Double(v)
        case .uint(let v)?: Double(v)
        default: nil
        }
    }

    static func integer(_ value: PropValue?) -> Int64? {
        switch value {
        case .int(let v)?: v
        case .uint(let v)?: v <= UInt64(Int64.max) ? Int64(v) : nil
        case .double(let v)?: v.isFinite && abs(v) < 9e18 ? Int64(v) : nil
        default: nil
        }
    }
}
