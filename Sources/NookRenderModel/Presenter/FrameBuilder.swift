import NookCore

/// Builds one `DisplayList` from a playback at one instant of plan time (see
/// `PlanPresenter` for what goes where). Steps:
/// 1. the chrome;
/// 2. capsule backgrounds, old and new;
/// 3. the previous scene's disappearing slots and removed nodes, fading out;
/// 4. the new scene, with slot fades, delayed rows, layout moves and inserts;
/// (in steps 3 and 4, a `suppressed` node and its subtree are never drawn: rule 10);
/// 5. travelling shared elements, on top, clipped to the chrome when asked.
/// Each drawn node carrying `action` is also listed in `controls` at the rect it is drawn at
/// (with the serial of the scene it comes from: the previous plan's for leaving content), and
/// the keyboard-focused one gets the focus ring.
/// Slot content (steps 3 and 4) is clipped to the chrome, as it lives inside it: content
/// laid out for the expanded panel is revealed as the chrome grows, never drawn beside it.
/// During a Reduce Motion dissolve the leaving content (step 3) is clipped to the shape
/// fading out and the new scene (step 4) to the destination.
struct FrameBuilder {
    let playback: Playback
    let previous: RenderScene
    /// Plan time.
    let time: Double
    let unixTime: Double
    let pointer: PointerState
    let customViews: Set<String>
    /// The serial of the plan before the current one: leaving content's controls name it.
    var previousSerial: UInt64 = 0
    /// The control with keyboard focus (its `focus` variants apply and it gets the ring).
    var focus: ControlNode?
    /// Text and symbol colour when neither a node nor a class sets one.
    var defaultForeground = RGBA.white
    /// How text is measured when a `resize` element is laid out again (Relayout.swift).
    var textMeasurement = TextMeasurement.estimate
    var items: [DrawItem] = []
    var controls: [DrawnControl] = []
    var focusRing: FocusRing?
    /// `style` layout entries in flight, by path: the node before, its look, and how far the
    /// change is.
    var styleChanges: [String: (old: WireSceneNode, look: NodeLook, fraction: Double)] = [:]

    init(playback: Playback, previous: RenderScene, time: Double, unixTime: Double, pointer: PointerState, customViews: Set<String>) {
        self.playback = playback
        self.previous = previous
        self.time = time
        self.unixTime = unixTime
        self.pointer = pointer
        self.customViews = customViews
    }

    var plan: RenderPlan { playback.plan }
    var scene: RenderScene { plan.scene }

