import NookCore

/// Turns the plans a renderer receives into what to draw at any instant. No toolkit, no
/// clock, no I/O: the shell feeds it plans and times and paints the `DisplayList`s it returns.
///
/// ## Time
/// Every time is in seconds of the shell's own monotonic frame clock (GTK's frame clock,
/// `g_get_monotonic_time() / 1e6`, anything that never jumps). `receive(_:at:)` starts a plan
/// at the given time; `frame(at:)` samples every curve at `(time - start) / timeScale`.
/// Curves are NookCore's own (`Curve`: spring, Bézier, linear, none, with `delay`), so the
/// renderer, the broker's planner and nookctl agree on every value; a curve carrying
/// `samples` is read from them instead. Once a curve's time is up it sits exactly at its end
/// (a spring only settles to within 0.1%). Keep the frame clock ticking while
/// `isAnimating(at:)` is true, and once a second otherwise while `showsLiveClock` (countdowns
/// and `start`/`end` progress read `unixTime`, the wall clock, which the shell passes
/// separately so slow motion never slows a countdown).
///
/// ## Slow motion
/// `timeScale = 4` makes every curve take four times longer (demos, screenshot tests). It
/// applies to plan time as a whole, so change it between plans, not during one.
///
/// ## Interruptions (rule 21)
/// A plan that arrives while the previous one still moves (or that names it in `interrupts`)
/// starts the chrome, every shared element whose `key` travelled to the node it leaves
/// from, every layout `move` at a path that moved and every slot that was fading from what
/// is presented at that instant, not from the plan's `from_rect`s. The broker plans from
/// its own estimate of the elapsed time; the renderer knows the truth, so motion stays
/// continuous whatever the latency. A spring taking over also starts with the velocity
/// presented at that instant, projected onto its new move (the planner's rule 21 formula:
/// its own `initial_velocity` assumed its `from_rect`); timed curves start at rest. A
/// `fresh_window` plan never continues anything.
///
/// ## What a frame holds
/// `DisplayList.chrome` (nil while hidden: an empty shape, the hide dip of a `via_hidden`
/// open, or once a hide has finished), then items back to front: capsule backgrounds (black
/// `capsule` shapes), the previous scene's disappearing slots and `remove`d nodes fading out,
/// the new scene's nodes (appearing slots and delayed rows fading in, layout moves at their
/// interpolated rects), all clipped to the chrome of that instant except capsule content,
/// and last the travelling shared elements (`sharedKey` set), clipped to the chrome when
/// their `clip` is `chrome`. A `scale` element's items carry `layoutSize`:
/// lay out at that size and scale into `rect`. A `resize` element's children are placed by
/// mapping their destination rects proportionally into the moving rect. With `cross_fade`
/// the old node fades out and the new one in, both at the moving rect. `hide_source` hides
/// the node at `from_path` for the whole plan (the pill copy while the peek is open).
/// Layout `style` entries run opacity, scale and colours from the old node's look.
/// Reduce Motion: elements do not travel and layout moves jump; only fades remain. A plan
/// whose chrome says `cross_fade` (rule 18) dissolves the chrome instead of morphing it:
/// `chrome` is the destination shape and `fadingChrome` the origin, with opacities set for
/// painting (see `DisplayList`); leaving content is clipped to the origin, the new scene to
/// the destination. Interrupted, a dissolve hands over the shape presented: its origin
/// until half-way, then its destination (also what `chromeRect(at:)` answers).
///
/// ## Variants and classes (rule 23)
/// Each node's drawing utilities apply at rest (`opacity-50`, `bg-white/10` as a rounded
/// rect behind the node with path `<path>#background`, `rounded-lg` for that rect's corners,
/// `text-sky-400` as the text colour, symbol tint and progress tint, `scale-105` about the
/// node's centre, with `layoutSize` set so the painter scales, `text-center`), inherited by
/// the node's subtree for opacity, scale and colour. Symbols are tinted white unless a
/// class says otherwise; `uri` pictures draw as they are (tint nil). Text without an
/// alignment class sits in its rect as its stack aligns it (centre by default, leading in
/// an `hstack`), so a toolkit whose text is wider or narrower than the broker measured stays
/// where the layout meant it. A resolved variant applies too
/// while its conditions hold: `hover` when `pointer.location` is inside the rect of the node
/// at its `group_path` (the node itself when empty), `pressed`/`active` when that is so and
/// `pointer.isPressed`, and `focus`/`disabled`/`active` from the group node's `group_state`.
/// Unknown classes are ignored and listed once in `warnings`.
///
/// ## Controls (contract 1.1, Touch)
/// Each drawn node carrying `action` is listed in `DisplayList.controls` at its rect of that
/// instant, for `DisplayList.control(at:)` and `PressTracker`; `controlsAtRest` gives the
/// current scene's controls in reading order for `KeyboardFocus`, and `frame(at:...focus:)`
/// applies the focused control's `focus` variants and adds its `FocusRing`.
///
/// ## Custom views
/// `view` nodes whose `name` is in `customViews` become `.custom` items (their `params` as
/// strings) and their children, the module's fallback body, are not drawn. Other custom views
/// draw their children.
///
/// ```swift
/// var presenter = PlanPresenter()
/// try presenter.receive(planValue, at: clock.now)
/// let list = presenter.frame(at: clock.now, unixTime: wallClock.now, pointer: pointer)
/// if presenter.isAnimating(at: clock.now) { widget.queueDraw() }
/// ```
public struct PlanPresenter: Sendable {
    /// Slow motion: every curve takes `timeScale` times longer (1 = real speed).
    public var timeScale: Double = 1
    /// Custom view names the toolkit draws itself.
    public var customViews: Set<String> = ["CoverArt", "EqualizerBars"]
    /// The colour of text, symbols, shapes and progress whose node and classes set none
    /// (the renderer config's `colors.text`); a node's `color` and `text-*` classes still win.
    public var defaultForeground = RGBA.white

