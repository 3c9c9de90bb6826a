import NookCore

/// A received plan, decoded into what a renderer needs: the contract's plan `a{sv}` with its
/// keys typed (CONTRACT, "The plan `a{sv}`"; additions in docs/planner.md).
struct RenderPlan: Hashable, Sendable {
    var serial: UInt64
    var interrupts: UInt64
    var from: String
    var to: String
    var conversion: String
    var freshWindow: Bool
    var reduceMotion: Bool
    var chrome: ChromeMove
    var elements: [ElementTrip]
    var layout: [LayoutEntry]
    var slots: [SlotEntry]
    var reveals: [RevealEntry]
    var scene: RenderScene
    /// The family the broker measured the scene's text in (`font_family`); nil from a broker
    /// that does not say, when the renderer's own `font` applies.
    var fontFamily: String?

    /// Seconds (of plan time) until everything is at rest.
    var duration: Double {
        var longest = chrome.curve.totalDuration
        for element in elements { longest = max(longest, element.curve.totalDuration) }
        for change in layout { longest = max(longest, change.curve.totalDuration) }
        for slot in slots { longest = max(longest, slot.curve.totalDuration) }
        for reveal in reveals { longest = max(longest, reveal.curve.totalDuration) }
        return longest
    }
}

/// The chrome's morph (or, with `crossFade`, its dissolve).
struct ChromeMove: Hashable, Sendable {
    var fromRect: Rect
    var toRect: Rect
    var fromRadius: Double
    var toRadius: Double
    var curve: PlanCurve
    /// Seconds at `hidden` before growing (`via_hidden`, rule 13), else nil.
    var hideDip: Double?
    /// Rule 18: dissolve from the from-shape to the to-shape on `curve`, never in between.
    var crossFade = false
}

/// One shared element's trip (the plan's `elements` entry).
struct ElementTrip: Hashable, Sendable {
    var fromPath: String
    var toPath: String
    var key: String
    var fromRect: Rect
    var toRect: Rect
    /// `resize` or `scale` (anything else draws as `resize`).
    var style: String
    var crossFade: Bool
    var hideSource: Bool
    /// `chrome` or `none`.
    var clip: String
    var curve: PlanCurve
}

/// A content transition of one node (`layout` entry): `move`, `insert`, `remove`, `style`.
struct LayoutEntry: Hashable, Sendable {
    var path: String
    var change: String
    var fromRect: Rect
    var toRect: Rect
    var curve: PlanCurve
}

/// What a slot does: `appear`, `disappear`, `update`, `stay`.
struct SlotEntry: Hashable, Sendable {
    var slot: String
    var owner: String
    var change: String
    /// The slot's root path in its scene (`expanded`, `timer/tea:minimal`).
    var rootPath: String
    var curve: PlanCurve

    var identity: SlotKey { SlotKey(slot: slot, owner: owner) }
}

/// A delayed row of appearing content (`reveals`, rule 11).
struct RevealEntry: Hashable, Sendable {
    var path: String
    var curve: PlanCurve
}

/// A slot by name and owner: what stays the same while a slot stays on screen.
struct SlotKey: Hashable, Sendable {
    var slot: String
    var owner: String
}

/// The plan's `scene`: the destination, laid out.
struct RenderScene: Hashable, Sendable {
    var presentation: String
    var chrome: ChromeShape?
    var capsules: [CapsuleShape]
    /// In the plan's order: slot order, then preorder (parents before children).
    var nodes: [RenderNode]
    /// `nodes` index by path.
    var index: [String: Int]
    /// Paths of nodes marked `suppressed` (contract 1.1, rule 10): never drawn in place, nor
    /// anything inside them.
    var suppressed: Set<String>

    init(presentation: String, chrome: ChromeShape?, capsules: [CapsuleShape], nodes: [RenderNode]) {
        self.presentation = presentation
        self.chrome = chrome
        self.capsules = capsules
        self.nodes = nodes
        var index: [String: Int] = [:]
        var suppressed: Set<String> = []
        for (position, node) in nodes.enumerated() {
            if index[node.path] == nil { index[node.path] = position }
            if node.props["suppressed"] == .bool(true) { suppressed.insert(node.path) }
        }
        self.index = index
        self.suppressed = suppressed
    }

    static let empty = RenderScene(presentation: "hidden", chrome: nil, capsules: [], nodes: [])

    func node(at path: String) -> RenderNode? { index[path].map { nodes[$0] } }
}

/// A capsule beside the pill (`scene.capsules`).
struct CapsuleShape: Hashable, Sendable {
    var owner: String
    var rect: Rect
    var radius: Double
}

/// One laid-out node of a scene.
struct RenderNode: Hashable, Sendable {
    var slot: String
    var owner: String
    var path: String
    /// The contract's kind string; unknown kinds draw nothing themselves.
    var kind: String
    var rect: Rect
    /// The node's own props (everything but the scene keys `slot`, `owner`, `path`, `kind`,
    /// `rect`, `variants`).
    var props: [String: PropValue]
    var variants: [RenderVariant]
    /// Read once when the plan arrives, since frames reuse them: the drawing utilities of
    /// `classes` at rest, the parent's path, the `opacity` prop.
    var baseStyle: ClassStyle
    var parentPath: String?
    var opacity: Double

    init(slot: String, owner: String, path: String, kind: String, rect: Rect, props: [String: PropValue], variants: [RenderVariant]) {
        self.slot = slot
        self.owner = owner
        self.path = path
        self.kind = kind
        self.rect = rect
        self.props = props
        self.variants = variants
        var style = ClassStyle()
        // A class naming a theme rule arrives expanded (`expanded_classes`): renderers never see `rules.named`.
        if case .string(let classes)? = props["expanded_classes"] ?? props["classes"] { style.apply(classes) }
        baseStyle = style
        parentPath = path.lastIndex(of: "/").map { String(path[..<$0]) }
        opacity = min(max(NodeContent.number(props["opacity"]) ?? 1, 0), 1)
    }

    var slotKey: SlotKey { SlotKey(slot: slot, owner: owner) }
}

/// A resolved parent-state variant (rule 23): applies `classes` while every condition holds.
struct RenderVariant: Hashable, Sendable {
    struct Condition: Hashable, Sendable {
        /// `hover`, `pressed`, `active`, `focus`, `disabled`, ...
        var state: String
        /// The group node whose state counts; `""` for the node's own state.
        var groupPath: String
    }

    var conditions: [Condition]
    var classes: String
}
