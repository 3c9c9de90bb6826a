import NookBus
import NookCore

extension RenderPlan {
    /// Reads a plan `a{sv}` as the Plan signal or the Subscribe reply carries it.
    /// - Throws: `RenderPlanError` naming the first key it cannot read.
    /// - Parameter warnings: gains one line per thing the renderer will not draw faithfully
    ///   (unknown curve types, node kinds, props).
    /// - Parameter held: the scene the renderer holds and its plan's serial, which a plan with
    ///   `scene_delta` edits; such a plan against any other base throws (the renderer then
    ///   subscribes again for a whole scene).
    init(wire value: DBusValue, held: (serial: UInt64, scene: RenderScene)? = nil, warnings: inout [String]) throws(RenderPlanError) {
        let top: [String: PropValue]
        do { top = try WireCodec.dictionary(value, at: "") } catch {
            throw RenderPlanError(key: error.path, message: error.message)
        }
        try self.init(fields: WireFields(path: "", fields: top), held: held, warnings: &warnings)
    }

    init(fields plan: WireFields, held: (serial: UInt64, scene: RenderScene)? = nil, warnings: inout [String]) throws(RenderPlanError) {
        serial = try plan.uint("serial")
        interrupts = try plan.uint("interrupts", default: 0)
        from = try plan.string("from", default: "hidden")
        to = try plan.string("to")
        conversion = try plan.string("conversion", default: "direct")
        freshWindow = try plan.bool("fresh_window", default: false)
        reduceMotion = try plan.bool("reduce_motion", default: false)
        fontFamily = try plan.optionalString("font_family").flatMap { $0.isEmpty ? nil : $0 }

        let chromeFields = try plan.record("chrome")
        let hideDip = try chromeFields.optionalDouble("hide_dip")
        chrome = ChromeMove(
            fromRect: try chromeFields.rect("from_rect"), toRect: try chromeFields.rect("to_rect"),
            fromRadius: max(0, try chromeFields.double("from_radius", default: 0)),
            toRadius: max(0, try chromeFields.double("to_radius", default: 0)),
            curve: try PlanCurve(wire: chromeFields.record("curve"), warnings: &warnings),
            hideDip: hideDip.flatMap { $0 > 0 ? $0 : nil },
            crossFade: try chromeFields.bool("cross_fade", default: false))

        var elements: [ElementTrip] = []
        for entry in try plan.records("elements") {
            elements.append(ElementTrip(
                fromPath: try entry.string("from_path"), toPath: try entry.string("to_path"), key: try entry.string("key"),
                fromRect: try entry.rect("from_rect"), toRect: try entry.rect("to_rect"),
                style: try entry.string("style", default: "resize"), crossFade: try entry.bool("cross_fade", default: false),
                hideSource: try entry.bool("hide_source", default: false), clip: try entry.string("clip", default: "chrome"),
                curve: try PlanCurve(wire: entry.record("curve"), warnings: &warnings)))
        }
        self.elements = elements

        var layout: [LayoutEntry] = []
        for entry in try plan.records("layout") {
            layout.append(LayoutEntry(
                path: try entry.string("path"), change: try entry.string("change"),
                fromRect: try entry.rect("from_rect"), toRect: try entry.rect("to_rect"),
                curve: try PlanCurve(wire: entry.record("curve"), warnings: &warnings)))
        }
        self.layout = layout

        var slots: [SlotEntry] = []
        for entry in try plan.records("slots") {
            let slot = try entry.string("slot")
            let owner = try entry.string("owner", default: "")
            let root = try entry.optionalString("path") ?? (SlotName(rawValue: slot)?.rootPath(owner: owner) ?? slot)
            var curve = try PlanCurve(wire: entry.record("curve"), warnings: &warnings)
            // `delay` repeats the curve's delay; an older sender might give it only here.
            if let delay = try entry.optionalDouble("delay"), delay > curve.delay, let delayed = try? curve.curve.withDelay(delay) {
                curve.curve = delayed
            }
            slots.append(SlotEntry(slot: slot, owner: owner, change: try entry.string("change"), rootPath: root, curve: curve))
        }
        self.slots = slots

        var reveals: [RevealEntry] = []
        for entry in try plan.records("reveals") {
            reveals.append(RevealEntry(path: try entry.string("path"), curve: try PlanCurve(wire: entry.record("curve"), warnings: &warnings)))
        }
        self.reveals = reveals

        if let delta = try plan.optionalRecord("scene_delta"), plan.fields["scene"] == nil {
            let base = try delta.uint("base")
            guard let held, held.serial == base else {
                throw RenderPlanError(key: "scene_delta.base", message: RenderPlanError.unknownBase
                                      + " (edits serial \(base); this renderer holds \(held.map { String($0.serial) } ?? "none"))")
            }
            scene = try RenderScene(delta: delta, base: held.scene, warnings: &warnings)
        } else {
            scene = try RenderScene(fields: plan.record("scene"), warnings: &warnings)
        }
        warnings += unknownWords()
    }

