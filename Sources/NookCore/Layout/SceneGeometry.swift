/// The nook's geometry for each presentation: where the chrome is and where every slot and
/// node lands, in display points (origin top-left).
///
/// Contract
/// - Pure: display, tokens, presentation and content in; `SceneLayout` out. Bad numbers in
///   the display or tokens are sanitised first, so the result never holds NaN.
/// - The notch (or, without one, an empty notch of width 0) is centred on the display's top
///   edge, `geometry.topInset` below it.
///
/// Steps (see docs/layout.md for the picture)
/// 1. The pill band: as tall as the notch or `pill.height`, whichever is taller. Each compact
///    view is offered `pill.slotMaxWidth` × (band height - `pill.slotPadding`); the slot is as
///    wide as the view (at most `slotMaxWidth`) with `slotPadding` on both sides. The pill is
///    symmetric about the notch: both sides take the wider side's room, so the notch stays in
///    the middle; the leading view sits at the pill's leading end, the trailing view at the
///    trailing end. A pill is never narrower than it is tall.
/// 2. Capsules: one `capsule.size` circle per other activity, vertically centred on the band,
///    `capsule.spacing` apart, alternating right then left of the chrome (first right, second
///    left, third right of the first, ...) so the nook stays balanced.
/// 3. Per presentation:
///    - hidden: an empty chrome rect at the top centre, nothing else;
///    - pill: steps 1 and 2;
///    - peek: the pill band plus the peek area below it (`peek.height`), as wide as
///      `peek.width` or the pill, whichever is wider; compact slots keep their pill rects;
///      the peek view is offered the area inset by `slotPadding` (sides and bottom); capsules
///      move out to the wider chrome;
///    - expanded: the panel (`expanded.width`, at least the notch's width) from the top inset
///      down; content starts below the notch plus `expanded.padding` and is inset by the
///      padding on the sides and bottom; it is offered the content width and its ideal height,
///      and, when that is taller than `expanded.maxHeight` allows, the remaining height; no
///      compact slots, no capsules. The board is a grid of `board.columns` equal columns,
///      `board.spacing` apart, each widget `board.widgetHeight` tall; rows past the height
///      limit stay in place, for the renderer to clip or scroll;
///    - companion: the pill as in `pill`, plus a `companion.width` × `companion.height` window
///      `companion.margin` from the display's top-right corner holding the module's home,
///      inset by `expanded.padding`.
/// Compact views, capsules, peeks and widgets are centred in their slots; expanded content,
/// homes and the companion are centred horizontally and top-aligned.
public enum SceneGeometry {
    /// Lays out `content` as `presentation` shows it on `display`.
    ///
    /// ```swift
    /// let scene = SceneGeometry.layout(
    ///     display: DisplayInfo(width: 1512, height: 982, notchWidth: 200, notchHeight: 32),
    ///     tokens: GeometryTokens(), presentation: .pill, content: content)
    /// let cover = scene.node(at: "compact_leading/0")
    /// ```
    /// - Parameter namedRules: `rules.named` from the theme, so classes naming a rule lay out
    ///   as the rule's classes (SPEC rule 24).
    /// - Parameter text: how wide text is (`.estimate`: `TextMetrics`).
    public static func layout(
        display: DisplayInfo, tokens: GeometryTokens, presentation: Presentation, content: SceneContent,
        namedRules: [String: String] = [:], text: TextMeasurement = .estimate
    ) -> SceneLayout {
        layout(display: display, tokens: tokens, presentation: presentation, content: content, rules: NamedLayoutRules(namedRules),
               text: text)
    }

    static func layout(
        display: DisplayInfo, tokens: GeometryTokens, presentation: Presentation, content: SceneContent, rules: NamedLayoutRules,
        text: TextMeasurement = .estimate
    ) -> SceneLayout {
        let builder = SceneBuilder(display: display.sanitized, tokens: tokens.sanitized, rules: rules, text: text)
        return builder.build(presentation, content)
    }
}

/// The working state of one `SceneGeometry.layout` call. The content is passed to each step,
/// not kept: keeping it copied the whole content (a retain per view) per scene.
struct SceneBuilder {
    let display: DisplayInfo
    let tokens: GeometryTokens
    /// `rules.named` as layout utilities, for every view laid out here.
    let rules: NamedLayoutRules
    /// How wide text is, for every view laid out here.
    var text: TextMeasurement = .estimate

    var centreX: Double { display.width / 2 }
    var top: Double { tokens.topInset }
    var bandHeight: Double { max(display.notchHeight, tokens.pillHeight) }

    func build(_ presentation: Presentation, _ content: SceneContent) -> SceneLayout {
        switch presentation {
        case .hidden:
            return SceneLayout(presentation: .hidden, chrome: ChromeShape(rect: Rect(x: centreX, y: top, width: 0, height: 0), cornerRadius: 0))
        case .pill:
            let pill = pillBand(content)
            let capsules = capsules(beside: pill.chrome.rect, content)
            // Without capsules the band's slots are the scene's (`+` would copy them).
            let slots = capsules.slots.isEmpty ? pill.slots : pill.slots + capsules.slots
            return SceneLayout(presentation: .pill, chrome: pill.chrome, capsules: capsules.chrome, slots: slots)
        case .peek:
            return peek(content)
        case .expanded:
            return expanded(content)
        case .companion:
            return companion(content)
        }
    }

