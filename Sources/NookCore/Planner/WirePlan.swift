// `wireDictionary`'s plan written token by token into a `WireWriter`: the same entries with
// the same values and types, in the order D-Bus gets them (keys sorted). Each dictionary's keys
// are written in that order by hand here; `WireTapeTests` checks every plan's tape against
// `wireDictionary` and the order of its keys, and `WireTapeMessageTests` the bytes NookBus writes.

/// A plan ready to go on the wire, to every renderer that shares its inputs: the plan, with
/// its `scene_delta` against their base worked out once. nookd writes it straight into each
/// renderer's message (`write(into:)` with NookBus's message writer), so the plan has no form
/// between its model and the message; a `WireTape` of it is for tests and tools.
public struct WirePlan: Sendable {
    public let plan: TransitionPlan
    private let delta: PlanWriter.Delta?
    private let writer: PlanWriter

    /// The contract's plan `a{sv}` as `wireDictionary(sampleRate:base:compact:)` gives it (see
    /// there for the parameters).
    public init(_ plan: TransitionPlan, sampleRate: Double? = nil, base: (serial: UInt64, scene: PlannerScene)? = nil, compact: Bool = false) {
        self.plan = plan
        delta = plan.freshWindow ? nil : base.flatMap { base in plan.scene.wireDeltaNodes(from: base.scene).map { (base, $0) } }
        writer = PlanWriter(sampleRate: sampleRate, compact: compact && delta != nil)
    }

    /// Writes the plan's entries into `output`, in wire order.
    public func write<Output: WireWriter>(into output: inout Output) {
        writer.plan(plan, delta: delta, into: &output)
    }

    /// The same into a `WireTokenSink`, compiled for it here: what NookBus writes messages with.
    public func write(into sink: inout WireTokenSink) {
        writer.plan(plan, delta: delta, into: &sink)
    }

    /// The plan as a tape (tests, tools, the benchmarks' baselines).
    public var tape: WireTape {
        var tape = WireTape(reservingCapacity: estimatedTokenCount)
        write(into: &tape)
        return tape
    }

    /// About how many tokens the tape takes, so it is allocated once. Counts are rough, per
    /// entry with its curve; too few only costs a growth.
    private var estimatedTokenCount: Int {
        let sceneNodes = delta.map { $0.nodes.upserted.count + $0.nodes.removed.count }
            ?? plan.scene.slots.reduce(0) { $0 + $1.laidOut.layout.count }
        return 48 + 32 * plan.elements.count + 17 * (plan.layout.count + plan.slots.count + plan.reveals.count)
            + 6 * plan.diagnostics.count + 12 * sceneNodes + 5 * plan.scene.layout.capsules.count
    }
}

extension TransitionPlan {
    /// The contract's plan `a{sv}` as `wireDictionary(sampleRate:base:compact:)` gives it, as a
    /// tape (`WirePlan`).
    public func wireTape(
        sampleRate: Double? = nil, base: (serial: UInt64, scene: PlannerScene)? = nil, compact: Bool = false
    ) -> WireTape {
        WirePlan(self, sampleRate: sampleRate, base: base, compact: compact).tape
    }
}

/// Writes a plan's entries, keys in order.
struct PlanWriter: Sendable {
    let sampleRate: Double?
    /// Compact and a delta (`compact_plans` applies to plans carrying `scene_delta` only).
    let compact: Bool

    init(sampleRate: Double?, compact: Bool) {
        self.sampleRate = sampleRate
        self.compact = compact
    }

    typealias Delta = (base: (serial: UInt64, scene: PlannerScene), nodes: PlannerScene.WireDeltaNodes)

