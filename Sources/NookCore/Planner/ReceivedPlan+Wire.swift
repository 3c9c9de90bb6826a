extension Plan where Scene == WireScene {
    /// The inverse of `TransitionPlan.wireDictionary`: reads a plan `a{sv}` as the Plan
    /// signal or the Subscribe reply carries it.
    /// - Parameter held: the scene the reader holds and its plan's serial, which a plan with
    ///   `scene_delta` edits; such a plan against any other base throws with key
    ///   `scene_delta.base` (the reader then needs a whole scene).
    /// - Parameter warnings: gains one line per word a newer sender may use that this reader
    ///   does not know (a curve type, a slot change, an element style or clip, a cause), and
    ///   says what it reads as instead.
    /// - Throws: `WireFieldError` naming the first key it cannot read.
    public init(wire value: PropValue, held: (serial: UInt64, scene: WireScene)? = nil, warnings: inout [String]) throws(WireFieldError) {
        let plan = try WireFields(path: "", value: value)
        func curve(_ entry: WireFields) throws(WireFieldError) -> Curve { try Curve(wire: entry.record("curve"), warnings: &warnings) }

        let scene: WireScene
        if let delta = try plan.optionalRecord("scene_delta"), !plan.has("scene") {
            let base = try delta.uint("base")
            guard let held, held.serial == base else {
                throw WireFieldError(key: WireScene.deltaBaseKey, message: WireScene.unknownBase
                                     + " (edits serial \(base); this reader holds \(held.map { String($0.serial) } ?? "none"))")
            }
            scene = try WireScene(delta: delta, base: held.scene)
        } else {
            scene = try WireScene(wire: plan.record("scene"))
        }

        let chromeFields = try plan.record("chrome")
        let hideDip = try chromeFields.optionalDouble("hide_dip")
        if let hideDip, hideDip < 0 { throw chromeFields.error("hide_dip", "a dip cannot be negative") }
        // A compact plan (contract 1.1) leaves out a destination that is the scene's chrome and
        // a start that is the destination.
        let fromRect = chromeFields.has("from_rect") ? try chromeFields.rect("from_rect") : nil
        let toRect = try Self.rect(chromeFields, "to_rect", default: scene.chrome?.rect)
        let toRadius = try chromeFields.nonNegative("to_radius", default: scene.chrome?.cornerRadius ?? 0)
        let chrome = ChromePlan(
            fromRect: fromRect ?? toRect, toRect: toRect,
            fromRadius: try chromeFields.nonNegative("from_radius", default: toRadius), toRadius: toRadius,
            curve: try curve(chromeFields), velocity: try Self.velocity(chromeFields), hideDip: hideDip,
            crossFade: try chromeFields.bool("cross_fade", default: false))

        var elements: [ElementMove] = []
        for entry in try plan.records("elements") {
            elements.append(ElementMove(
                fromPath: try entry.string("from_path"), toPath: try entry.string("to_path"), key: try entry.string("key"),
                namespace: try entry.choice("namespace", NamespaceKind.self, absent: .nook), module: try entry.string("module", default: ""),
                activity: try entry.string("activity", default: ""), id: try entry.string("id", default: ""),
                fromSlot: try entry.choice("from_slot", SlotName.self, absent: .expanded),
                toSlot: try entry.choice("to_slot", SlotName.self, absent: .expanded),
                fromRect: try entry.rect("from_rect"), toRect: try entry.rect("to_rect"),
                style: try entry.choice("style", SharedStyle.self, absent: .resize, unknown: .resize, what: "style", drawnAs: "drawn as resize", warnings: &warnings),
                crossFade: try entry.bool("cross_fade", default: false), hideSource: try entry.bool("hide_source", default: false),
                clip: try entry.choice("clip", ElementClip.self, absent: .chrome, unknown: .none, what: "clip", drawnAs: "drawn unclipped", warnings: &warnings),
                properties: try entry.choice("properties", SharedProperties.self, absent: .frame, unknown: .frame, what: "properties", drawnAs: "read as frame", warnings: &warnings),
                anchor: try entry.choice("anchor", SharedAnchor.self, absent: .center, unknown: .center, what: "anchor", drawnAs: "read as center", warnings: &warnings),
                curve: try curve(entry), velocity: try Self.velocity(entry)))
        }

        var layout: [LayoutChange] = []
        for entry in try plan.records("layout") {
            // A change this reader does not know leaves the node where the scene puts it.
            guard let change = try entry.knownChoice(
                "change", LayoutChangeKind.self, what: "change", drawnAs: "applied at once", warnings: &warnings) else { continue }
            layout.append(LayoutChange(path: try entry.string("path"), change: change, fromRect: try entry.rect("from_rect"),
                                       toRect: try entry.rect("to_rect"), curve: try curve(entry)))
        }

        var slots: [SlotChange] = []
        for entry in try plan.records("slots") {
            guard let slot = try entry.knownChoice(
                "slot", SlotName.self, what: "slot", drawnAs: "drawn as it stands", warnings: &warnings) else { continue }
            var slotCurve = try curve(entry)
            // `delay` repeats the curve's delay; an older sender might give it only here.
            let delay = try entry.nonNegative("delay", default: slotCurve.delay)
            if delay > slotCurve.delay, let delayed = try? slotCurve.withDelay(delay) { slotCurve = delayed }
            slots.append(SlotChange(
                slot: slot, owner: try entry.string("owner", default: ""),
                change: try entry.choice("change", SlotChangeKind.self, unknown: .stay, what: "change", drawnAs: "drawn as stay", warnings: &warnings),
                delay: delay, curve: slotCurve))
        }

        var reveals: [RowReveal] = []
        for entry in try plan.records("reveals") {
            let revealCurve = try curve(entry)
            reveals.append(RowReveal(path: try entry.string("path"), delay: try entry.nonNegative("delay", default: revealCurve.delay), curve: revealCurve))
        }

        var diagnostics: [Diagnostic] = []
        for entry in try plan.records("diagnostics") { diagnostics.append(try Diagnostic(wire: entry)) }

        self.init(
            serial: try plan.uint("serial"), interrupts: try plan.uint("interrupts", default: 0),
            cause: try plan.choice("cause", PlanCause.self, absent: .contentChanged, unknown: .contentChanged, what: "cause", drawnAs: "read as content_changed", warnings: &warnings),
            from: try plan.choice("from", Presentation.self, absent: .hidden), to: try plan.choice("to", Presentation.self),
            fromContent: try plan.string("from_content", default: ""), toContent: try plan.string("to_content", default: ""),
            conversion: try plan.choice("conversion", Conversion.self, absent: .direct, unknown: .direct, what: "conversion", drawnAs: "drawn as direct", warnings: &warnings),
            freshWindow: try plan.bool("fresh_window", default: false), reduceMotion: try plan.bool("reduce_motion", default: false),
            chrome: chrome, elements: elements, layout: layout, slots: slots, reveals: reveals, diagnostics: diagnostics, scene: scene)
        var causes: [PlanCause] = []
        for (index, word) in try plan.strings("causes").enumerated() {
            guard let cause = PlanCause(rawValue: word) else {
                warnings.append("causes.\(index): unknown cause \"\(word)\" left out")
                continue
            }
            causes.append(cause)
        }
        self.causes = causes
        // Absent from a sender that does not say: "" (the reader's own font applies).
        fontFamily = try plan.string("font_family", default: "")
        undismissible = try plan.strings("undismissible")
        var cells: [BoardCell] = []
        for entry in try plan.records("board_cells") { cells.append(BoardCell(owner: try entry.string("owner"), rect: try entry.rect("rect"))) }
        boardCells = cells
    }

    /// The rect at `key`, or `fallback` when the key is absent (and there is one).
    private static func rect(_ entry: WireFields, _ key: String, default fallback: Rect?) throws(WireFieldError) -> Rect {
        if !entry.has(key), let fallback { return fallback }
        return try entry.rect(key)
    }

    private static func velocity(_ entry: WireFields) throws(WireFieldError) -> RectVelocity? {
        guard entry.has("velocity") else { return nil }
        let parts = try entry.quad("velocity", what: "a velocity (dddd)")
        return RectVelocity(x: parts[0], y: parts[1], width: parts[2], height: parts[3])
    }
}