    var playback: Playback?
    /// The scene before the current plan's: where disappearing slots, removed nodes, element
    /// sources and cross-faded old copies are found.
    var previousScene: RenderScene = .empty
    /// The serial of the plan `previousScene` came with: what leaving content's controls name.
    var previousSerial: UInt64 = 0
    /// What the last plan has that cannot be drawn faithfully (unknown node kinds, props,
    /// classes, curve types), one line each; replaced by every plan received.
    public private(set) var warnings: [String] = []

    public init() {}

    /// The last plan's serial (0 before any).
    public var serial: UInt64 { playback?.plan.serial ?? 0 }
    /// The last plan's `to` (`hidden` before any).
    public var presentation: Presentation { playback?.plan.to ?? .hidden }
    /// The current plan's chrome move as read (a compact plan may leave its rects out).
    /// The plan's `to_content` (`activity:<module>/<activity>`, `home:<module>`, `board`, "").
    public var toContent: String { playback?.plan.toContent ?? "" }
    public var chromeMove: (from: Rect, to: Rect)? { playback.map { ($0.plan.chrome.fromRect, $0.plan.chrome.toRect) } }
    /// The font family the current plan's text was measured in (`font_family`), if it says.
    public var fontFamily: String? { playback.flatMap { $0.plan.fontFamily.isEmpty ? nil : $0.plan.fontFamily } }
    /// How `resize` elements measure text when laid out again in flight (rule 5): the
    /// renderer's toolkit, ideally, so the text fits what it draws; `.estimate` by default.
    public var textMeasurement: TextMeasurement = .estimate

    /// True when the current scene shows something that changes by the wall clock's second
    /// (a `timer_end` countdown, a progress with `start` and `end`): redraw once a second for
    /// it even when nothing moves. With none of these and no `liveFrameRate`, nothing on screen
    /// changes between plans and the renderer draws nothing.
    public var showsLiveClock: Bool {
        playback?.plan.scene.nodes.contains(where: Self.changesBySecond) ?? false
    }

