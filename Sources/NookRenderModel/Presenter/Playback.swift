import NookCore

/// One plan being played: the decoded plan, when it started, and where its interrupted
/// motions start from (rule 21: the values presented when it arrived, not the plan's
/// `from_rect`s, so nothing jumps whatever the latency between broker and renderer).
///
/// Every query takes plan time: seconds since the plan started, already divided by the
/// presenter's `timeScale`.
struct Playback: Hashable, Sendable {
    var plan: RenderPlan
    /// Frame-clock seconds at which the plan arrived.
    var start: Double
    /// The chrome as presented when this plan interrupted a moving one.
    var chromeStart: ChromeShape?
    /// By element `key`: the rect presented when the plan arrived.
    var elementStarts: [String: Rect] = [:]
    /// By layout `path`.
    var layoutStarts: [String: Rect] = [:]
    /// By slot: the opacity presented when the plan arrived.
    var slotStarts: [SlotKey: Double] = [:]
    /// `resize` elements' subtrees, ready to lay out in each frame's rect: the destination's
    /// by `to_path`, the origin's (drawn while cross-fading) by `from_path` under `from:`.
    var relayouts: [String: ElementRelayout] = [:]

    /// Prepares the relayout of each `resize` element (rule 5), `previous` being the scene the
    /// elements leave.
    mutating func prepareRelayouts(previous: RenderScene) {
        relayouts = [:]
        for element in plan.elements where element.style != .scale {
            if relayouts[element.toPath] == nil, let relayout = ElementRelayout(subtree: plan.scene.subtree(at: element.toPath)) {
                relayouts[element.toPath] = relayout
            }
            if element.crossFade, let relayout = ElementRelayout(subtree: previous.subtree(at: element.fromPath)) {
                relayouts["from:" + element.fromPath] = relayout
            }
        }
    }

    init(plan: RenderPlan, start: Double) {
        self.plan = plan
        self.start = start
    }

    var isHiddenAtRest: Bool { plan.to == .hidden }

    func isAnimating(at t: Double) -> Bool { t < plan.duration }

    // MARK: Chrome

    /// The chrome's shape at `t`, possibly empty (hidden). Via a hide dip the chrome drops to
    /// its hidden point at once, stays there for the dip, then grows into the destination.
    /// A dissolve (rule 18) presents its origin until half-way, then its destination: that is
    /// the shape an interrupting plan starts from and the one hit-testing uses.
    func chrome(at t: Double) -> ChromeShape {
        let move = plan.chrome
        if let dip = move.hideDip, dip > 0, t < dip { return chromeOrigin }
        if move.crossFade { return move.curve.fraction(at: t) >= 0.5 ? chromeDestination : chromeOrigin }
        let from = chromeOrigin
        let p = move.curve.progress(at: t)
        let rect = Self.lerp(from.rect, move.toRect, p)
        return ChromeShape(rect: Self.nonNegative(rect), radius: max(0, from.radius + (move.toRadius - from.radius) * p))
    }

    /// Where the chrome's morph starts: the presented shape when this plan took over a moving
    /// one, else the plan's `from_rect`; after a hide dip, the hidden point (the top centre).
    var chromeOrigin: ChromeShape {
        let move = plan.chrome
        if let dip = move.hideDip, dip > 0 {
            return ChromeShape(rect: Rect(x: move.fromRect.midX, y: move.fromRect.minY, width: 0, height: 0), radius: 0)
        }
        return chromeStart ?? ChromeShape(rect: move.fromRect, radius: move.fromRadius)
    }

    var chromeDestination: ChromeShape {
        ChromeShape(rect: Self.nonNegative(plan.chrome.toRect), radius: max(0, plan.chrome.toRadius))
    }

    /// Points per second (of plan time) of each chrome rect component at `t`; a dissolve
    /// never moves.
    func chromeVelocity(at t: Double) -> [Double] {
        if plan.chrome.crossFade { return [0, 0, 0, 0] }
        return Self.velocity(from: chromeOrigin.rect, to: plan.chrome.toRect, progressVelocity: plan.chrome.curve.presentedVelocity(at: t))
    }

    /// The chrome to draw at `t`: nil while hidden (an empty shape, the dip, or a finished hide).
    func visibleChrome(at t: Double) -> ChromeShape? {
        if isHiddenAtRest && t >= plan.chrome.curve.totalDuration { return nil }
        return Self.visible(chrome(at: t))
    }

    /// What `DisplayList.chrome` and `fadingChrome` hold at `t`. A morph is one shape, and so
    /// is a dissolve before it starts (its origin) and once it ends (its destination). A
    /// dissolve (rule 18) is the destination fading in over the origin fading out, neither
    /// ever in between; where they overlap nothing may show through, so the smaller shape
    /// (nested in the larger one) stays opaque and the larger one carries the dissolve.
    func chromeLayers(at t: Double) -> (destination: ChromeShape?, fading: ChromeShape?) {
        guard plan.chrome.crossFade else { return (visibleChrome(at: t), nil) }
        if isHiddenAtRest && t >= plan.chrome.curve.totalDuration { return (nil, nil) }
        let from = Self.visible(chromeOrigin), to = Self.visible(chromeDestination)
        let p = plan.chrome.curve.fraction(at: t)
        if p >= 1 || from == to { return (to, nil) }
        if p <= 0 { return (from, nil) }
        guard var destination = to, var source = from else {
            return (to.map { Self.faded($0, p) }, from.map { Self.faded($0, 1 - p) })
        }
        if Self.area(destination) <= Self.area(source) {
            source.opacity = 1 - p
        } else {
            destination.opacity = p
        }
        return (destination, source)
    }