    /// Values of the plan's enumerations this renderer does not know: they draw as the
    /// nearest plain case (a slot that neither appears nor disappears stays; a layout change
    /// that is not a move, insert or remove applies at once; any style but `scale` resizes).
    func unknownWords() -> [String] {
        var out: [String] = []
        for (index, slot) in slots.enumerated() where !["appear", "disappear", "update", "stay"].contains(slot.change) {
            out.append("slots.\(index).change: unknown change \"\(slot.change)\", drawn as stay")
        }
        for (index, entry) in layout.enumerated() where !["move", "insert", "remove", "style"].contains(entry.change) {
            out.append("layout.\(index).change: unknown change \"\(entry.change)\", applied at once")
        }
        for (index, element) in elements.enumerated() {
            if !["resize", "scale"].contains(element.style) {
                out.append("elements.\(index).style: unknown style \"\(element.style)\", drawn as resize")
            }
            if !["chrome", "none"].contains(element.clip) {
                out.append("elements.\(index).clip: unknown clip \"\(element.clip)\", drawn unclipped")
            }
        }
        return out
    }
}

extension RenderScene {
    /// The props a scene node may carry (CONTRACT's view-node table), beyond the scene keys.
    static let knownProps: Set<String> = [
        "width", "height", "min_width", "max_width", "min_height", "max_height", "padding", "opacity",
        "classes", "expanded_classes", "group", "group_state", "identity", "role", "animation_value", "shared", "animate",
        "spacing", "alignment", "stagger", "text", "font_size", "font_weight", "monospaced_digits", "timer_end",
        "symbol", "uri", "shape", "corner_radius", "color", "value", "start", "end", "style", "min_length", "name", "params",
        // Contract 1.1, Touch: the node is a control (hit-tested, focusable, announced by its label).
        "action", "action_label",
    ]
    static let sceneKeys: Set<String> = ["slot", "owner", "path", "kind", "rect", "variants"]
    static let knownKinds: Set<String> = Set(NodeKind.allCases.map(\.rawValue))

    init(fields scene: WireFields, warnings: inout [String]) throws(RenderPlanError) {
        var nodes: [RenderNode] = []
        for entry in try scene.records("nodes") {
            nodes.append(try RenderNode(fields: entry, warnings: &warnings))
        }
        try self.init(frame: scene, nodes: nodes)
    }

