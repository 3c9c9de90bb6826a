import NookCore

/// The five views of an activity built from flags, as NookCore values (the same model the SDK
/// builds and the broker validates).
///
/// The icon (symbol or image) is the shared element `icon` in the pill, the peek and the
/// expanded view, so the pill grows into them (SPEC rules 4, 7, 10). What the pill shows right
/// of the notch is shared too: the countdown (`timer`, style scale), else the progress ring
/// (`progress`), else the title (`title`, style scale); a countdown's pill shows its title
/// too, left of the notch, marked `title` as well. The minimal view sits in a capsule,
/// which never shares (rule 12), so it carries no mark.
///
/// ```swift
/// let views = ActivityViews(content: ActivityContent(title: "Building", progress: 0.1)).slots
/// views["compact_trailing"]   // a circular progress ring at 10 %, marked `progress`
/// ```
public struct ActivityViews: Sendable {
    public var content: ActivityContent

    public init(content: ActivityContent) { self.content = content }

    /// Slot name -> view, for all five slots. A countdown's views are tinted its colour
    /// (`text-[#RRGGBB]` on each slot's root, which its text, symbols and rings take).
    public var slots: [String: ViewNode] {
        var slots = ["compact_leading": compactLeading, "compact_trailing": compactTrailing, "minimal": minimal,
                     "peek": peek, "expanded": expanded]
        if let color = content.color, content.hasTimer {
            for key in slots.keys { slots[key]!.props.classes = "text-[\(color)]" }
        }
        return slots
    }

    /// The icon; for a countdown, the icon and the title, so two timers in turn beside the
    /// notch are told apart by name as well as colour.
    var compactLeading: ViewNode {
        guard content.hasTimer else { return icon(size: 16) }
        // Marked `title`, like the title in the peek and the expanded view, so it moves into
        // them instead of staying behind in the pill while the nook peeks.
        var title = text(content.title, size: 12, weight: "semibold", shared: true)
        title.props.maxWidth = 90
        var props = NodeProps()
        props.spacing = 4
        props.alignment = .center
        return ViewNode(kind: .hstack, props: props, children: [icon(size: 14), title])
    }

    /// What a capsule shows of a countdown: the first letter of its title, inside its ring.
    var initial: String { content.title.first.map { String($0).uppercased() } ?? "" }

    /// What stands right of the notch, and so moves into the peek and the expanded view.
    enum Trailing { case timer, progress, title }

    var trailing: Trailing {
        if content.hasTimer { return .timer }
        if content.progress != nil { return .progress }
        return .title
    }

    /// The symbol given, else the image, else a symbol that says what it is.
    func icon(size: Double, shared: Bool = true) -> ViewNode {
        var props = NodeProps()
        if let uri = content.imageURI, content.symbol == nil {
            props.uri = uri
        } else {
            props.symbol = content.symbol ?? (content.hasTimer ? "timer" : "info.circle")
        }
        props.width = size
        props.height = size
        if shared { props.shared = SharedMark(id: "icon") }
        return ViewNode(kind: .image, props: props)
    }

    func text(_ text: String, size: Double, weight: String? = nil, shared: Bool = false) -> ViewNode {
        var props = NodeProps()
        props.text = text
        props.fontSize = size
        props.fontWeight = weight
        if shared { props.shared = SharedMark(id: "title", style: .scale) }
        return ViewNode(kind: .text, props: props)
    }

    /// The countdown the renderer runs by itself, marked `timer`; "Done" once it ran out.
    func countdown(size: Double) -> ViewNode? {
        guard let end = content.timerEnd else { return nil }
        var props = NodeProps()
        if content.isDone {
            props.text = "Done"
        } else {
            props.timerEnd = end
            // An hour or more: reserve the width of the hours, or the renderer cuts `1:05:00`.
            if let start = content.timerStart {
                let seconds = Double(end.saturatingSubtract(start)) / 1_000_000
                if seconds > 3599 { props.text = TextMetrics.timerPlaceholder(seconds: seconds) }
            }
        }
        props.fontSize = size
        props.fontWeight = "semibold"
        props.monospacedDigits = true
        props.shared = SharedMark(id: "timer", style: .scale)
        return ViewNode(kind: .text, props: props)
    }

    func ring(size: Double, shared: Bool) -> ViewNode? {
        var props = NodeProps()
        if let progress = content.progress {
            props.value = progress
        } else if content.isDone {
            props.value = 1
        } else if let start = content.timerStart, let end = content.timerEnd {
            props.start = start
            props.end = end
        } else {
            return nil
        }
        props.progressStyle = .circular
        props.width = size
        props.height = size
        if shared { props.shared = SharedMark(id: "progress") }
        return ViewNode(kind: .progress, props: props)
    }

    var compactTrailing: ViewNode {
        if let countdown = countdown(size: 13) { return countdown }
        if let ring = ring(size: 16, shared: true) { return ring }
        var title = text(content.title, size: 13, shared: true)
        title.props.maxWidth = 120
        return title
    }

    /// A ring for progress or a countdown (with the title's initial inside), else the icon.
    var minimal: ViewNode {
        guard content.hasTimer, let ring = ring(size: 24, shared: false) else { return ring(size: 16, shared: false) ?? icon(size: 16, shared: false) }
        return ViewNode(kind: .zstack, props: NodeProps(), children: [ring, text(initial, size: 11, weight: "bold")])
    }

    /// Title and subtitle, one above the other.
    func titles(titleSize: Double, weight: String) -> ViewNode {
        var children = [text(content.title, size: titleSize, weight: weight, shared: trailing == .title || content.hasTimer)]
        if let subtitle = content.subtitle, !subtitle.isEmpty {
            var line = text(subtitle, size: 13)
            line.props.opacity = 0.7
            children.append(line)
        }
        var props = NodeProps()
        props.alignment = .leading
        props.spacing = 2
        return ViewNode(kind: .vstack, props: props, children: children)
    }

    var peek: ViewNode {
        var children = [icon(size: 24), titles(titleSize: 15, weight: "semibold"), ViewNode(kind: .spacer)]
        if let countdown = countdown(size: 17) {
            children.append(countdown)
        } else if let ring = ring(size: 20, shared: true) {
            children.append(ring)
        }
        var props = NodeProps()
        props.spacing = 8
        props.alignment = .center
        return ViewNode(kind: .hstack, props: props, children: children)
    }

    var expanded: ViewNode {
        var header = NodeProps()
        header.spacing = 10
        header.alignment = .center
        var top = [icon(size: 32), titles(titleSize: 17, weight: "bold")]
        // The pill's ring lands beside the title; the bar below shows the same value at length.
        if trailing == .progress, let ring = ring(size: 28, shared: true) { top += [ViewNode(kind: .spacer), ring] }
        var rows = [ViewNode(kind: .hstack, props: header, children: top)]
        if let countdown = countdown(size: 28) { rows.append(countdown) }
        if let progress = content.progress {
            var bar = NodeProps()
            bar.value = progress
            bar.progressStyle = .linear
            var percent = text("\(Int(saturating: (progress * 100).rounded()))%", size: 13)
            percent.props.monospacedDigits = true
            var row = NodeProps()
            row.spacing = 8
            row.alignment = .center
            rows.append(ViewNode(kind: .hstack, props: row, children: [ViewNode(kind: .progress, props: bar), percent]))
        }
        var props = NodeProps()
        props.alignment = .leading
        props.spacing = 8
        return ViewNode(kind: .vstack, props: props, children: rows)
    }
}
