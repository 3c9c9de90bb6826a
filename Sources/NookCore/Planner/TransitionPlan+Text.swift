extension TransitionPlan {
    /// A readable, stable text form of the whole plan, for golden files and `nookctl`.
    ///
    /// One fact per line, in plan order; numbers in points and seconds with at most three
    /// decimals, so the same plan always renders to the same bytes.
    public var rendering: String {
        var lines: [String] = []
        lines.append("plan \(serial) interrupts \(interrupts) cause \(cause.rawValue)")
        lines.append("  from \(from.rawValue) \"\(fromContent)\" -> to \(to.rawValue) \"\(toContent)\"")
        lines.append("  conversion \(conversion.rawValue), fresh_window \(freshWindow), reduce_motion \(reduceMotion)")
        var chromeLine = "chrome \(PlanText.rect(chrome.fromRect)) r\(PlanText.number(chrome.fromRadius))"
            + " -> \(PlanText.rect(chrome.toRect)) r\(PlanText.number(chrome.toRadius))"
        if let dip = chrome.hideDip { chromeLine += " hide_dip \(PlanText.number(dip))" }
        if chrome.crossFade { chromeLine += " cross_fade" }
        lines.append(chromeLine)
        lines.append("  curve \(PlanText.curve(chrome.curve))")
        if let velocity = chrome.velocity { lines.append("  velocity \(PlanText.velocity(velocity))") }

        lines.append("elements \(elements.count)")
        for element in elements {
            lines.append("  \(element.namespace.rawValue) \(element.key) (module \(element.module), activity \"\(element.activity)\", id \(element.id))")
            lines.append("    \(element.fromSlot.rawValue) \(element.fromPath) -> \(element.toSlot.rawValue) \(element.toPath)")
            lines.append("    \(PlanText.rect(element.fromRect)) -> \(PlanText.rect(element.toRect))")
            lines.append("    style \(element.style.rawValue), cross_fade \(element.crossFade), hide_source \(element.hideSource), clip \(element.clip.rawValue), properties \(element.properties.rawValue), anchor \(element.anchor.rawValue)")
            lines.append("    curve \(PlanText.curve(element.curve))")
            if let velocity = element.velocity { lines.append("    velocity \(PlanText.velocity(velocity))") }
        }
        lines.append("layout \(layout.count)")
        for change in layout {
            lines.append("  \(change.change.rawValue) \(change.path) \(PlanText.rect(change.fromRect)) -> \(PlanText.rect(change.toRect))")
            lines.append("    curve \(PlanText.curve(change.curve))")
        }
        lines.append("slots \(slots.count)")
        for slot in slots {
            lines.append("  \(slot.change.rawValue) \(slot.slot.rawValue) \(slot.owner) delay \(PlanText.number(slot.delay)) curve \(PlanText.curve(slot.curve))")
        }
        if !reveals.isEmpty {
            lines.append("reveals \(reveals.count)")
            for reveal in reveals { lines.append("  \(reveal.path) after \(PlanText.number(reveal.delay))") }
        }
        lines.append("diagnostics \(diagnostics.count)")
        for diagnostic in diagnostics {
            var where_ = diagnostic.module
            if !diagnostic.id.isEmpty { where_ += " id \(diagnostic.id)" }
            if !diagnostic.path.isEmpty { where_ += " at \(diagnostic.path)" }
            lines.append("  \(diagnostic.severity.rawValue) \(diagnostic.code.rawValue) [\(where_)] \(diagnostic.message)")
        }
        lines.append("scene \(scene.presentation.rawValue) chrome \(PlanText.rect(scene.layout.chrome.rect)) r\(PlanText.number(scene.layout.chrome.cornerRadius))")
        for capsule in scene.layout.capsules {
            lines.append("  capsule \(capsule.owner) \(PlanText.rect(capsule.shape.rect))")
        }
        for node in scene.nodes {
            var line = "  \(node.path) \(node.kind.rawValue) \(PlanText.rect(node.rect))"
            let props = PlanText.props(node.props)
            if !props.isEmpty { line += " " + props }
            if scene.suppressed.contains(node.path) { line += " suppressed" }
            for variant in node.variants {
                let chain = variant.conditions.map { condition -> String in
                    guard let group = condition.groupPath else { return condition.state }
                    return "group-" + condition.state + "@" + group
                }
                line += " variant[" + chain.joined(separator: ":") + ":" + variant.utility + "]"
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Number and value formatting for `TransitionPlan.rendering`, without Foundation.
enum PlanText {
    /// At most three decimals, trailing zeros dropped: `616`, `0.42`, `-1.5`.
    static func number(_ value: Double) -> String {
        // Beyond what three decimals can show exactly, print the Double as it is (the Int64
        // below would overflow): plans never hold such numbers, but a diagnostic may quote one.
        guard value.isFinite, abs(value) < 1e15 else { return String(value) }
        let thousandths = Int64((value * 1000).rounded())
        let negative = thousandths < 0
        let magnitude = negative ? -thousandths : thousandths
        var text = String(magnitude / 1000)
        var fraction = magnitude % 1000
        if fraction != 0 {
            var digits = String(fraction)
            digits = String(repeating: "0", count: 3 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
            fraction = 0
        }
        return negative ? "-" + text : text
    }

    static func rect(_ rect: Rect) -> String {
        "(\(number(rect.x)), \(number(rect.y)), \(number(rect.width)), \(number(rect.height)))"
    }

    static func velocity(_ v: RectVelocity) -> String {
        "(\(number(v.x)), \(number(v.y)), \(number(v.width)), \(number(v.height))) pt/s"
    }

    static func curve(_ curve: Curve) -> String {
        var text: String
        switch curve.kind {
        case .spring(let spring):
            text = "spring(response \(number(spring.response)), damping \(number(spring.dampingFraction)), settle \(number(curve.activeDuration))"
            if curve.initialVelocity != 0 { text += ", initial_velocity \(number(curve.initialVelocity))" }
            text += ")"
        case .bezier(let points, let duration):
            text = "bezier(\(points.points.map(number).joined(separator: ", ")), duration \(number(duration)))"
        case .linear(let duration):
            text = "linear(duration \(number(duration)))"
        case .none:
            text = "none"
        }
        if curve.delay != 0 { text += " delay \(number(curve.delay))" }
        return text + " <\(curve.source)>"
    }

    /// The props that say what a node shows, sorted by key, compact.
    static func props(_ props: NodeProps) -> String {
        let raw = props.rawProps
        return raw.keys.sorted().map { key in "\(key)=\(value(raw[key]!))" }.joined(separator: " ")
    }

    static func value(_ value: PropValue) -> String {
        switch value {
        case .bool(let flag): return String(flag)
        case .int(let number): return String(number)
        case .uint(let number): return String(number)
        case .double(let number): return Self.number(number)
        case .string(let text): return "\"" + text + "\""
        case .array(let items): return "[" + items.map(Self.value).joined(separator: ", ") + "]"
        case .structure(let items): return "(" + items.map(Self.value).joined(separator: ", ") + ")"
        case .dictionary(let entries):
            return "{" + entries.keys.sorted().map { "\($0): \(Self.value(entries[$0]!))" }.joined(separator: ", ") + "}"
        case .node(let node): return "<" + node.kind + ">"
        }
    }
}