    /// Contract 1.1, `scene_delta`: `base` without the `removed` and `upserted` nodes (order
    /// kept), then each upserted node inserted at its `index`, lowest first; `presentation`,
    /// `chrome` and `capsules` are the delta's own.
    init(delta: WireFields, base: RenderScene, warnings: inout [String]) throws(RenderPlanError) {
        var dropped: Set<RenderNode.Key> = []
        for entry in try delta.records("removed") {
            dropped.insert(RenderNode.Key(slot: try entry.string("slot"), owner: try entry.string("owner", default: ""),
                                          path: try entry.string("path")))
        }
        var upserted: [(index: Int, node: RenderNode)] = []
        for entry in try delta.records("upserted") {
            let node = try RenderNode(fields: entry, warnings: &warnings)
            let index = try entry.uint("index")
            // Checked against the nodes before it when inserted; here only made an Int.
            guard let position = Int(exactly: index) else {
                throw RenderPlanError(key: entry.path + ".index", message: "position \(index) is beyond any scene")
            }
            dropped.insert(node.key)
            upserted.append((position, node))
        }
        var nodes = base.nodes.filter { !dropped.contains($0.key) }
        for (index, node) in upserted.sorted(by: { $0.index < $1.index }) {
            guard index <= nodes.count else {
                throw RenderPlanError(key: "scene_delta.upserted", message: "index \(index) is past the \(nodes.count) nodes before it")
            }
            nodes.insert(node, at: index)
        }
        try self.init(frame: delta, nodes: nodes)
    }

    /// The scene around `nodes`: `presentation`, `chrome`, `capsules` read from `frame`.
    private init(frame scene: WireFields, nodes: [RenderNode]) throws(RenderPlanError) {
        var capsules: [CapsuleShape] = []
        for entry in try scene.records("capsules") {
            capsules.append(CapsuleShape(owner: try entry.string("owner", default: ""), rect: try entry.rect("rect"),
                                         radius: max(0, try entry.double("radius", default: 0))))
        }
        var chrome: ChromeShape?
        if let shape = try scene.optionalRecord("chrome") {
            chrome = ChromeShape(rect: try shape.rect("rect"), radius: max(0, try shape.double("radius", default: 0)))
        }
        self.init(presentation: try scene.string("presentation", default: ""), chrome: chrome, capsules: capsules, nodes: nodes)
    }
}

extension RenderNode {
    /// A node's identity across scenes (contract 1.1, `scene_delta`).
    struct Key: Hashable {
        var slot: String
        var owner: String
        var path: String
    }

    var key: Key { Key(slot: slot, owner: owner, path: path) }

    /// Keys of a `scene_delta.upserted` entry that are not props.
    static let deltaKeys: Set<String> = RenderScene.sceneKeys.union(["index"])

    /// One entry of `scene.nodes` (or of `scene_delta.upserted`, whose `index` is not a prop).
    init(fields entry: WireFields, warnings: inout [String]) throws(RenderPlanError) {
        let path = try entry.string("path")
        let kind = try entry.string("kind")
        if !RenderScene.knownKinds.contains(kind) {
            warnings.append("\(path): unknown node kind \"\(kind)\", its children drawn without it")
        }
        var props: [String: PropValue] = [:]
        for (key, value) in entry.fields where !Self.deltaKeys.contains(key) {
            props[key] = value
            if !RenderScene.knownProps.contains(key) { warnings.append("\(path): unknown prop \"\(key)\" ignored") }
        }
        var variants: [RenderVariant] = []
        for variant in try entry.records("variants") {
            variants.append(try RenderVariant(fields: variant))
        }
        self.init(
            slot: try entry.string("slot"), owner: try entry.string("owner", default: ""), path: path, kind: kind,
            rect: try entry.rect("rect"), props: props, variants: variants)
    }
}

extension RenderVariant {
    /// Reads `state`, `group_path`, `classes`, and the `conditions` addition when present
    /// (each condition with its own group). Without `conditions`, each `group-<state>` link of
    /// `state` refers to `group_path` and other links to the node itself.
    init(fields: WireFields) throws(RenderPlanError) {
        classes = try fields.string("classes")
        let listed = try fields.records("conditions")
        if !listed.isEmpty {
            var conditions: [Condition] = []
            for condition in listed {
                conditions.append(Condition(state: try condition.string("state"), groupPath: try condition.string("group_path", default: "")))
            }
            self.conditions = conditions
            return
        }
        let groupPath = try fields.string("group_path", default: "")
        let state = try fields.string("state", default: "")
        conditions = state.split(separator: ":").map { link in
            link.hasPrefix("group-")
                ? Condition(state: String(link.dropFirst("group-".count)), groupPath: groupPath)
                : Condition(state: String(link), groupPath: "")
        }
    }
}