    static func changesBySecond(_ node: WireSceneNode) -> Bool {
        (node.kind == "text" && node.props[.timerEnd] != nil)
            || (node.kind == "progress" && node.props[.start] != nil && node.props[.end] != nil)
    }

    /// Where `list` draws what changes by the second (countdowns, progress against the clock):
    /// what the second tick repaints, and nothing else.
    public func secondRects(in list: DisplayList) -> [Rect] {
        guard let scene = playback?.plan.scene else { return [] }
        return list.items.compactMap { item in scene.node(at: item.path).flatMap { Self.changesBySecond($0) ? item.rect : nil } }
    }

    /// A custom view the clock moves: the param that must be `"true"` for it to move, and the
    /// frames per second it is drawn at then.
    public struct ClockDrivenView: Sendable {
        public var param: String
        public var framesPerSecond: Double
    }

    /// The custom views whose drawing reads the clock (`EqualizerBars` moves while `playing`,
    /// at 30 frames a second: its bars follow a sine of about a third of a hertz, smooth at 30).
    public static let clockDrivenViews: [String: ClockDrivenView] = ["EqualizerBars": ClockDrivenView(param: "playing", framesPerSecond: 30)]

    /// The frames per second the moving custom views of the current scene are drawn at (the
    /// fastest), or nil when none moves: the renderer redraws only their rects at that rate.
    public var liveFrameRate: Double? {
        var fastest: Double?
        for node in playback?.plan.scene.nodes ?? [] {
            guard let view = Self.clockDriven(node, customViews: customViews) else { continue }
            fastest = max(fastest ?? 0, view.framesPerSecond)
        }
        return fastest
    }

    /// Where `list` draws moving custom views: what a live frame repaints.
    public static func liveRects(in list: DisplayList) -> [Rect] {
        list.items.compactMap { item in
            guard case .custom(let name, let properties) = item.content, let view = clockDrivenViews[name],
                  properties[view.param] == "true" else { return nil }
            return item.rect
        }
    }

    static func clockDriven(_ node: WireSceneNode, customViews: Set<String>) -> ClockDrivenView? {
        guard node.kind == "view", case .string(let name)? = node.props[.name], customViews.contains(name),
              let view = clockDrivenViews[name] else { return nil }
        // Read as the drawing reads it (`NodeContent`: each param as text).
        guard case .dictionary(let params)? = node.props[.params], let value = params[view.param] else { return nil }
        return NodeContent.text(value) == "true" ? view : nil
    }

    /// Seconds of plan time at frame-clock `time`.
    func planTime(_ time: Double, of playback: Playback) -> Double {
        let scale = timeScale.isFinite && timeScale > 0 ? timeScale : 1
        return (time - playback.start) / scale
    }

    /// Decodes and starts a plan (the Plan signal's or Subscribe reply's `a{sv}`) at `time`.
    /// - Throws: `RenderPlanError` naming the key it cannot read; the presenter then keeps
    ///   playing the previous plan.
    public mutating func receive(_ plan: PropValue, at time: Double) throws(RenderPlanError) {
        var found: [String] = []
        let decoded = try RenderPlan(wire: plan, held: playback.map { ($0.plan.serial, $0.plan.scene) }, warnings: &found)
        found += Self.classWarnings(decoded.scene)
        var next = Playback(plan: decoded, start: time)
        if let current = playback {
            let elapsed = planTime(time, of: current)
            // Continue from what is on screen when the last plan still moves here, or when the
            // broker says this plan interrupts it (its estimate of the elapsed time may differ).
            let interrupts = decoded.interrupts != 0 && decoded.interrupts == current.plan.serial
            if !decoded.freshWindow, interrupts || current.isAnimating(at: elapsed) { next.continueFrom(current, at: elapsed) }
            previousScene = current.plan.scene
            previousSerial = current.plan.serial
        }
        next.prepareRelayouts(previous: previousScene)
        playback = next
        var seen: Set<String> = []
        warnings = found.filter { seen.insert($0).inserted }
    }