    static func visible(_ shape: ChromeShape) -> ChromeShape? { shape.rect.width > 0 && shape.rect.height > 0 ? shape : nil }

    static func faded(_ shape: ChromeShape, _ opacity: Double) -> ChromeShape {
        ChromeShape(rect: shape.rect, radius: shape.radius, opacity: opacity)
    }

    static func area(_ shape: ChromeShape) -> Double { shape.rect.width * shape.rect.height }

    // MARK: Elements, layout and slots

    /// Shared elements travel unless Reduce Motion is on (rule 18: each copy then comes and
    /// goes with its slot).
    var travellingElements: [ElementMove] { plan.reduceMotion ? [] : plan.elements }

    func elementRect(_ element: ElementMove, at t: Double) -> Rect {
        Self.lerp(elementStarts[element.key] ?? element.fromRect, element.toRect, element.curve.progress(at: t))
    }

    func elementVelocity(_ element: ElementMove, at t: Double) -> [Double] {
        Self.velocity(from: elementStarts[element.key] ?? element.fromRect, to: element.toRect,
                      progressVelocity: element.curve.presentedVelocity(at: t))
    }

    /// A `move` layout entry's rect at `t`; Reduce Motion takes the final geometry at once.
    func layoutRect(_ entry: LayoutChange, at t: Double) -> Rect {
        guard entry.change == .move, !plan.reduceMotion else { return entry.toRect }
        return Self.lerp(layoutStarts[entry.path] ?? entry.fromRect, entry.toRect, entry.curve.progress(at: t))
    }

    func layoutVelocity(_ entry: LayoutChange, at t: Double) -> [Double] {
        guard entry.change == .move, !plan.reduceMotion else { return [0, 0, 0, 0] }
        return Self.velocity(from: layoutStarts[entry.path] ?? entry.fromRect, to: entry.toRect,
                             progressVelocity: entry.curve.presentedVelocity(at: t))
    }

    /// How opaque the slot's content is at `t`: appearing slots fade in, disappearing ones
    /// out (from the opacity presented when an interrupted fade was taken over); others 1.
    func slotOpacity(_ key: SlotKey, at t: Double) -> Double {
        guard let entry = plan.slots.first(where: { $0.identity == key }) else { return 1 }
        let f = entry.curve.fraction(at: t)
        switch entry.change {
        case .appear:
            let start = slotStarts[key] ?? 0
            return start + (1 - start) * f
        case .disappear:
            return (slotStarts[key] ?? 1) * (1 - f)
        default:
            return 1
        }
    }

    // MARK: Interruption

    /// Takes over what `previous` presents at `previousTime` (its own plan time) for every
    /// motion this plan continues: the chrome; each element whose key travelled to the node
    /// this one leaves from (in flight or landed: the presented rect is exact, the plan's
    /// `from_rect` is the broker's estimate); layout moves at the same path; fading slots.
    mutating func continueFrom(_ previous: Playback, at previousTime: Double) {
        let presented = previous.chrome(at: previousTime)
        chromeStart = presented
        if (plan.chrome.hideDip ?? 0) <= 0, !plan.chrome.crossFade {
            plan.chrome.curve.takeOver(Self.progressVelocity(
                previous.chromeVelocity(at: previousTime), from: presented.rect, to: plan.chrome.toRect))
        }
        for element in previous.travellingElements {
            for index in plan.elements.indices where plan.elements[index].key == element.key && plan.elements[index].fromPath == element.toPath {
                let start = previous.elementRect(element, at: previousTime)
                elementStarts[element.key] = start
                plan.elements[index].curve.takeOver(Self.progressVelocity(
                    previous.elementVelocity(element, at: previousTime), from: start, to: plan.elements[index].toRect))
            }
        }
        for entry in previous.plan.layout where entry.change == .move {
            for index in plan.layout.indices where plan.layout[index].path == entry.path && plan.layout[index].change == .move {
                let start = previous.layoutRect(entry, at: previousTime)
                layoutStarts[entry.path] = start
                plan.layout[index].curve.takeOver(Self.progressVelocity(
                    previous.layoutVelocity(entry, at: previousTime), from: start, to: plan.layout[index].toRect))
            }
        }
        for entry in previous.plan.slots where (entry.change == .appear || entry.change == .disappear) && entry.curve.isMoving(at: previousTime) {
            slotStarts[entry.identity] = previous.slotOpacity(entry.identity, at: previousTime)
        }
    }

    /// The progress per second a move from `a` to `b` starts with to continue `velocity`
    /// (points per second of x, y, width, height): its projection onto the move, divided by
    /// the move's length (the planner's rule 21 formula, applied to what is on screen).
    static func progressVelocity(_ velocity: [Double], from a: Rect, to b: Rect) -> Double {
        let d = [b.x - a.x, b.y - a.y, b.width - a.width, b.height - a.height]
        let lengthSquared = d.reduce(0) { $0 + $1 * $1 }
        guard lengthSquared > 1e-6 else { return 0 }
        let result = zip(d, velocity).reduce(0) { $0 + $1.0 * $1.1 } / lengthSquared
        return result.isFinite ? result : 0
    }

    static func velocity(from a: Rect, to b: Rect, progressVelocity v: Double) -> [Double] {
        [(b.x - a.x) * v, (b.y - a.y) * v, (b.width - a.width) * v, (b.height - a.height) * v]
    }

    // MARK: Geometry

    static func lerp(_ a: Rect, _ b: Rect, _ t: Double) -> Rect {
        Rect(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t,
             width: a.width + (b.width - a.width) * t, height: a.height + (b.height - a.height) * t)
    }

    static func nonNegative(_ rect: Rect) -> Rect {
        Rect(x: rect.x, y: rect.y, width: max(0, rect.width), height: max(0, rect.height))
    }
}