extension WireScene {
    /// Where a `scene_delta` against a scene the reader does not hold is refused.
    public static let deltaBaseKey = "scene_delta.base"
    static let unknownBase = "the scene this delta edits is not the one held"

    /// Reads `scene`: `presentation`, `chrome`, `capsules` and `nodes`.
    public init(wire scene: WireFields) throws(WireFieldError) {
        var nodes: [WireSceneNode] = []
        for entry in try scene.records("nodes") { nodes.append(try WireSceneNode(wire: entry)) }
        try self.init(frame: scene, nodes: nodes)
    }

    /// Contract 1.1, `scene_delta`: `base` without the `removed` and `upserted` nodes (order
    /// kept), then each upserted node inserted at its `index`, lowest first; `presentation`,
    /// `chrome` and `capsules` are the delta's own, or the base's where the delta leaves them out.
    public init(delta: WireFields, base: WireScene) throws(WireFieldError) {
        var dropped: Set<WireSceneNode.Key> = []
        for entry in try delta.records("removed") {
            dropped.insert(WireSceneNode.Key(slot: try entry.string("slot"), owner: try entry.string("owner", default: ""),
                                             path: try entry.string("path")))
        }
        var upserted: [(index: Int, node: WireSceneNode)] = []
        for entry in try delta.records("upserted") {
            let node = try WireSceneNode(wire: entry)
            let index = try entry.uint("index")
            // Checked against the nodes before it when inserted; here only made an Int.
            guard let position = Int(exactly: index) else { throw entry.error("index", "position \(index) is beyond any scene") }
            dropped.insert(node.key)
            upserted.append((position, node))
        }
        var nodes = base.nodes.filter { !dropped.contains($0.key) }
        for (index, node) in upserted.sorted(by: { $0.index < $1.index }) {
            guard index <= nodes.count else {
                throw delta.error("upserted", "index \(index) is past the \(nodes.count) nodes before it")
            }
            nodes.insert(node, at: index)
        }
        try self.init(frame: delta, nodes: nodes, base: base)
    }

