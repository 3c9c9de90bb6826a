/// Rule 21: a plan that starts while another is in flight starts every element, and the
/// chrome, from where it is now.
///
/// For anything the in-flight plan was moving (the chrome; an element whose destination
/// node is the new move's origin; a layout `move` at the same path) the new start is the rect
/// sampled on the running curve at the elapsed time, and its velocity (points per second per
/// rect component) is the running curve's progress velocity times the running move's extent.
/// The new curve starts with that velocity projected onto its own move (see
/// `RectMath.progressVelocity`); springs honour it, timed curves start at rest.
/// The running plan is passed to each `apply` rather than held: holding it meant copying a
/// whole plan per interruption.
struct Interruption {
    let elapsed: Double

    /// `elapsed`: seconds into the running plan (`InFlightPlan.elapsed`).
    init(elapsed: Double) {
        self.elapsed = elapsed.isFinite ? max(0, elapsed) : 0
    }

    /// Where a running move from `a` to `b` on `curve` is now, and how fast it goes.
    func sample(from a: Rect, to b: Rect, on curve: Curve) -> (rect: Rect, velocity: RectVelocity) {
        let progress = curve.value(at: elapsed)
        let speed = curve.velocity(at: elapsed)
        var rect = RectMath.lerp(a, b, progress)
        // A spring overshooting a shrink passes below the smaller size; no shape is smaller
        // than empty, so the next plan starts from an empty size there, not a negative one.
        rect.size = Size(width: max(0, rect.width), height: max(0, rect.height))
        return (rect, RectMath.velocity(from: a, to: b, progressVelocity: speed))
    }

    /// Restarts `curve` (towards `target`, from `start`) with `velocity`.
    static func continuing(_ curve: Curve, velocity: RectVelocity, from start: Rect, to target: Rect) -> Curve {
        let progress = RectMath.progressVelocity(velocity, from: start, to: target)
        return (try? curve.withInitialVelocity(progress)) ?? curve
    }

    /// A running dissolve (rule 18) shows two whole shapes, no shape in between: the new plan
    /// starts from the more visible one, the running plan's destination once its fade is
    /// half done, else its origin. A new dissolve takes no velocity: nothing moves.
    func apply(to chrome: inout ChromePlan, running plan: TransitionPlan) {
        let running = plan.chrome
        let progress = running.curve.value(at: elapsed)
        if running.crossFade {
            let landed = progress >= 0.5
            chrome.fromRect = landed ? running.toRect : running.fromRect
            chrome.fromRadius = landed ? running.toRadius : running.fromRadius
            return
        }
        let now = sample(from: running.fromRect, to: running.toRect, on: running.curve)
        chrome.fromRect = now.rect
        // A spring overshoots: past its target a radius headed for 0 would go negative.
        chrome.fromRadius = max(0, RectMath.lerp(running.fromRadius, running.toRadius, progress))
        guard !chrome.crossFade else { return }
        chrome.velocity = now.velocity
        chrome.curve = Self.continuing(chrome.curve, velocity: now.velocity, from: chrome.fromRect, to: chrome.toRect)
    }

    func apply(to elements: inout [ElementMove], running plan: TransitionPlan) {
        var running: [String: ElementMove] = [:]
        for element in plan.elements where running[element.toPath] == nil { running[element.toPath] = element }
        for index in elements.indices {
            guard let was = running[elements[index].fromPath] else { continue }
            let now = sample(from: was.fromRect, to: was.toRect, on: was.curve)
            elements[index].fromRect = now.rect
            elements[index].velocity = now.velocity
            elements[index].curve = Self.continuing(
                elements[index].curve, velocity: now.velocity, from: now.rect, to: elements[index].toRect)
        }
    }

    func apply(to layout: inout [LayoutChange], running plan: TransitionPlan) {
        var running: [String: LayoutChange] = [:]
        for change in plan.layout where change.change == .move { running[change.path] = change }
        for index in layout.indices where layout[index].change == .move {
            guard let was = running[layout[index].path] else { continue }
            let now = sample(from: was.fromRect, to: was.toRect, on: was.curve)
            layout[index].fromRect = now.rect
            layout[index].curve = Self.continuing(layout[index].curve, velocity: now.velocity, from: now.rect, to: layout[index].toRect)
        }
    }
}
