import NookModuleAPI

/// A body with markup (`BodyMarkup`), drawn: one line of runs per line of the body, each run
/// a `text` node. Bold runs carry `font_weight` bold (the broker measures them bold), italic
/// and underlined ones the `italic` and `underline` classes, and a link is underlined, blue
/// and a control (`link-N`, numbered from 1 in reading order) whose press opens its URL.
///
/// The runs of one line sit side by side, so a line of the body does not wrap across runs:
/// a run too long for what is left of the line wraps within its own box.
struct BodyText: NookView {
    static let linkColor: NookColor = "#78AEED"

    var lines: [[BodyRun]]
    var size: Double
    var openLink: @Sendable (String) async -> Void

    /// Each run as drawn (`drawn`) with its link's action id.
    var numbered: [[(run: BodyRun, action: String?)]] {
        var links = 0
        return lines.map { runs in
            Self.drawn(runs).map { run in
                guard run.link != nil else { return (run, nil) }
                links += 1
                return (run, Self.linkActionID(links))
            }
        }
    }

    /// The runs of a line as drawn: an underlined run's (a link's) leading spaces end the run
    /// before it instead, as no-break spaces, so its underline starts at its first word (the
    /// layout gives a run's trailing spaces no room, but a no-break space its width).
    static func drawn(_ runs: [BodyRun]) -> [BodyRun] {
        var out: [BodyRun] = []
        for var run in runs {
            if run.underline || run.link != nil, !out.isEmpty, run.text.first == " " {
                let spaces = run.text.prefix { $0 == " " }.count
                run.text.removeFirst(spaces)
                out[out.count - 1].text += String(repeating: "\u{00A0}", count: spaces)
            }
            if !run.text.isEmpty { out.append(run) }
        }
        return out
    }

    /// The action id of the `number`th link of a body (from 1).
    static func linkActionID(_ number: Int) -> String { "link-\(number)" }

    var body: some NookView {
        VStack(alignment: .leading, spacing: 0) {
            ForEach(Array(numbered.enumerated()), id: \.offset) { _, runs in
                HStack(spacing: 0) {
                    ForEach(Array(runs.enumerated()), id: \.offset) { _, item in
                        Self.run(item.run, action: item.action, size: size, openLink: openLink)
                    }
                }
            }
        }
    }

    @NookViewBuilder
    static func run(_ run: BodyRun, action: String?, size: Double, openLink: @escaping @Sendable (String) async -> Void) -> some NookView {
        let text = Text(run.text).font(size: size, weight: run.bold ? .bold : nil)
        let classes = [run.italic ? "italic" : nil, run.underline || run.link != nil ? "underline" : nil].compactMap { $0 }.joined(separator: " ")
        if let url = run.link, let action {
            text.foregroundStyle(linkColor).tw(classes).onTapGesture { await openLink(url) }.actionID(action).accessibilityLabel(url)
        } else if run.link != nil {
            // A link where it cannot be pressed on its own (the peek): it still looks like one.
            text.foregroundStyle(linkColor).tw(classes)
        } else if classes.isEmpty {
            text
        } else {
            text.tw(classes)
        }
    }
}

/// The body's first line in the peek: styled as in the expanded view, at most `maxBytes` of
/// text, ending with an ellipsis when cut or when more lines follow. No link is a control of
/// its own here: a press anywhere on the peek is the notification's `default`.
struct PeekBody: NookView {
    var runs: [BodyRun]
    var size: Double

    init(lines: [[BodyRun]], maxBytes: Int, size: Double) {
        self.runs = Self.firstLine(lines, maxBytes: maxBytes)
        self.size = size
    }

    static func firstLine(_ lines: [[BodyRun]], maxBytes: Int) -> [BodyRun] {
        let drawn = BodyText.drawn(lines.first ?? [])
        var out: [BodyRun] = []
        var left = maxBytes
        for run in drawn {
            guard left > 0 else { break }
            var kept = run
            kept.text = run.text.prefixBytes(left)
            left -= kept.text.utf8.count
            out.append(kept)
            if kept.text.utf8.count < run.text.utf8.count { break }
        }
        let cut = out.map(\.text.utf8.count).reduce(0, +) < drawn.map(\.text.utf8.count).reduce(0, +)
        if (cut || lines.count > 1), !out.isEmpty { out[out.count - 1].text += "\u{2026}" }
        return out
    }

    var body: some NookView {
        HStack(spacing: 0) {
            ForEach(Array(runs.enumerated()), id: \.offset) { _, run in
                BodyText.run(run, action: nil, size: size, openLink: { _ in })
            }
        }
        .opacity(0.8)
    }
}