    // MARK: Step 1: the pill band

    struct Band {
        var chrome: ChromeShape
        var slots: [LaidOutSlot]
    }

    func pillBand(_ content: SceneContent) -> Band {
        let padding = tokens.pillSlotPadding
        let offer = ProposedSize(width: tokens.pillSlotMaxWidth, height: max(0, bandHeight - padding))
        // Each view is laid out once at the origin, then moved into its slot, in place: the
        // layouts are held here alone (no copy of the views, no copy of the records).
        var leading = content.compactLeading.map { layout(.compactLeading, $0, offer: offer) }
        var trailing = content.compactTrailing.map { layout(.compactTrailing, $0, offer: offer) }
        func slotWidth(_ layout: LayoutResult) -> Double { min(layout.rootRect?.width ?? 0, tokens.pillSlotMaxWidth) }
        let side = max(leading.map { slotWidth($0) + 2 * padding } ?? 0, trailing.map { slotWidth($0) + 2 * padding } ?? 0)
        let width = max(display.notchWidth + 2 * side, bandHeight)
        let rect = Rect(x: centreX - width / 2, y: top, width: width, height: bandHeight)
        let slotY = top + padding / 2
        let slotHeight = max(0, bandHeight - padding)

        var slots: [LaidOutSlot] = []
        slots.reserveCapacity(2)
        if leading != nil, let owner = content.compactLeading?.owner {
            let slotRect = Rect(x: rect.minX + padding, y: slotY, width: slotWidth(leading!), height: slotHeight)
            slots.append(Self.slot(.compactLeading, owner: owner, moving: &leading!, into: slotRect))
        }
        if trailing != nil, let owner = content.compactTrailing?.owner {
            let trailingWidth = slotWidth(trailing!)
            let slotRect = Rect(x: rect.maxX - padding - trailingWidth, y: slotY, width: trailingWidth, height: slotHeight)
            slots.append(Self.slot(.compactTrailing, owner: owner, moving: &trailing!, into: slotRect))
        }
        return Band(chrome: ChromeShape(rect: rect, cornerRadius: tokens.pillCornerRadius), slots: slots)
    }

    // MARK: Step 2: capsules

    func capsules(beside chrome: Rect, _ content: SceneContent) -> (chrome: [CapsuleChrome], slots: [LaidOutSlot]) {
        let size = tokens.capsuleSize
        let spacing = tokens.capsuleSpacing
        let y = top + (bandHeight - size) / 2
        var shapes: [CapsuleChrome] = []
        var slots: [LaidOutSlot] = []
        for (number, view) in content.minimal.enumerated() {
            let step = Double(number / 2) * (size + spacing)
            let x = number.isMultiple(of: 2) ? chrome.maxX + spacing + step : chrome.minX - spacing - size - step
            let rect = Rect(x: x, y: y, width: size, height: size)
            shapes.append(CapsuleChrome(owner: view.owner, shape: ChromeShape(rect: rect, cornerRadius: size / 2)))
            slots.append(slot(.minimal, view, offer: ProposedSize(rect.size), in: rect))
        }
        return (shapes, slots)
    }

    // MARK: Step 3: presentations

    func peek(_ content: SceneContent) -> SceneLayout {
        let band = pillBand(content)
        let padding = tokens.pillSlotPadding
        let width = max(tokens.peekWidth, band.chrome.rect.width)
        let rect = Rect(x: centreX - width / 2, y: top, width: width, height: bandHeight + tokens.peekHeight)
        var slots = band.slots
        if let view = content.peek {
            let area = Rect(x: rect.minX + padding, y: top + bandHeight,
                            width: max(0, width - 2 * padding), height: max(0, tokens.peekHeight - padding))
            slots.append(slot(.peek, view, offer: ProposedSize(area.size), in: area))
        }
        let capsules = capsules(beside: rect, content)
        return SceneLayout(presentation: .peek, chrome: ChromeShape(rect: rect, cornerRadius: tokens.peekCornerRadius),
                           capsules: capsules.chrome, slots: slots + capsules.slots)
    }