    mutating func build() -> DisplayList {
        // Locals, so the closures below do not capture `self` while `draw` mutates it.
        let playback = playback, plan = plan, scene = scene, previous = previous, time = time
        let layers = playback.chromeLayers(at: time)
        let chromeShape = playback.chrome(at: time)
        // Content is clipped to the chrome's outline, never its opacity. During a dissolve
        // (rule 18) leaving content stays inside the shape it leaves with, and the new scene
        // inside the destination; each fades with its slot.
        let chrome = layers.destination.map(Self.outline) ?? layers.fading.map(Self.outline)
        let leavingClip = layers.fading.map(Self.outline) ?? chrome
        let travelling = playback.travellingElements.filter { $0.curve.isMoving(at: time) }
        let hideSources = playback.travellingElements.filter(\.hideSource)

        // Paths not drawn in place: element ends while they travel (drawn in step 5), hidden
        // sources for the whole plan, and each scene's suppressed pill copies (rule 10).
        let hiddenOld = Set(travelling.map(\.fromPath) + hideSources.map(\.fromPath)).union(previous.suppressed)
        let hiddenNew = Set(travelling.map(\.toPath) + hideSources.filter { $0.fromPath != $0.toPath }.map(\.fromPath))
            .union(scene.suppressed)
        // With no chrome on screen (hidden, or the dip), only capsules and their content show.
        let onlyCapsules = chrome == nil

        // Each slot's fade, once per frame.
        var fades: [SlotKey: Double] = [:]
        for entry in plan.slots { fades[entry.identity] = playback.slotOpacity(entry.identity, at: time) }
        let slotFades = fades

        // Step 2.
        drawCapsules()

        // Step 3: the previous scene's leaving content.
        let leaving = Set(plan.slots.filter { $0.change == .disappear }.map(\.identity))
        let removals = plan.layout.filter { $0.change == .remove && $0.curve.isMoving(at: time) }
        let oldNodes = previous.nodes.indices.filter { position in
            let node = previous.nodes[position]
            return (leaving.contains(node.slotKey) || removals.contains { Self.path(node.path, isWithin: $0.path) })
                && (!onlyCapsules || node.slot == SlotName.minimal.rawValue)
        }
        draw(oldNodes, in: previous, rectOf: { $0.rect }, fadeOf: { node in
            var fade = leaving.contains(node.slotKey) ? slotFades[node.slotKey] ?? 1 : 1
            for removal in removals where Self.path(node.path, isWithin: removal.path) {
                fade *= 1 - removal.curve.fraction(at: time)
            }
            return fade
        }, clip: leavingClip, scaled: false, sharedKey: nil, hidden: hiddenOld, serial: previousSerial)

        // Step 4: the new scene.
        let moves = Dictionary(plan.layout.filter { $0.change != .remove }.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let inserts = plan.layout.filter { $0.change == .insert }
        let newNodes = onlyCapsules ? scene.nodes.indices.filter { scene.nodes[$0].slot == SlotName.minimal.rawValue } : Array(scene.nodes.indices)
        for entry in plan.layout where entry.change == .style && entry.curve.isMoving(at: time) {
            if let old = previous.index[entry.path] {
                styleChanges[entry.path] = (previous.nodes[old], previous.looks[old], entry.curve.fraction(at: time))
            }
        }
        defer { styleChanges = [:] }
        // Shared elements that have landed are exempt from their row's fade: a destination in a
        // row held back by stagger or the header delay lands before its row appears (seed 000),
        // and stays seen from then on rather than vanishing until its row fades in.
        let landed = playback.travellingElements.filter { !$0.curve.isMoving(at: time) }.map(\.toPath)
        draw(newNodes, in: scene, rectOf: { node in
            moves[node.path].map { playback.layoutRect($0, at: time) } ?? node.rect
        }, fadeOf: { node in
            var fade = slotFades[node.slotKey] ?? 1
            let hasLanded = landed.contains { Self.path(node.path, isWithin: $0) }
            for reveal in plan.reveals where !hasLanded && Self.path(node.path, isWithin: reveal.path) { fade *= reveal.curve.fraction(at: time) }
            for insert in inserts where Self.path(node.path, isWithin: insert.path) { fade *= insert.curve.fraction(at: time) }
            return fade
        }, clip: chrome, scaled: false, sharedKey: nil, hidden: hiddenNew, serial: plan.serial)

        // Step 5: shared elements in flight.
        if !onlyCapsules {
            for element in travelling { drawTravelling(element, chrome: chromeShape) }
        }
        // Step 6: what the pointer reaches, and the close control.
        let targets = reachTargets(chrome: layers.destination ?? layers.fading, fades: slotFades)
        return DisplayList(chrome: layers.destination, fadingChrome: layers.fading, items: items, controls: controls, focusRing: focusRing,
                           targets: targets)
    }

    /// Step 6 (every activity in reach): the current scene's pill slots, peek, capsules, board
    /// tiles and expanded panel as `ReachTarget`s, and the close control beside a peek or an
    /// expanded activity a person may end, drawn here (a dark round button with a cross, like
    /// a capsule) at the chrome as it is at this instant, fading with the content it ends.
    mutating func reachTargets(chrome: ChromeShape?, fades: [SlotKey: Double]) -> [ReachTarget] {
        let plan = plan, scene = scene
        let undismissible = Set(plan.undismissible)
        func target(_ kind: ReachTarget.Kind, _ slot: SlotName, _ owner: String, _ rect: Rect) -> ReachTarget {
            ReachTarget(kind: kind, slot: slot.rawValue, owner: owner, serial: plan.serial, rect: rect,
                        dismissible: owner.contains("/") && !undismissible.contains(owner))
        }
        var out: [ReachTarget] = []
        var ending: ReachTarget?
        if let chrome = chrome?.rect {
            switch plan.to {
            case .pill, .peek, .companion:
                let band = scene.nodes.first { $0.slot == SlotName.compactLeading.rawValue || $0.slot == SlotName.compactTrailing.rawValue }
                let peek = plan.to == .peek ? scene.node(at: SlotName.peek.rawValue) : nil
                if let band, let slot = SlotName(rawValue: band.slot) {
                    let height = peek.map { max(0, $0.rect.minY - chrome.minY) } ?? chrome.height
                    out.append(target(.pill, slot, band.owner, Rect(x: chrome.minX, y: chrome.minY, width: chrome.width, height: height)))
                }
                if let peek {
                    let top = min(max(peek.rect.minY, chrome.minY), chrome.maxY)
                    let peekTarget = target(.peek, .peek, peek.owner, Rect(x: chrome.minX, y: top, width: chrome.width, height: chrome.maxY - top))
                    out.append(peekTarget)
                    ending = peekTarget
                }
            case .expanded:
                if plan.toContent == "board" {
                    // A tile is its whole cell (`board_cells`), within the chrome as it is now;
                    // from a sender without cells, the widget's own rect.
                    var cells: [String: Rect] = [:]
                    for cell in plan.boardCells where cells[cell.owner] == nil { cells[cell.owner] = cell.rect }
                    for node in scene.nodes where node.slot == SlotName.widget.rawValue && node.path == SlotName.widget.rootPath(owner: node.owner) {
                        guard let cell = cells[node.owner] else {
                            out.append(target(.tile, .widget, node.owner, node.rect))
                            continue
                        }
                        if let reachable = Self.intersection(cell, chrome) { out.append(target(.tile, .widget, node.owner, reachable)) }
                    }
                } else if let root = scene.node(at: SlotName.expanded.rawValue) {
                    let panel = target(.panel, .expanded, root.owner, chrome)
                    out.append(panel)
                    ending = panel
                } else if let root = scene.node(at: SlotName.home.rawValue) {
                    out.append(target(.panel, .home, root.owner, chrome))
                }
            case .hidden:
                break
            }
        }
        for capsule in scene.capsules where (fades[SlotKey(slot: SlotName.minimal.rawValue, owner: capsule.owner)] ?? 1) > 0 {
            out.append(target(.capsule, .minimal, capsule.owner, capsule.rect))
        }
        if let ending, ending.dismissible, let chrome = chrome?.rect {
            let size = ReachTarget.closeSize
            let rect = Rect(x: chrome.maxX + ReachTarget.closeGap, y: max(chrome.minY, chrome.maxY - size), width: size, height: size)
            let fade = min(max(fades[SlotKey(slot: ending.slot, owner: ending.owner)] ?? 1, 0), 1)
            if fade > 0 {
                items.append(DrawItem(path: "close:" + ending.owner, content: .shape(.circle, fill: .black, cornerRadius: size / 2),
                                      rect: rect, opacity: fade))
                items.append(DrawItem(path: "close:" + ending.owner + "#cross",
                                      content: .text("\u{00D7}", TextStyle(size: 18, weight: 600, color: defaultForeground, alignment: .center)),
                                      rect: rect, opacity: fade))
                var close = ending
                close.kind = .close
                close.rect = rect
                out.append(close)
            }
        }
        return out
    }

    /// Where `a` and `b` overlap; nil when they do not (or only along an edge).
    static func intersection(_ a: Rect, _ b: Rect) -> Rect? {
        let minX = max(a.minX, b.minX), maxX = min(a.maxX, b.maxX)
        let minY = max(a.minY, b.minY), maxY = min(a.maxY, b.maxY)
        guard maxX > minX, maxY > minY else { return nil }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// A chrome shape as a clip: its outline, whatever its opacity.
    static func outline(_ shape: ChromeShape) -> ChromeShape { ChromeShape(rect: shape.rect, radius: shape.radius) }

    // MARK: Steps

    mutating func drawCapsules() {
        let minimalLeaving = plan.slots.filter { $0.slot == .minimal && $0.change == .disappear }
        for entry in minimalLeaving {
            guard let capsule = previous.capsules.first(where: { $0.owner == entry.owner }) else { continue }
            add(capsule, opacity: playback.slotOpacity(entry.identity, at: time))
        }
        for capsule in scene.capsules {
            add(capsule, opacity: playback.slotOpacity(SlotKey(slot: SlotName.minimal.rawValue, owner: capsule.owner), at: time))
        }
    }

    mutating func add(_ capsule: CapsuleShape, opacity: Double) {
        guard opacity > 0 else { return }
        items.append(DrawItem(
            path: "capsule:" + capsule.owner, content: .shape(.capsule, fill: .black, cornerRadius: capsule.radius),
            rect: capsule.rect, opacity: min(opacity, 1)))
    }

    /// One travelling element: the new node's subtree mapped into the moving rect, and with
    /// `cross_fade` the old node's subtree too, fading out.
    mutating func drawTravelling(_ element: ElementMove, chrome: ChromeShape) {
        let rect = playback.elementRect(element, at: time)
        let clip = element.clip == .chrome ? chrome : nil
        let scaled = element.style == .scale
        let f = element.curve.fraction(at: time)
        // `resize` (rule 5): the subtree laid out again in the frame's rect; `scale`, or a
        // subtree that cannot be rebuilt: mapped proportionally from its laid-out rects.
        let relaidNew = scaled ? nil : playback.relayouts[element.toPath]?.rects(in: rect, text: textMeasurement)
        // The moving copy keeps its environment (seed 000: a second instance of the view with
        // the same environment): what its ancestors give it at each end (text colour, opacity),
        // blended on the element's progress, so it neither flies plain nor snaps on landing.
        let destination = environment(of: element.toPath, in: scene)
        let source = previous.node(at: element.fromPath) == nil ? destination : environment(of: element.fromPath, in: previous)
        var around = destination
        around.opacity = source.opacity + (destination.opacity - source.opacity) * f
        if source.foreground != nil || destination.foreground != nil {
            around.foreground = RGBA.mix(source.foreground ?? defaultForeground, destination.foreground ?? defaultForeground, f)
        }
        if element.crossFade, let old = previous.node(at: element.fromPath) {
            let subtree = Array(previous.subtreePositions(at: element.fromPath))
            let relaid = scaled ? nil : playback.relayouts["from:" + element.fromPath]?.rects(in: rect, text: textMeasurement)
            // Split curves (`CrossFade`): one copy is always fully opaque, so the pair never thins.
            draw(subtree, in: previous, rectOf: { relaid?[$0.path] ?? Self.map($0.rect, from: old.rect, into: rect) },
                 fadeOf: { _ in CrossFade.outgoing(f) }, clip: clip, scaled: scaled, sharedKey: element.key, hidden: [], serial: previousSerial,
                 environment: around)
        }
        guard let new = scene.node(at: element.toPath) else { return }
        let subtree = Array(scene.subtreePositions(at: element.toPath))
        draw(subtree, in: scene, rectOf: { relaidNew?[$0.path] ?? Self.map($0.rect, from: new.rect, into: rect) },
             fadeOf: { _ in element.crossFade ? CrossFade.incoming(f) : 1 }, clip: clip, scaled: scaled, sharedKey: element.key, hidden: [], serial: plan.serial,
             environment: around)
    }

    /// What the ancestors of the node at `path` give it, as `draw` would pass it down: the
    /// nearest text colour and the product of their opacities (at rest, their own rects).
    func environment(of path: String, in scene: RenderScene) -> Inherited {
        var ancestors: [Int] = []
        var next = scene.index[path].flatMap { scene.looks[$0].parent }
        while let parent = next {
            ancestors.append(parent)
            next = scene.looks[parent].parent
        }
        var environment = Inherited()
        for position in ancestors.reversed() {
            let node = scene.nodes[position], look = scene.looks[position]
            let style = node.variants.isEmpty ? look.baseStyle
                : VariantResolver.style(of: node, base: look.baseStyle, in: scene, pointer: pointer, focus: focus, rectOf: { $0.rect })
            environment.foreground = style.foreground ?? environment.foreground
            environment.opacity *= look.opacity * style.opacity
        }
        return environment
    }

    /// Draws the nodes at `positions` (preorder, parents first) of `scene`: each node's background and
    /// content at `rectOf(node)`, with its own and its ancestors' opacity and scale, times
    /// `fadeOf(node)`, below `environment` (what the first node's ancestors give it, when they
    /// are not drawn with it). Subtrees rooted at a path in `hidden` and the children of custom views
    /// the toolkit draws are skipped. Nodes with `action` drawn at some opacity join
    /// `controls`, naming `serial` (the plan whose scene `scene` is).
    mutating func draw(
        _ positions: [Int], in scene: RenderScene, rectOf: (WireSceneNode) -> Rect, fadeOf: (WireSceneNode) -> Double,
        clip: ChromeShape?, scaled: Bool, sharedKey: String?, hidden: Set<String>, serial: UInt64, environment: Inherited = Inherited()
    ) {
        var inherited: [Int: Inherited] = [:]
        var skipping: String?
        for position in positions {
            let node = scene.nodes[position], look = scene.looks[position]
            if let root = skipping {
                if Self.path(node.path, isWithin: root) { continue }
                skipping = nil
            }
            if hidden.contains(node.path) {
                skipping = node.path
                continue
            }
            // A subtree drawn on its own (a travelling element) starts from `environment`.
            let parent = look.parent.flatMap { inherited[$0] } ?? environment
            var style = node.variants.isEmpty ? look.baseStyle
                : VariantResolver.style(of: node, base: look.baseStyle, in: scene, pointer: pointer, focus: focus, rectOf: rectOf)
            style.foreground = style.foreground ?? parent.foreground
            if style.alignment == nil, node.kind == "text" { style.alignment = Self.textAlignment(parent: look.parent.map { scene.nodes[$0] }) }
            var nodeOpacity = look.opacity * style.opacity
            let change = styleChanges[node.path].flatMap { $0.old.kind == node.kind ? $0 : nil }
            if let change {
                // A style change on its curve (rule 17): opacity, scale and colours run from the old look.
                var before = change.look.baseStyle
                before.foreground = before.foreground ?? parent.foreground
                let f = change.fraction
                nodeOpacity = change.look.opacity * before.opacity + (nodeOpacity - change.look.opacity * before.opacity) * f
                style.scale = before.scale + (style.scale - before.scale) * f
                style.background = RGBA.mix(before.background, style.background, f)
                style.foreground = RGBA.mix(before.foreground, style.foreground, f)
            }
            let rect = rectOf(node)
            var own = parent
            own.foreground = style.foreground
            own.opacity *= nodeOpacity
            if style.scale != 1 { own.transform = parent.transform.scaled(by: style.scale, about: Point(x: rect.midX, y: rect.midY)) }
            inherited[position] = own

            let opacity = min(max(own.opacity * fadeOf(node), 0), 1)
            if NodeContent.drawsItself(node, customViews: customViews) { skipping = node.path }
            guard opacity > 0 else { continue }
            let placed = own.transform.apply(rect)
            // Capsules sit beside the chrome, never inside it.
            let clip = node.slot == SlotName.minimal.rawValue ? nil : clip
            // A button (`role: button`) without a background of its own gets the renderer's plate.
            var buttonPlate: (rect: Rect, radius: Double, iconOnly: Bool, control: ControlNode)?
            if let control = scene.control(node, serial: serial) {
                controls.append(DrawnControl(control: control, rect: placed, clip: clip))
                if NodeContent.string(node.props[.role]) == NodeRole.button.rawValue, style.background == nil {
                    let iconOnly = Self.isIconOnly(node, in: scene)
                    let plate = ButtonLook.plate(for: placed, iconOnly: iconOnly)
                    buttonPlate = (plate.rect, plate.radius, iconOnly, control.node)
                }
                if control.node == focus {
                    focusRing = FocusRing(around: buttonPlate?.rect ?? placed,
                                          cornerRadius: buttonPlate?.radius ?? style.backgroundRadius ?? ClassStyle.defaultBackgroundRadius,
                                          clip: clip, control: control.node)
                }
            }
            if let plate = buttonPlate {
                let state = ButtonLook.state(of: placed, clip: clip, pointer: pointer, control: plate.control)
                let alpha = plate.iconOnly ? ButtonLook.iconAlpha(state) : ButtonLook.labelledAlpha(state)
                if alpha > 0 {
                    var fill = style.foreground ?? defaultForeground
                    fill.alpha *= alpha
                    items.append(DrawItem(
                        path: node.path + "#button-" + state.rawValue, sharedKey: sharedKey,
                        content: .shape(.roundedRect, fill: fill, cornerRadius: plate.radius),
                        rect: plate.rect, opacity: opacity, clip: clip))
                }
            }
            var layoutSize: Size? = scaled ? node.rect.size : nil
            if own.transform.scale != 1, layoutSize == nil { layoutSize = rect.size }
            if let background = style.background {
                let radius = min(style.backgroundRadius ?? ClassStyle.defaultBackgroundRadius, min(placed.width, placed.height) / 2)
                items.append(DrawItem(
                    path: node.path + "#background", sharedKey: sharedKey,
                    content: .shape(.roundedRect, fill: background, cornerRadius: max(0, radius)),
                    rect: placed, opacity: opacity, clip: clip))
            }
            if var content = NodeContent.content(of: node, style: style, unixTime: unixTime, customViews: customViews,
                                                     foreground: defaultForeground) {
                if let change, case .shape(let kind, let fill, let radius) = content,
                   let before = NodeContent.string(change.old.props[.color]).flatMap(RGBA.init(hex:)) {
                    content = .shape(kind, fill: RGBA.mix(before, fill, change.fraction) ?? fill, cornerRadius: radius)
                }
                items.append(DrawItem(
                    path: node.path, sharedKey: sharedKey, content: content, rect: placed, opacity: opacity, clip: clip,
                    layoutSize: layoutSize))
            }
        }
    }

    // MARK: Helpers

    /// A button showing only a picture: an image in its subtree and no text.
    static func isIconOnly(_ node: WireSceneNode, in scene: RenderScene) -> Bool {
        let subtree = node.kind == "image" ? [node][...] : scene.subtree(at: node.path)
        return subtree.contains { $0.kind == "image" } && !subtree.contains { $0.kind == "text" }
    }

    /// What a node passes on to its subtree.
    struct Inherited {
        var opacity = 1.0
        var transform = Transform()
        /// `text-<colour>` colours text, symbols and bars below it, as in CSS.
        var foreground: RGBA?
    }

    /// Where text sits in its rect when the broker's measured width and the toolkit's differ:
    /// as its stack aligns it (a vertical or layered stack's `alignment`, centre by default);
    /// leading in a row, where it follows its sibling.
    static func textAlignment(parent: WireSceneNode?) -> Alignment {
        guard let parent, parent.kind != "hstack" else { return .leading }
        switch NodeContent.string(parent.props[.alignment]) {
        case "leading": return .leading
        case "trailing": return .trailing
        default: return .center
        }
    }

    /// A uniform scale and offset: `p' = scale · p + offset`.
    struct Transform {
        var scale = 1.0
        var dx = 0.0
        var dy = 0.0

        /// This transform after a scale by `factor` about `centre` (in untransformed space).
        func scaled(by factor: Double, about centre: Point) -> Transform {
            Transform(scale: scale * factor, dx: scale * centre.x * (1 - factor) + dx, dy: scale * centre.y * (1 - factor) + dy)
        }

        func apply(_ rect: Rect) -> Rect {
            Rect(x: rect.x * scale + dx, y: rect.y * scale + dy, width: rect.width * scale, height: rect.height * scale)
        }
    }

    /// `rect`, given in `source`'s frame, placed proportionally into `target`.
    static func map(_ rect: Rect, from source: Rect, into target: Rect) -> Rect {
        let sx = source.width > 0 ? target.width / source.width : 1
        let sy = source.height > 0 ? target.height / source.height : 1
        return Rect(x: target.x + (rect.x - source.x) * sx, y: target.y + (rect.y - source.y) * sy,
                    width: rect.width * sx, height: rect.height * sy)
    }

    /// `path` is `root` or inside it.
    static func path(_ path: String, isWithin root: String) -> Bool {
        path == root || (path.hasPrefix(root) && path.dropFirst(root.count).first == "/")
    }
}

extension RenderScene {
    /// The positions in `nodes` of the node at `path` and its descendants, in preorder.
    func subtreePositions(at path: String) -> Range<Int> {
        guard let start = index[path] else { return 0..<0 }
        var end = start + 1
        while end < nodes.count, FrameBuilder.path(nodes[end].path, isWithin: path) { end += 1 }
        return start..<end
    }

    /// The node at `path` and its descendants, in preorder.
    func subtree(at path: String) -> ArraySlice<WireSceneNode> { nodes[subtreePositions(at: path)] }
}
