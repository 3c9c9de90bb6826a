import NookCore

/// The views of an on-screen display: the icon (shared `icon`) and the level bar (shared
/// `level`) beside the notch, growing into the peek, where the title and the percentage join
/// them; a state (muted, Caps Lock) is its word instead of a bar. A capsule shows the icon.
struct OSDViews {
    var request: OSDRequest

    var slots: [String: ViewNode] {
        ["compact_leading": icon(size: 16), "compact_trailing": compactTrailing, "minimal": icon(size: 16, shared: false),
         "peek": peek, "expanded": peek]
    }

    func icon(size: Double, shared: Bool = true) -> ViewNode {
        var props = NodeProps()
        props.symbol = request.symbol
        props.width = size
        props.height = size
        if shared { props.shared = SharedMark(id: "icon") }
        return ViewNode(kind: .image, props: props)
    }

    /// The level as a bar `width` wide, or nil for a state.
    func bar(width: Double) -> ViewNode? {
        guard case .level(let level) = request.value else { return nil }
        var props = NodeProps()
        props.value = level
        props.progressStyle = .linear
        props.width = width
        props.height = 4
        props.shared = SharedMark(id: "level")
        return ViewNode(kind: .progress, props: props)
    }

    /// The value in words: `40%`, `Muted`, `On`, `Off`.
    var valueText: String {
        switch request.value {
        case .level(let level): "\(Int((level * 100).rounded()))%"
        case .muted: "Muted"
        case .on(let on): on ? "On" : "Off"
        }
    }

    func text(_ text: String, size: Double, weight: String? = nil, digits: Bool = false) -> ViewNode {
        var props = NodeProps()
        props.text = text
        props.fontSize = size
        props.fontWeight = weight
        props.monospacedDigits = digits
        return ViewNode(kind: .text, props: props)
    }

    var compactTrailing: ViewNode { bar(width: 48) ?? text(valueText, size: 12, weight: "semibold") }

    var peek: ViewNode {
        var column = NodeProps()
        column.spacing = 6
        column.alignment = .leading
        var titleAndBar = [text(request.kind.title, size: 13, weight: "semibold")]
        if let bar = bar(width: 160) { titleAndBar.append(bar) }
        var row = NodeProps()
        row.spacing = 12
        row.alignment = .center
        return ViewNode(kind: .hstack, props: row, children: [
            icon(size: 28),
            ViewNode(kind: .vstack, props: column, children: titleAndBar),
            text(valueText, size: 13, digits: true),
        ])
    }
}
