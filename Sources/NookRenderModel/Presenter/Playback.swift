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

    init(plan: RenderPlan, start: Double) {
        self.plan = plan
        self.start = start
    }

    var isHiddenAtRest: Bool { plan.to == "hidden" }

    func isAnimating(at t: Double) -> Bool { t < plan.duration }

    // MARK: Chrome

    /// The chrome's shape at `t`, possibly empty (hidden). Via a hide dip the chrome drops to
    /// its hidden point at once, stays there for the dip, then grows into the destination.
    func chrome(at t: Double) -> ChromeShape {
        let move = plan.chrome
        let hiddenPoint = ChromeShape(rect: Rect(x: move.fromRect.midX, y: move.fromRect.minY, width: 0, height: 0), radius: 0)
        var from = chromeStart ?? ChromeShape(rect: move.fromRect, radius: move.fromRadius)
        if let dip = move.hideDip {
            if t < dip { return hiddenPoint }
            from = hiddenPoint
        }
        let p = move.curve.progress(at: t)
        let rect = Self.lerp(from.rect, move.toRect, p)
        return ChromeShape(rect: Self.nonNegative(rect), radius: max(0, from.radius + (move.toRadius - from.radius) * p))
    }

    /// The chrome to draw at `t`: nil while hidden (an empty shape, the dip, or a finished hide).
    func visibleChrome(at t: Double) -> ChromeShape? {
        if isHiddenAtRest && t >= plan.chrome.curve.totalDuration { return nil }
        let shape = chrome(at: t)
        return shape.rect.width > 0 && shape.rect.height > 0 ? shape : nil
    }

    // MARK: Elements, layout and slots

    /// Shared elements travel unless Reduce Motion is on (rule 18: each copy then comes and
    /// goes with its slot).
    var travellingElements: [ElementTrip] { plan.reduceMotion ? [] : plan.elements }

    func elementRect(_ element: ElementTrip, at t: Double) -> Rect {
        Self.lerp(elementStarts[element.key] ?? element.fromRect, element.toRect, element.curve.progress(at: t))
    }

    /// A `move` layout entry's rect at `t`; Reduce Motion takes the final geometry at once.
    func layoutRect(_ entry: LayoutEntry, at t: Double) -> Rect {
        guard entry.change == "move", !plan.reduceMotion else { return entry.toRect }
        return Self.lerp(layoutStarts[entry.path] ?? entry.fromRect, entry.toRect, entry.curve.progress(at: t))
    }

    /// How opaque the slot's content is at `t`: appearing slots fade in, disappearing ones
    /// out (from the opacity presented when an interrupted fade was taken over); others 1.
    func slotOpacity(_ key: SlotKey, at t: Double) -> Double {
        guard let entry = plan.slots.first(where: { $0.slot == key.slot && $0.owner == key.owner }) else { return 1 }
        let f = entry.curve.fraction(at: t)
        switch entry.change {
        case "appear":
            let start = slotStarts[key] ?? 0
            return start + (1 - start) * f
        case "disappear":
            return (slotStarts[key] ?? 1) * (1 - f)
        default:
            return 1
        }
    }

    // MARK: Interruption

    /// Takes over what `previous` presents at `previousTime` (its own plan time) for every
    /// motion this plan continues: the chrome, elements by key, layout moves by path, fading
    /// slots by name and owner.
    mutating func continueFrom(_ previous: Playback, at previousTime: Double) {
        chromeStart = previous.chrome(at: previousTime)
        for element in previous.travellingElements where element.curve.isMoving(at: previousTime) {
            if plan.elements.contains(where: { $0.key == element.key }) {
                elementStarts[element.key] = previous.elementRect(element, at: previousTime)
            }
        }
        for entry in previous.plan.layout where entry.change == "move" && entry.curve.isMoving(at: previousTime) {
            if plan.layout.contains(where: { $0.path == entry.path && $0.change == "move" }) {
                layoutStarts[entry.path] = previous.layoutRect(entry, at: previousTime)
            }
        }
        for entry in previous.plan.slots where (entry.change == "appear" || entry.change == "disappear") && entry.curve.isMoving(at: previousTime) {
            slotStarts[entry.identity] = previous.slotOpacity(entry.identity, at: previousTime)
        }
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