    /// What to draw at `time`.
    /// - Parameters:
    ///   - unixTime: seconds since 1970, for `timer_end` countdowns and `start`/`end` progress.
    ///   - pointer: where the pointer is, for `hover`/`pressed` variants.
    ///   - focus: the control with keyboard focus (`KeyboardFocus.focused`), for `focus`
    ///     variants and the focus ring.
    public func frame(at time: Double, unixTime: Double, pointer: PointerState = PointerState(),
                      focus: ControlNode? = nil) -> DisplayList {
        guard let playback else { return DisplayList() }
        return frame(of: playback, planTime: planTime(time, of: playback), unixTime: unixTime, pointer: pointer, focus: focus)
    }

    func frame(of playback: Playback, planTime: Double, unixTime: Double, pointer: PointerState, focus: ControlNode?) -> DisplayList {
        var builder = FrameBuilder(
            playback: playback, previous: previousScene, time: planTime, unixTime: unixTime,
            pointer: pointer, customViews: customViews)
        builder.defaultForeground = defaultForeground
        builder.textMeasurement = textMeasurement
        builder.previousSerial = previousSerial
        builder.focus = focus
        return builder.build()
    }

    /// The current scene's controls once its plan has settled, in reading order (the scene's:
    /// slot by slot, each view's nodes as its stacks lay them out, parents before children):
    /// what Tab cycles through. Controls not drawn at rest (opacity 0, suppressed, hidden
    /// sources) are left out.
    public var controlsAtRest: [SceneControl] {
        guard let playback else { return [] }
        let rest = frame(of: playback, planTime: playback.plan.duration, unixTime: 0, pointer: PointerState(), focus: nil)
        var seen: Set<ControlNode> = []
        return rest.controls.map(\.control).filter { $0.target.serial == playback.plan.serial && seen.insert($0.node).inserted }
    }

    /// True while any curve of the current plan still moves at `time`.
    public func isAnimating(at time: Double) -> Bool {
        guard let playback else { return false }
        return playback.isAnimating(at: planTime(time, of: playback))
    }

    /// Where the current plan's chrome comes to rest while that plan still moves at `time`
    /// (nil once it rests, or when it ends hidden): the pointer counts as over the nook there
    /// too, so a nook growing under the pointer (hovering a capsule opens the panel over it)
    /// is not left before it arrives.
    public func arrivingChrome(at time: Double) -> Rect? {
        guard let playback, playback.plan.to != .hidden, playback.isAnimating(at: planTime(time, of: playback)) else { return nil }
        let rect = playback.plan.chrome.toRect
        return rect.width > 0 && rect.height > 0 ? rect : nil
    }

    /// The chrome's rect at `time` (for hit-testing a click on the pill); nil while hidden.
    public func chromeRect(at time: Double) -> Rect? {
        guard let playback else { return nil }
        return playback.visibleChrome(at: planTime(time, of: playback))?.rect
    }

    /// One line per class in the scene that no renderer utility or broker family explains,
    /// naming the first node that uses it.
    static func classWarnings(_ scene: RenderScene) -> [String] {
        var out: [String] = []
        var seen: Set<String> = []
        for node in scene.nodes {
            var strings: [String] = []
            if case .string(let classes)? = node.props[scene: .expandedClasses] ?? node.props[.classes] { strings.append(classes) }
            strings += node.variants.map(\.classes)
            for classes in strings {
                for unknown in ClassStyle.unknownClasses(in: classes) where seen.insert(unknown).inserted {
                    out.append("\(node.path): unknown class \"\(unknown)\" ignored")
                }
            }
        }
        return out
    }
}