    func plan<W: WireWriter>(_ plan: TransitionPlan, delta: Delta?, into tape: inout W) {
        if !plan.boardCells.isEmpty {
            tape.array("board_cells", of: plan.boardCells) { tape, cell in
                tape.append(.string(key: "owner", cell.owner))
                tape.append(.rect(key: "rect", cell.rect))
            }
        }
        tape.append(.string(key: "cause", plan.cause.rawValue))
        if !plan.causes.isEmpty {
            tape.append(.array(key: "causes", of: .string))
            for cause in plan.causes { tape.append(.stringItem(cause.rawValue)) }
            tape.append(.end)
        }
        chrome(plan.chrome, scene: plan.scene, into: &tape)
        tape.append(.string(key: "conversion", plan.conversion.rawValue))
        tape.array("diagnostics", of: plan.diagnostics) { tape, diagnostic in tape.merging(diagnostic.wireDictionary, into: []) }
        tape.array("elements", of: plan.elements) { tape, element in self.element(element, into: &tape) }
        tape.append(.string(key: "font_family", plan.fontFamily))
        tape.append(.bool(key: "fresh_window", plan.freshWindow))
        tape.append(.string(key: "from", plan.from.rawValue))
        tape.append(.string(key: "from_content", plan.fromContent))
        tape.append(.uint(key: "interrupts", plan.interrupts))
        tape.array("layout", of: plan.layout) { tape, change in
            tape.append(.string(key: "change", change.change.rawValue))
            self.curve(change.curve, into: &tape)
            tape.append(.rect(key: "from_rect", change.fromRect))
            tape.append(.string(key: "path", change.path))
            tape.append(.rect(key: "to_rect", change.toRect))
        }
        tape.append(.bool(key: "reduce_motion", plan.reduceMotion))
        tape.array("reveals", of: plan.reveals) { tape, reveal in
            self.curve(reveal.curve, into: &tape)
            tape.append(.double(key: "delay", reveal.delay))
            tape.append(.string(key: "path", reveal.path))
        }
        if let delta {
            sceneDelta(plan.scene, delta: delta, into: &tape)
        } else {
            scene(plan.scene, into: &tape)
        }
        tape.append(.uint(key: "serial", plan.serial))
        tape.array("slots", of: plan.slots) { tape, slot in
            tape.append(.string(key: "change", slot.change.rawValue))
            self.curve(slot.curve, into: &tape)
            // Compact: a delay that repeats its curve's is left out.
            if !compact || slot.delay != slot.curve.delay { tape.append(.double(key: "delay", slot.delay)) }
            tape.append(.string(key: "owner", slot.owner))
            tape.append(.string(key: "path", slot.rootPath))
            tape.append(.string(key: "slot", slot.slot.rawValue))
        }
        tape.append(.string(key: "to", plan.to.rawValue))
        tape.append(.string(key: "to_content", plan.toContent))
        if !plan.undismissible.isEmpty {
            tape.append(.array(key: "undismissible", of: .string))
            for owner in plan.undismissible { tape.append(.stringItem(owner)) }
            tape.append(.end)
        }
    }

    private func chrome<W: WireWriter>(_ chrome: ChromePlan, scene: PlannerScene, into tape: inout W) {
        tape.append(.vardict(key: "chrome"))
        // Only under Reduce Motion, so plans without it keep their exact keys.
        if chrome.crossFade { tape.append(.bool(key: "cross_fade", true)) }
        curve(chrome.curve, into: &tape)
        // Compact: the destination is left out when it is the scene's chrome, the start when it
        // is the destination (a chrome that stays put).
        if !compact || chrome.fromRadius != chrome.toRadius { tape.append(.double(key: "from_radius", chrome.fromRadius)) }
        if !compact || chrome.fromRect != chrome.toRect { tape.append(.rect(key: "from_rect", chrome.fromRect)) }
        if let dip = chrome.hideDip { tape.append(.double(key: "hide_dip", dip)) }
        if !compact || chrome.toRadius != scene.layout.chrome.cornerRadius { tape.append(.double(key: "to_radius", chrome.toRadius)) }
        if !compact || chrome.toRect != scene.layout.chrome.rect { tape.append(.rect(key: "to_rect", chrome.toRect)) }
        if let velocity = chrome.velocity { tape.append(.rect(key: "velocity", Self.rect(velocity))) }
        tape.append(.end)
    }

    private func element<W: WireWriter>(_ element: ElementMove, into tape: inout W) {
        tape.append(.string(key: "activity", element.activity))
        tape.append(.string(key: "anchor", element.anchor.rawValue))
        tape.append(.string(key: "clip", element.clip.rawValue))
        tape.append(.bool(key: "cross_fade", element.crossFade))
        curve(element.curve, into: &tape)
        tape.append(.string(key: "from_path", element.fromPath))
        tape.append(.rect(key: "from_rect", element.fromRect))
        tape.append(.string(key: "from_slot", element.fromSlot.rawValue))
        tape.append(.bool(key: "hide_source", element.hideSource))
        tape.append(.string(key: "id", element.id))
        tape.append(.string(key: "key", element.key))
        tape.append(.string(key: "module", element.module))
        tape.append(.string(key: "namespace", element.namespace.rawValue))
        tape.append(.string(key: "properties", element.properties.rawValue))
        tape.append(.string(key: "style", element.style.rawValue))
        tape.append(.string(key: "to_path", element.toPath))
        tape.append(.rect(key: "to_rect", element.toRect))
        tape.append(.string(key: "to_slot", element.toSlot.rawValue))
        if let velocity = element.velocity { tape.append(.rect(key: "velocity", Self.rect(velocity))) }
    }