    func expanded(_ content: SceneContent) -> SceneLayout {
        let padding = tokens.expandedPadding
        let width = max(tokens.expandedWidth, display.notchWidth)
        let contentWidth = max(0, width - 2 * padding)
        let contentTop = top + display.notchHeight + padding
        let contentLeft = centreX - width / 2 + padding
        let heightLimit = max(0, tokens.expandedMaxHeight - display.notchHeight - 2 * padding)

        var slots: [LaidOutSlot] = []
        var contentHeight = 0.0
        switch content.expanded {
        case .activity(let view)?, .home(let view)?:
            let name: SlotName = if case .activity = content.expanded { .expanded } else { .home }
            let laidOut = LayoutEngine.layoutFitting(
                view.view, rootPath: name.rootPath(owner: view.owner), width: contentWidth, heightLimit: heightLimit,
                rules: rules, text: text).result
            contentHeight = min(laidOut.root?.rect.height ?? 0, heightLimit)
            let area = Rect(x: contentLeft, y: contentTop, width: contentWidth, height: contentHeight)
            slots.append(slot(name, view, laidOut, in: area, topAligned: true))
        case .board(let widgets)?:
            let columns = tokens.boardColumnCount
            let spacing = tokens.boardSpacing
            let cellWidth = max(0, (contentWidth - Double(columns - 1) * spacing) / Double(columns))
            let cellHeight = tokens.boardWidgetHeight
            for (number, view) in widgets.enumerated() {
                let column = number % columns
                let row = number / columns
                let cell = Rect(x: contentLeft + Double(column) * (cellWidth + spacing),
                                y: contentTop + Double(row) * (cellHeight + spacing), width: cellWidth, height: cellHeight)
                slots.append(slot(.widget, view, offer: ProposedSize(cell.size), in: cell))
            }
            let rows = (widgets.count + columns - 1) / columns
            let gridHeight = rows == 0 ? 0 : Double(rows) * cellHeight + Double(rows - 1) * spacing
            contentHeight = min(gridHeight, heightLimit)
        case nil:
            break
        }
        let height = max(display.notchHeight + 2 * padding + contentHeight, bandHeight)
        let rect = Rect(x: centreX - width / 2, y: top, width: width, height: min(height, max(tokens.expandedMaxHeight, bandHeight)))
        return SceneLayout(presentation: .expanded, chrome: ChromeShape(rect: rect, cornerRadius: tokens.expandedCornerRadius), slots: slots)
    }

    func companion(_ content: SceneContent) -> SceneLayout {
        let band = pillBand(content)
        let capsules = capsules(beside: band.chrome.rect, content)
        let window = Rect(x: display.width - tokens.companionMargin - tokens.companionWidth, y: tokens.companionMargin,
                          width: tokens.companionWidth, height: tokens.companionHeight)
        var slots = band.slots + capsules.slots
        if let view = content.companion {
            let padding = tokens.expandedPadding
            let area = Rect(x: window.minX + padding, y: window.minY + padding,
                            width: max(0, window.width - 2 * padding), height: max(0, window.height - 2 * padding))
            slots.append(slot(.home, view, offer: ProposedSize(area.size), in: area, topAligned: true))
        }
        return SceneLayout(presentation: .companion, chrome: band.chrome, capsules: capsules.chrome,
                           companionWindow: ChromeShape(rect: window, cornerRadius: tokens.companionCornerRadius), slots: slots)
    }

    // MARK: Helpers

    /// A slot whose view is offered `rect`'s size.
    func slot(_ name: SlotName, _ view: OwnedView, offer: ProposedSize, in rect: Rect, topAligned: Bool = false) -> LaidOutSlot {
        let layout = LayoutEngine.layout(
            view.view, rootPath: name.rootPath(owner: view.owner), proposal: offer, in: rect, topAligned: topAligned, rules: rules, text: text)
        return LaidOutSlot(slot: name, owner: view.owner, rect: rect, layout: layout)
    }

    /// A view laid out at the origin, to be moved into its slot once the slot is known.
    func layout(_ name: SlotName, _ view: OwnedView, offer: ProposedSize) -> LayoutResult {
        LayoutEngine.layout(view.view, rootPath: name.rootPath(owner: view.owner), proposal: offer, rules: rules, text: text)
    }

    /// `slot(_:_:_:in:)` for a pill view (centred), moving `laidOut` into the slot in place;
    /// `laidOut` is left there too (the caller is done with it).
    static func slot(_ name: SlotName, owner: String, moving laidOut: inout LayoutResult, into rect: Rect) -> LaidOutSlot {
        let size = laidOut.rootRect?.size ?? .zero
        let dx = rect.x + (rect.width - size.width) / 2
        let dy = rect.y + (rect.height - size.height) / 2
        laidOut.offset(dx: dx, dy: dy)
        return LaidOutSlot(slot: name, owner: owner, rect: rect, layout: laidOut)
    }

    /// A slot for a view laid out at the origin: centred horizontally in `rect`, and centred
    /// vertically or top-aligned.
    func slot(_ name: SlotName, _ view: OwnedView, _ laidOut: LayoutResult, in rect: Rect, topAligned: Bool = false) -> LaidOutSlot {
        let size = laidOut.root?.rect.size ?? .zero
        let dx = rect.x + (rect.width - size.width) / 2
        let dy = topAligned ? rect.y : rect.y + (rect.height - size.height) / 2
        return LaidOutSlot(slot: name, owner: view.owner, rect: rect, layout: laidOut.offsetBy(dx: dx, dy: dy))
    }
}