    /// The scene around `nodes`: `presentation`, `chrome`, `capsules` read from `frame`; for
    /// a delta, each one `frame` leaves out is `base`'s.
    private init(frame scene: WireFields, nodes: [WireSceneNode], base: WireScene? = nil) throws(WireFieldError) {
        var capsules: [CapsuleChrome] = []
        for entry in try scene.records("capsules") {
            capsules.append(CapsuleChrome(owner: try entry.string("owner", default: ""),
                                          shape: ChromeShape(rect: try entry.rect("rect"), cornerRadius: try entry.nonNegative("radius", default: 0))))
        }
        if let base, !scene.has("capsules") { capsules = base.capsules }
        var chrome: ChromeShape?
        if let shape = try scene.optionalRecord("chrome") {
            chrome = ChromeShape(rect: try shape.rect("rect"), cornerRadius: try shape.nonNegative("radius", default: 0))
        } else if let base {
            chrome = base.chrome
        }
        self.init(presentation: try scene.choice("presentation", Presentation.self, absent: base?.presentation ?? .hidden), chrome: chrome,
                  capsules: capsules, nodes: nodes)
    }
}

extension WireSceneNode {
    /// One entry of `scene.nodes` (or of `scene_delta.upserted`, whose `index` the caller
    /// reads). `props` is the entry itself, its storage shared with the decoded plan.
    public init(wire entry: WireFields) throws(WireFieldError) {
        let props = entry.fields
        var variants: [WireVariant] = []
        for variant in try entry.records("variants") { variants.append(try WireVariant(wire: variant)) }
        self.init(
            slot: try entry.string("slot"), owner: try entry.string("owner", default: ""), path: try entry.string("path"),
            kind: try entry.string("kind"), rect: try entry.rect("rect"), props: props, variants: variants)
    }
}

extension WireVariant {
    /// Reads `classes` and `conditions` (each with its own `group_path`, `""` for the node's
    /// own state); without `conditions`, `state` and `group_path`: each `group-<state>` link
    /// of `state` refers to `group_path` and other links to the node itself.
    public init(wire fields: WireFields) throws(WireFieldError) {
        classes = try fields.string("classes")
        if fields.has("conditions") {
            var conditions: [ResolvedCondition] = []
            for condition in try fields.records("conditions") {
                let group = try condition.string("group_path", default: "")
                conditions.append(ResolvedCondition(state: try condition.string("state"), groupPath: group.isEmpty ? nil : group))
            }
            self.conditions = conditions
            return
        }
        let groupPath = try fields.string("group_path", default: "")
        conditions = try fields.string("state", default: "").split(separator: ":").map { link in
            link.hasPrefix("group-")
                ? ResolvedCondition(state: String(link.dropFirst("group-".count)), groupPath: groupPath.isEmpty ? nil : groupPath)
                : ResolvedCondition(state: String(link))
        }
    }
}

extension Diagnostic {
    /// The inverse of `wireDictionary`.
    public init(wire fields: WireFields) throws(WireFieldError) {
        self.init(
            DiagnosticCode(rawValue: try fields.string("code")),
            try fields.choice("severity", DiagnosticSeverity.self, absent: .info), try fields.string("message", default: ""),
            path: try fields.string("path", default: ""), module: try fields.string("module", default: ""),
            activity: try fields.string("activity", default: ""), id: try fields.string("id", default: ""))
    }
}