    /// `Curve.wireDictionary(sampleRate:compact:)` as the entry `curve`.
    private func curve<W: WireWriter>(_ curve: Curve, into tape: inout W) {
        tape.append(.vardict(key: "curve"))
        var spring: Spring?, duration: Double?, points: CubicBezier?
        let type: String
        switch curve.kind {
        case .spring(let parameters): spring = parameters; type = "spring"
        case .bezier(let bezier, let length): points = bezier; duration = length; type = "bezier"
        case .linear(let length): duration = length; type = "linear"
        case .none: type = "none"
        }
        let full = spring != nil && !compact
        if full, let spring { tape.append(.double(key: "damping", spring.damping)) }
        if let spring { tape.append(.double(key: "damping_fraction", spring.dampingFraction)) }
        if !compact || curve.delay != 0 { tape.append(.double(key: "delay", curve.delay)) }
        if let duration { tape.append(.double(key: "duration", duration)) }
        if spring != nil, curve.initialVelocity != 0 { tape.append(.double(key: "initial_velocity", curve.initialVelocity)) }
        if full, let spring { tape.append(.double(key: "mass", spring.mass)) }
        if let points { tape.appendEntry("points", .structure(points.points.map(PropValue.double))) }
        if let spring { tape.append(.double(key: "response", spring.response)) }
        if let sampleRate { tape.appendEntry("samples", .array(curve.samples(frameRate: sampleRate).map(PropValue.double))) }
        if full, let spring { tape.append(.double(key: "settle_duration", spring.settleDuration(from: 0, velocity: curve.initialVelocity))) }
        tape.append(.string(key: "source", curve.source))
        if full, let spring { tape.append(.double(key: "stiffness", spring.stiffness)) }
        tape.append(.string(key: "type", type))
        tape.append(.end)
    }

    private func scene<W: WireWriter>(_ scene: PlannerScene, into tape: inout W) {
        tape.append(.vardict(key: "scene"))
        frame(scene, leavingOutWhatMatches: nil, isDelta: false, nodes: { tape in
            let nodes = scene.nodes
            tape.array("nodes", of: nodes) { tape, node in Self.node(node, in: scene, index: nil, into: &tape) }
        }, into: &tape)
        tape.append(.end)
    }

    private func sceneDelta<W: WireWriter>(_ scene: PlannerScene, delta: Delta, into tape: inout W) {
        tape.append(.vardict(key: "scene_delta"))
        tape.append(.uint(key: "base", delta.base.serial))
        frame(scene, leavingOutWhatMatches: compact ? delta.base.scene : nil, isDelta: true, nodes: { tape in
            tape.array("removed", of: delta.nodes.removed) { tape, key in
                tape.append(.string(key: "owner", key.owner))
                tape.append(.string(key: "path", key.path))
                tape.append(.string(key: "slot", key.slot.rawValue))
            }
            tape.array("upserted", of: delta.nodes.upserted) { tape, upsert in
                Self.node(upsert.node, in: scene, index: upsert.index, into: &tape)
            }
        }, into: &tape)
        tape.append(.end)
    }

    /// `PlannerScene.wireFrame(leavingOutWhatMatches:)`'s entries, with `nodes` writing what
    /// goes between `chrome` and `presentation` (a whole scene's `nodes`, a delta's `removed`
    /// and `upserted` after it).
    private func frame<W: WireWriter>(
        _ scene: PlannerScene, leavingOutWhatMatches base: PlannerScene?, isDelta: Bool, nodes: (inout W) -> Void,
        into tape: inout W
    ) {
        let differs = scene.wireFrameDiffers(from: base)
        if differs.capsules {
            tape.array("capsules", of: scene.layout.capsules) { tape, capsule in
                tape.append(.string(key: "owner", capsule.owner))
                tape.append(.double(key: "radius", capsule.shape.cornerRadius))
                tape.append(.rect(key: "rect", capsule.shape.rect))
            }
        }
        if differs.chrome {
            tape.append(.vardict(key: "chrome"))
            tape.append(.double(key: "radius", scene.layout.chrome.cornerRadius))
            tape.append(.rect(key: "rect", scene.layout.chrome.rect))
            tape.append(.end)
        }
        if !isDelta {
            // A whole scene: "nodes" < "presentation".
            nodes(&tape)
            if differs.presentation { tape.append(.string(key: "presentation", scene.presentation.rawValue)) }
        } else {
            // A delta: "presentation" < "removed" < "upserted".
            if differs.presentation { tape.append(.string(key: "presentation", scene.presentation.rawValue)) }
            nodes(&tape)
        }
    }

    /// `PlannerScene.wireEntry(for:)`, plus a delta's `index`.
    private static func node<W: WireWriter>(_ node: SceneNode, in scene: PlannerScene, index: Int?, into tape: inout W) {
        // Most scenes suppress nothing: no path hashed for each node of each renderer's message.
        tape.appendSceneNode(node, index: index, suppressed: !scene.suppressed.isEmpty && scene.suppressed.contains(node.path))
    }

    private static func rect(_ velocity: RectVelocity) -> Rect {
        Rect(x: velocity.x, y: velocity.y, width: velocity.width, height: velocity.height)
    }
}
