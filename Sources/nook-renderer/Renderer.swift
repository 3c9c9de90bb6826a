import CGtk
import NookBus
import NookCore
import NookRenderModel

/// The GTK side: holds the presenter, paints its frames on the window's frame clock, turns
/// pointer events into `Pointer`/`Open` calls, and notices monitor changes. Every method runs
/// on the GTK main thread; the bus side reaches it only through `MainLoop.post`.
final class Renderer {
    /// Set when the window was destroyed from outside; the exit status says so.
    /// nonisolated(unsafe): touched only on the GTK main thread.
    nonisolated(unsafe) static var windowLost = false
    private var presenter = PlanPresenter()
    private var monitor: MonitorInfo
    /// The GDK monitor the window is on.
    private var gdkMonitor: OpaquePointer?
    private let nook: NookWindow
    private let images = ImageCache()
    private var text = TextPainter()
    /// `renderer.json` as last accepted (the defaults without one).
    private var config: RendererConfig
    /// `--notch`, which wins over the file's `notch`.
    private let notchOverride: RendererConfig.Notch?
    private var desktopAnimations: DesktopAnimations?
    private var configWatcher: ConfigWatcher?
    /// The `ReduceMotion` value last handed to the broker link.
    private var reduceMotion: Bool
    /// `output` names already reported as not connected.
    private var reportedMissingOutputs: Set<String> = []
    /// What the broker link was created with (`main` reads both before the bus connects).
    private var declaredAtStart: (monitor: MonitorInfo, reduceMotion: Bool)?
    /// Set once the bus is connected; pointer and display events before then are dropped,
    /// except that what changed since the link was made (a config reload, an output) is sent now.
    var link: BrokerLink? {
        didSet {
            guard let link, let start = declaredAtStart else { return }
            declaredAtStart = nil
            let (monitor, reduceMotion) = (monitor, reduceMotion)
            if !monitor.declaresSame(as: start.monitor) { declare(monitor) }
            if reduceMotion != start.reduceMotion { Task { await link.setReduceMotion(reduceMotion) } }
        }
    }

    /// The display and Reduce Motion for the broker link; sent again if they change before
    /// `link` is set.
    func declarationForLink() -> (monitor: MonitorInfo, reduceMotion: Bool) {
        declaredAtStart = (monitor, reduceMotion)
        return (monitor, reduceMotion)
    }

    /// What the plans want of the placement (`layer` and `exclusive_zone` at `auto`).
    private var placement = NookWindow.Placement()
    /// The points reserved for the resting pill below its top: the band reaches this far
    /// past the pill, so a window's top edge never meets it.
    static let reservationGap = 4.0

    private var pointer = PointerState()
    /// Presses, keys, the hand cursor and the accessible objects of controls (contract 1.1).
    private lazy var controls = ControlInput(nook: nook, scene: { [unowned self] in (presenter.controlsAtRest, presenter.presentation) },
                                             link: { [unowned self] in link })
    /// True after `enter` (or `OpenSlot` via hover) was sent and until `exit` is.
    private var pointerEntered = false
    /// Set when `exit` went out with the pointer still over the window: no hover opens until it moves.
    private var hoverNeedsMotion = false
    /// What was hovered to open the nook (a peek, a capsule), held as part of the nook until the
    /// pointer next moves: the panel that opens may be smaller than the peek and leave a pointer
    /// that did not move outside it, which is not the person leaving.
    private var hoverHold: Rect?
    /// What button 1 went down on (a capsule, the pill, a tile, the close control), until it comes up.
    private var pressedTarget: ReachTarget?
    /// What the middle button went down on, when that may be dismissed.
    private var middlePressed: ReachTarget?
    /// The pointer rects last given to the window (`acceptInput`), in display points, and the
    /// window's left edge they were given at.
    private var lastInput: [Rect] = []
    private var lastInputOriginX = 0.0
    /// Window rects kept in the input region after the window moved under the pointer, until
    /// the next pointer event (see `draw`).
    private var staleInput: [Rect] = []
    private var tickCallback: guint = 0
    private var lastChrome: Rect?
    /// The X shape last set (only where no compositor blends the window).
    private var lastShape: WindowShape?
    /// The list the last frame-clock tick built, for that frame's paint.
    private var tickFrame: TickFrame?
    /// The display list last painted, which the next frame's damage is measured from.
    private var lastPainted: DisplayList?
    /// The layer-shell surface's size in points, as last asked for (`SurfaceExtent`); elsewhere
    /// always the monitor's share (`NookWindow.size`).
    private var surfaceSize = Size(width: 0, height: 0)
    /// Whether the live-frame timer runs (`followLiveFrames`).
    private var liveFramesRunning = false
    private var lastFrameLog = ""
    private var reportedWarnings: Set<String> = []
    private var reportedOverflow = false
    /// Paints and ticks since the last plan (for `settled`).
    private var frameStats = FrameStats()
    /// `NOOK_RENDERER_FULL_REPAINT=1`: every frame repaints the whole window, as before
    /// damage-only repaint; only for measuring what `FrameDamage` saves (docs/PERFORMANCE.md).
    private let repaintsEverything = getenv("NOOK_RENDERER_FULL_REPAINT").map { String(cString: $0) == "1" } ?? false

    init(config: RendererConfig, notchOverride: RendererConfig.Notch?, slowMotion: Double) {
        self.config = config
        self.notchOverride = notchOverride
        reduceMotion = config.reduceMotion.value(desktopAnimations: DesktopAnimations.enabled)
        presenter.timeScale = slowMotion
        let (gdkMonitor, _) = MonitorInfo.monitor(for: config.output)
        self.gdkMonitor = gdkMonitor
        monitor = MonitorInfo(gdkMonitor, notch: (notchOverride ?? config.notch).size)
        nook = NookWindow.make(on: monitor, gdkMonitor: config.output == .focused ? nil : gdkMonitor, config: config)
        surfaceSize = NookWindow.size(on: monitor)
        images.scale = monitor.scale
        applyLook()
        // A file image loaded on a worker: draw again, now with it.
        images.loaded = { [unowned self] in self.nook.frames.invalidate() }
        connectSignals()
        gtk_widget_show_all(nook.widget)
        nook.acceptInput(in: [])
        applyShape(.empty)
        Log.info("window \(Int(NookWindow.size(on: monitor).width))x\(Int(NookWindow.size(on: monitor).height)) on "
                 + "\(monitor.name) (\(nook.kindDescription), "
                 + "\(nook.isTransparent ? "transparent" : "opaque background"))")
        let box = MainThreadBox(self)
        // Fonts and icons loaded before they are first needed, so that paint fits in a frame.
        MainLoop.post {
            box.value.text.warmUp()
            box.value.images.warmUp()
        }
        followSwayFocusIfWanted()
        followWallSeconds()
        reportMissingOutput()
        if repaintsEverything { Log.info("NOOK_RENDERER_FULL_REPAINT=1: every frame repaints the whole window (for measuring only)") }
        desktopAnimations = DesktopAnimations { [unowned self] enabled in
            Log.info("the desktop turned animations \(enabled ? "on" : "off")")
            self.updateReduceMotion()
        }
        configWatcher = ConfigWatcher(paths: ConfigFile.candidates) { [unowned self] in self.reloadConfig() }
    }

    // MARK: Configuration

    /// The file changed (or appeared, or went): a good one applies, a bad one is logged
    /// naming its keys and the config in force stays.
    private func reloadConfig() {
        switch ConfigFile.read() {
        case .refused(let error, let path):
            for problem in error.problems { Log.info("renderer config \(path) refused: \(problem)") }
            Log.info("keeping the renderer config in force")
        case .absent:
            apply(.defaults)
            Log.info("no renderer.json any more; the defaults apply")
        case .loaded(let fresh, let path):
            apply(fresh)
            Log.info("renderer config \(path) applied")
            for note in fresh.notes { Log.info("renderer config \(path): \(note)") }
        }
    }

    private func apply(_ fresh: RendererConfig) {
        config = fresh
        applyLook()
        followSwayFocusIfWanted()
        relocate()
        reportMissingOutput()
        updateReduceMotion()
        followWallSeconds()
    }

    /// Colours: the next frame paints with them.
    private func applyLook() {
        presenter.defaultForeground = config.textColor
        images.symbolColor = config.textColor
        nook.frames.invalidate()
    }

    private func reportMissingOutput() {
        guard case .named(let name) = config.output, !MonitorInfo.monitor(for: config.output).found,
              reportedMissingOutputs.insert(name).inserted else { return }
        Log.info("output '\(name)' is not connected (monitors: \(MonitorInfo.knownNames.joined(separator: ", "))); "
                 + "using the primary one until it is")
    }

    /// Reduce Motion as the config (or, with `auto`, the desktop) wants it, sent when it changes.
    private func updateReduceMotion() {
        let wanted = config.reduceMotion.value(desktopAnimations: DesktopAnimations.enabled)
        guard wanted != reduceMotion else { return }
        reduceMotion = wanted
        if let link { Task { await link.setReduceMotion(wanted) } }
    }

    // MARK: Plans

    /// A plan from the bus: the presenter takes it from the current instant, and frames run
    /// until it settles. A plan the presenter rejects is logged; the last good one stays.
    func receive(_ plan: IncomingPlan, source: String) {
        do {
            // NookRenderModel reads the contract's values.
            try presenter.receive(try plan.contractValue(), at: monotonicSeconds())
            // The chrome as read: a compact plan (contract 1.1) may leave its rects out.
            Log.debug(plan.summary(source: source, chrome: presenter.chromeMove))
            // Each plan's warnings, each logged once however many plans repeat it.
            for warning in presenter.warnings where reportedWarnings.insert(warning).inserted {
                Log.info("plan drawn plainly: \(warning)")
            }
        } catch {
            Log.debug(plan.summary(source: source))
            Log.info("cannot draw plan (\(error)); keeping what is on screen")
            // A delta against a scene this renderer missed: only a whole scene helps.
            if error.needsWholeScene, let link { Task { await link.subscribeAgain() } }
        }
        frameStats = FrameStats()
        controls.planReceived()
        followPlacement()
        growSurfaceForTransition()
        startFrames()
        followLiveFrames()
        followWallSeconds()
    }

    /// Whether anything changes with the wall clock's second: a countdown on screen (it changes
    /// by the second, not by plans), or the compositor's choice of output to check (`output:
    /// focused` on layer shell where no sway IPC says where the focus is).
    private var needsWallSeconds: Bool {
        presenter.showsLiveClock || (nook.usesLayerShell && config.output == .focused && !swayFollowing)
    }

    /// Ticks just after each wall-clock second while `needsWallSeconds`, and not at all
    /// otherwise: an idle renderer has no timer of its own (the tick stops by itself, and a
    /// plan or a config that needs it starts it again).
    private func followWallSeconds() {
        guard !wallSecondsRunning, needsWallSeconds else { return }
        wallSecondsRunning = true
        Log.debug("second ticks started")
        let box = MainThreadBox(self)
        MainLoop.onEachWallSecond {
            let renderer = box.value
            guard renderer.needsWallSeconds else {
                renderer.wallSecondsRunning = false
                Log.debug("second ticks stopped")
                return false
            }
            if renderer.presenter.showsLiveClock {
                // Only the countdowns' and clock progress's rects.
                renderer.queueDrawAtRest { renderer.presenter.secondRects(in: $0) }
                Log.debug("second tick: drawing the live clock")
            }
            renderer.followCompositorsOutput()
            return true
        }
    }

    /// While the scene shows a moving custom view (a playing equalizer), redraws its rect,
    /// and nothing else, at the view's own rate (`PlanPresenter.liveFrameRate`); the timer
    /// stops by itself once no plan shows one.
    private func followLiveFrames() {
        guard !liveFramesRunning, let rate = presenter.liveFrameRate else { return }
        liveFramesRunning = true
        Log.debug("live frames at \(rate) a second")
        let box = MainThreadBox(self)
        MainLoop.every(milliseconds: UInt32(max(1, (1000 / rate).rounded()))) {
            let renderer = box.value
            guard renderer.presenter.liveFrameRate != nil else {
                renderer.liveFramesRunning = false
                Log.debug("live frames stopped")
                return false
            }
            renderer.queueDrawAtRest(PlanPresenter.liveRects)
            return true
        }
    }

    /// Queues the rects `changing` finds in what was last painted, each grown to whole pixels
    /// (and one for antialiasing). Nothing while a transition's frames run (they draw
    /// everything) or before the first paint.
    private func queueDrawAtRest(_ changing: (DisplayList) -> [Rect]) {
        guard tickCallback == 0, let list = lastPainted else { return }
        let originX = windowOriginX
        for rect in changing(list) {
            let x = rect.minX.rounded(.down) - 1 - originX, y = rect.minY.rounded(.down) - 1
            nook.frames.invalidate(x: Int32(clamping: Int(x)), y: Int32(clamping: Int(y)),
                                   width: Int32(clamping: Int(rect.maxX.rounded(.up) - originX - x + 1)),
                                   height: Int32(clamping: Int(rect.maxY.rounded(.up) - y + 1)))
        }
    }

    /// The placement the plan in force asks for: the band's height follows the resting pill
    /// (none while hidden; kept while a peek or the open nook is shown, so windows do not jump),
    /// and the layer goes to overlay while the peek is of a critical activity (asked of the
    /// broker: `GetState`'s `items` carry each activity's relevance).
    private func followPlacement() {
        var wanted = placement
        wanted.critical = false
        switch presenter.presentation {
        case .hidden:
            // The band goes once the pill has gone (`releaseBandOnceHidden`): without it under
            // a pill still fading, the pill would stand over the bar until its last frame.
            if !presenter.isAnimating(at: monotonicSeconds()) { wanted.reserve = 0 }
        case .pill:
            if let rest = presenter.chromeMove?.to, rest.height > 0 {
                wanted.reserve = Int(min(1000, (rest.maxY + Self.reservationGap).rounded(.up)))
            }
        case .peek:
            let content = presenter.toContent
            if config.layer == .auto, content.hasPrefix("activity:"), let link {
                let serial = presenter.serial
                let key = String(content.dropFirst("activity:".count))
                let box = MainThreadBox(self)
                Task {
                    let relevance = await link.relevance(of: key)
                    MainLoop.post {
                        let renderer = box.value
                        // Only if that peek is still what is shown.
                        guard renderer.presenter.serial == serial, let relevance, relevance >= RendererConfig.criticalRelevance else {
                            Log.debug("peek of \(key) (plan \(serial)): relevance \(relevance.map { "\($0)" } ?? "unknown"), not critical: under fullscreen windows")
                            return
                        }
                        renderer.setPlacement(NookWindow.Placement(reserve: renderer.placement.reserve, critical: true))
                    }
                }
            }
        default: break
        }
        setPlacement(wanted)
    }

    /// A hide has finished drawing: the band it kept goes now.
    private func releaseBandOnceHidden() {
        guard presenter.presentation == .hidden, placement.reserve != 0 else { return }
        setPlacement(NookWindow.Placement(reserve: 0, critical: false))
    }

    private func setPlacement(_ wanted: NookWindow.Placement) {
        guard wanted != placement else { return }
        placement = wanted
        Log.info("placement: reserving \(wanted.reserve) points below the bars, \(wanted.critical ? "over fullscreen windows (a critical peek)" : "under fullscreen windows")")
        nook.follow(wanted, config: config, gdkMonitor: layerMonitor(gdkMonitor))
    }

    /// The D-Bus value as the contract's values, which NookRenderModel reads.
    private func startFrames() {
        nook.frames.invalidate()
        guard tickCallback == 0 else { return }
        tickCallback = gtk_widget_add_tick_callback(nook.widget, { widget, clock, data in
            Unmanaged<Renderer>.fromOpaque(data!).takeUnretainedValue().tick(clock: clock)
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    /// One frame-clock tick: draw, and stop ticking once nothing moves.
    private func tick(clock: OpaquePointer?) -> gboolean {
        let now = frameTime(clock)
        frameStats.ticked(at: now, interval: 1 / monitor.refreshRate)
        let list = frame(at: now, unixTime: unixSeconds())
        tickFrame = TickFrame(input: frameInput(at: now), list: list)
        // A shaped window is drawn only inside its shape, and an empty one (hidden) not at all:
        // shape it to this frame before the paint, so a nook appearing is drawn.
        applyShape(WindowShape(list))
        queueDamage(for: list)
        guard presenter.isAnimating(at: now) else {
            Log.settled("settled serial=\(presenter.serial) presentation=\(presenter.presentation.rawValue) \(frameStats.logFields)")
            tickCallback = 0
            refreshPointer()
            releaseBandOnceHidden()
            fitSurfaceAtRest(list)
            return 0  // G_SOURCE_REMOVE
        }
        return 1
    }

    /// What a frame was built from, so the paint of the same frame-clock frame reuses the
    /// tick's list instead of building it again (`tickFrame`).
    private struct FrameInput: Equatable {
        var time: Double
        var serial: UInt64
        var pointer: PointerState
        var keyPressed: ControlNode?
        var focused: ControlNode?
        var family: String
    }

    private struct TickFrame {
        var input: FrameInput
        var list: DisplayList
    }

    private func frameInput(at time: Double) -> FrameInput {
        FrameInput(time: time, serial: presenter.serial, pointer: pointer, keyPressed: controls.keyPressed, focused: controls.focused,
                   family: text.family)
    }

    /// The presenter's frame, with the ring around the reach target that has the keyboard
    /// (`nookctl focus`) when no control has it.
    private func frame(at time: Double, unixTime: Double) -> DisplayList {
        var input = pointer
        input.keyboardPressed = controls.keyPressed
        var list = presenter.frame(at: time, unixTime: unixTime, pointer: input, focus: controls.focused)
        if list.focusRing == nil { list.focusRing = controls.reachRing(in: list) }
        return list
    }

    /// Where the keyboard goes (`Render.FocusRequested`).
    func focusRequested() { controls.focusRequested() }

    /// Queues only what changed since the last paint (`FrameDamage`), or everything.
    private func queueDamage(for list: DisplayList) {
        guard !repaintsEverything, let rects = FrameDamage.rects(from: lastPainted, to: list, bounds: Size(width: fullSurface.width, height: surfaceSize.height)) else {
            nook.frames.invalidate()
            return
        }
        let originX = windowOriginX
        for rect in rects {
            nook.frames.invalidate(x: Int32(rect.minX - originX), y: Int32(rect.minY), width: Int32(rect.width), height: Int32(rect.height))
        }
    }

    private func frameTime(_ clock: OpaquePointer?) -> Double {
        guard let clock, case let micros = gdk_frame_clock_get_frame_time(clock), micros > 0 else { return monotonicSeconds() }
        return Double(micros) / 1_000_000
    }

    // MARK: Drawing

    fileprivate func draw(_ cr: OpaquePointer) {
        let started = monotonicSeconds()
        defer {
            let took = monotonicSeconds() - started
            frameStats.painted(taking: took)
        }
        let now = frameTime(gtk_widget_get_frame_clock(nook.widget))
        let unixTime = unixSeconds()
        // Text in the family the broker measured it in, so it fits the rects laid out for it.
        text.family = presenter.fontFamily ?? TextPainter.defaultFamily
        // `resize` elements re-wrap their text in flight as Pango sets it.
        if presenter.textMeasurement.identity != "pango:" + text.family {
            presenter.textMeasurement = TextMeasurement(PangoTextMeasurer(family: text.family))
            tickFrame = nil
        }
        // The tick of this frame built its list already, unless something it depends on
        // changed since (a pointer motion, a new plan).
        let list: DisplayList
        if let tickFrame, tickFrame.input == frameInput(at: now) {
            list = tickFrame.list
        } else {
            list = frame(at: now, unixTime: unixTime)
        }
        tickFrame = nil
        text.layouts.begin(paintingOn: cr)
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        if nook.isTransparent {
            cairo_set_source_rgba(cr, 0, 0, 0, 0)
        } else {
            let grey = NookWindow.neutralBackground
            cairo_set_source_rgb(cr, grey.red, grey.green, grey.blue)
        }
        cairo_paint(cr)
        cairo_restore(cr)
        let originX = windowOriginX
        Painter(origin: Point(x: originX, y: 0), unixTime: unixTime, images: images, text: text, chromeColor: config.chromeColor).paint(list, on: cr)
        // More than the transition was given room for (a spring beyond its headroom): the
        // whole share from the next frame on.
        let drawn = reached(by: list)
        if drawn.bottom > surfaceSize.height || 2 * drawn.half > surfaceSize.width { fitSurface(fullSurface) }
        applyShape(WindowShape(list))
        lastPainted = list
        // The pointer is taken over the chrome (while it dissolves into hidden, the fading
        // shape), the capsules and the close control, and where a moving chrome comes to rest.
        let chrome = (list.chrome ?? list.fadingChrome)?.rect
        var input = list.pointerRects
        if let arriving = presenter.arrivingChrome(at: now) { input.append(arriving) }
        if let hoverHold { input.append(hoverHold) }
        if input != lastInput || originX != lastInputOriginX {
            // The window moved under a pointer GTK last saw at its old place: until the
            // compositor tells where it is now, the input where it was stays too, or GTK, checking
            // the new region against the old position, would make up a leave.
            if originX != lastInputOriginX, pointer.location != nil {
                staleInput = lastInput.map { $0.offsetBy(dx: -lastInputOriginX, dy: 0) }
            }
            nook.acceptInput(in: input.map { $0.offsetBy(dx: -originX, dy: 0) } + staleInput)
            lastInput = input
            lastInputOriginX = originX
        }
        controls.accessibility.windowOriginX = originX
        if chrome != lastChrome {
            lastChrome = chrome
            if let chrome, chrome.maxY > NookWindow.size(on: monitor).height, !reportedOverflow {
                reportedOverflow = true
                Log.info("the chrome (\(Self.format(chrome))) reaches below the window; its bottom is cut")
            }
        }
        logFrame(list, at: now)
        controls.painted(list)
    }

    // MARK: The surface's size (`SurfaceExtent`)

    /// The monitor's share (`NookWindow.size`): the most the surface is given.
    private var fullSurface: Size { NookWindow.size(on: monitor) }
    private var displayCentreX: Double { fullSurface.width / 2 }

    /// The display x of the window's left edge: a narrower layer surface is centred by the
    /// compositor. From the width GTK has allocated, which the next frame is drawn at.
    private var windowOriginX: Double {
        guard nook.usesLayerShell else { return 0 }
        return SurfaceExtent.originX(width: Double(gtk_widget_get_allocated_width(nook.widget)), full: fullSurface.width)
    }

    /// What `list` draws and where the window takes the pointer, as a bottom and a reach from
    /// the centre: a surface cut short of a held hover (a peek that opened into a shorter
    /// panel) would send the still pointer a leave.
    private func reached(by list: DisplayList) -> (bottom: Double, half: Double) {
        let rects = (lastInput + [hoverHold].compactMap { $0 }).filter { $0.minX.isFinite && $0.maxX.isFinite && $0.maxY.isFinite }
        let centre = displayCentreX
        return (rects.reduce(SurfaceExtent.bottom(of: list)) { max($0, $1.maxY) },
                rects.reduce(SurfaceExtent.halfWidth(of: list, centre: centre)) { max($0, centre - $1.minX, $1.maxX - centre) })
    }

    /// Before a plan's first frame: room for its chrome's two ends, if the surface has less.
    private func growSurfaceForTransition() {
        let full = fullSurface, move = presenter.chromeMove
        let drawn = lastPainted.map(reached) ?? (bottom: 0, half: 0)
        let wanted = Size(width: SurfaceExtent.width(from: move?.from, to: move?.to, drawnHalf: drawn.half, centre: displayCentreX, full: full.width),
                          height: SurfaceExtent.height(from: move?.from, to: move?.to, drawn: drawn.bottom, full: full.height))
        if wanted.width > surfaceSize.width || wanted.height > surfaceSize.height {
            fitSurface(Size(width: max(wanted.width, surfaceSize.width), height: max(wanted.height, surfaceSize.height)))
        }
    }

    /// At rest: the size of what the settled frame draws.
    private func fitSurfaceAtRest(_ list: DisplayList) {
        let full = fullSurface, drawn = reached(by: list)
        fitSurface(Size(width: SurfaceExtent.restingWidth(drawnHalf: drawn.half, full: full.width),
                        height: SurfaceExtent.restingHeight(drawn: drawn.bottom, full: full.height)))
    }

    /// Resizes a layer-shell surface (elsewhere the window keeps the monitor's share).
    private func fitSurface(_ size: Size) {
        guard nook.usesLayerShell, size != surfaceSize else { return }
        Log.debug("surface \(Int(surfaceSize.width))x\(Int(surfaceSize.height)) -> \(Int(size.width))x\(Int(size.height))")
        surfaceSize = size
        nook.resize(on: monitor, to: size)
        nook.frames.invalidate()
    }

    /// Without a compositor (X11) the window shows only what is drawn: set its shape when that
    /// changes. Composited and layer-shell windows are transparent around the chrome already.
    private func applyShape(_ shape: WindowShape) {
        guard nook.needsShape, shape != lastShape else { return }
        if lastShape == nil { Log.info("no compositor: the window shows only the chrome's shape (X shape)") }
        lastShape = shape
        shape.apply(to: nook.widget, size: NookWindow.size(on: monitor))
    }

    /// `--verbose`: the chrome's (and a dissolving chrome's source) and each shared element's
    /// rect, whenever they change.
    private func logFrame(_ list: DisplayList, at time: Double) {
        guard Log.verbose else { return }
        var line = "chrome=" + (list.chrome.map { Self.format($0.rect) } ?? "-")
        if let fading = list.fadingChrome { line += " fading_chrome=\(Self.format(fading.rect))" }
        for item in list.items {
            if let key = item.sharedKey { line += " shared=\(key)@\(Self.format(item.rect))" }
        }
        // What the pointer reaches (capsules, the pill, tiles, the close control).
        for target in list.targets { line += " target=\(target.kind.rawValue):\(target.owner)@\(Self.format(target.rect))" }
        guard line != lastFrameLog else { return }
        lastFrameLog = line
        Log.info("frame serial=\(presenter.serial) t=\(PlanSummary.format(time)) \(line)")
    }

    static func format(_ rect: Rect) -> String { PlanSummary.rect(rect) }

    // MARK: Input

    /// GTK's window points, made display points. A pointer event also ends `staleInput`: GTK
    /// knows where the pointer is again.
    private func displayPoint(x: Double, y: Double) -> Point {
        dropStaleInput()
        return Point(x: x + windowOriginX, y: y)
    }

    /// The input region without `staleInput` again: left in, it would take clicks beside the nook.
    private func dropStaleInput() {
        guard !staleInput.isEmpty else { return }
        staleInput = []
        nook.acceptInput(in: lastInput.map { $0.offsetBy(dx: -lastInputOriginX, dy: 0) })
    }

    fileprivate func pointerMoved(x: Double, y: Double) {
        let place = displayPoint(x: x, y: y)
        // A compositor also reports motion when the surface moves under a still pointer (a
        // layer surface re-centred at its new width): that is not the pointer moving.
        let moved = place != pointer.location
        pointer.location = place
        refreshPointer(moved: moved)
        controls.pointerMoved(to: pointer.location)
        nook.frames.invalidate()  // Hover variants.
    }

    fileprivate func pointerLeft() {
        dropStaleInput()
        pointer.location = nil
        pointer.isPressed = false
        pointer.pressedControl = nil
        pressedTarget = nil
        middlePressed = nil
        refreshPointer(moved: true)
        controls.pointerMoved(to: nil)
        nook.frames.invalidate()
    }

    /// The reach target (`ReachTarget`) under `point` in the frame last painted.
    private func target(at point: Point) -> ReachTarget? { lastPainted?.target(at: point) }

    fileprivate func button(_ number: guint, pressed: Bool, x: Double, y: Double) {
        let point = displayPoint(x: x, y: y)
        pointer.location = point
        if number == 2 {
            middleButton(pressed: pressed, at: point)
            return
        }
        let wasPressed = pointer.isPressed
        pointer.isPressed = pressed
        nook.frames.invalidate()
        let handled = controls.button(pressed: pressed, at: point)  // A control's press or release.
        pointer.pressedControl = controls.heldControl
        if handled {
            pressedTarget = nil
            return
        }
        if pressed {
            pressedTarget = target(at: point)
            return
        }
        defer { pressedTarget = nil }
        guard wasPressed, let link else { return }
        // A click (press and release on the same target) on a capsule, the pill, a peek, a
        // board tile or the panel opens what it shows by claim; on the close control it ends
        // the activity.
        if let held = pressedTarget, let released = target(at: point), released.kind == held.kind, released.owner == held.owner {
            switch released.kind {
            case .close:
                end(released, by: "close control")
            case .capsule, .pill, .peek, .tile, .panel:
                Log.debug("click on the \(released.kind.rawValue) \(released.owner)")
                Task { await link.openSlot(released, via: .claim) }
            }
            return
        }
        // A pill with nothing in its slots: a click opens onto the default content.
        if pressedTarget == nil, isOverChrome, presenter.presentation == .pill {
            Log.debug("click on the pill")
            Task { await link.open() }
        }
    }

    /// Middle click: pressed and released on the same activity (a capsule, the pill, a peek,
    /// the panel, the close control) ends it, as the close control does.
    private func middleButton(pressed: Bool, at point: Point) {
        if pressed {
            middlePressed = target(at: point).flatMap { $0.dismissible ? $0 : nil }
            return
        }
        defer { middlePressed = nil }
        guard let held = middlePressed, let released = target(at: point), released.owner == held.owner, released.dismissible else { return }
        end(released, by: "middle click on the \(released.kind.rawValue)")
    }

    /// `Control.EndActivity` for `target`'s activity, as `nookctl end` does.
    private func end(_ target: ReachTarget, by gesture: String) {
        guard target.dismissible, let (module, activity) = target.activity, let link else { return }
        Log.debug("dismiss \(module)/\(activity) by \(gesture)")
        Task { await link.endActivity(module: module, activity: activity) }
    }

    private var isOverChrome: Bool {
        guard let location = pointer.location, let chrome = presenter.chromeRect(at: monotonicSeconds()) else { return false }
        return Self.rect(chrome, holds: location)
    }

    /// Over the nook: the chrome, a capsule, the close control, or where a moving chrome is
    /// about to come to rest.
    private var isOverNook: Bool {
        guard let location = pointer.location else { return false }
        if isOverChrome || target(at: location) != nil { return true }
        if let hoverHold, Self.rect(hoverHold, holds: location) { return true }
        return presenter.arrivingChrome(at: monotonicSeconds()).map { Self.rect($0, holds: location) } ?? false
    }

    private static func rect(_ rect: Rect, holds point: Point) -> Bool {
        point.x >= rect.minX && point.x <= rect.maxX && point.y >= rect.minY && point.y <= rect.maxY
    }

    /// When the pointer comes over the nook: over a capsule, the pill or a peek while the nook
    /// is a pill or peeks, `OpenSlot` via hover onto what that shows; over the close control
    /// nothing; anywhere else `Pointer("enter")`. When it leaves the nook: `Pointer("exit")`, which closes what
    /// hovering opened. A nook that closed from under a pointer that stays put (the panel
    /// did not reach a capsule hovered open) opens by hover again only once the pointer moves.
    private func refreshPointer(moved: Bool = false) {
        if moved {
            hoverNeedsMotion = false
            if hoverHold != nil {
                hoverHold = nil
                nook.frames.invalidate()  // The input region without the hold.
            }
        }
        let over = isOverNook
        guard over != pointerEntered, let link else { return }
        let place = pointer.location.map { "\(PlanSummary.format($0.x)),\(PlanSummary.format($0.y))" } ?? "-"
        if over {
            guard !hoverNeedsMotion else { return }
            pointerEntered = true
            let presentation = presenter.presentation
            let reached = pointer.location.flatMap { self.target(at: $0) }
            if let reached, reached.opensOnHover, presentation == .pill || presentation == .peek {
                Log.debug("pointer enter at \(place) onto the \(reached.kind.rawValue) \(reached.owner)")
                hoverHold = reached.rect
                Task { await link.openSlot(reached, via: .hover) }
            } else if reached?.kind == .close {
                // Reaching for the close control beside a peek opens nothing.
                Log.debug("pointer enter at \(place) onto the close control")
            } else {
                Log.debug("pointer enter at \(place)")
                Task { await link.pointer("enter") }
            }
        } else {
            pointerEntered = false
            hoverHold = nil
            if pointer.location != nil { hoverNeedsMotion = true }
            Log.debug("pointer exit at \(place)")
            Task { await link.pointer("exit") }
        }
    }

    // MARK: Monitor changes

    /// Outputs came or went, or one changed size: find the configured output again.
    fileprivate func screenChanged() {
        relocate()
        reportMissingOutput()
    }

    /// `output: focused` on layer shell without sway's IPC (Hyprland, KDE, other compositors,
    /// or sway's socket lost) leaves the output to the compositor, which GDK only reports once
    /// the surface is on it: follow it when it differs (checked each second, so the nook also
    /// follows the compositor moving the surface). On sway the IPC events say it instead.
    fileprivate func followCompositorsOutput() {
        guard nook.usesLayerShell, config.output == .focused, !swayFollowing, targetMonitor() != gdkMonitor else { return }
        relocate()
        Log.info("the compositor put the nook on \(monitor.name) (\(Int(monitor.geometry.width))x\(Int(monitor.geometry.height)))")
    }

    // MARK: The focused output on sway

    /// The output sway last said has the focus (`output: focused`, from its IPC events).
    private var swayFocus: String?
    /// The IPC watcher was started (once per process).
    private var swayWatching = false
    /// Sway's IPC says where the focus is: no once-a-second check.
    private var swayFollowing = false
    /// The wall-second tick is armed (`followWallSeconds`).
    private var wallSecondsRunning = false

    /// `output: focused` on layer shell with `$SWAYSOCK` set: follow sway's focus from its IPC
    /// events (`SwayFocusWatcher`), pinning the surface to the focused output.
    private func followSwayFocusIfWanted() {
        guard nook.usesLayerShell, config.output == .focused, !swayWatching,
              let socket = getenv("SWAYSOCK").map({ String(cString: $0) }), !socket.isEmpty else { return }
        swayWatching = true
        swayFollowing = true
        Log.info("output focused: following sway's focus from its IPC events (\(socket)), with no polling")
        let box = MainThreadBox(self)
        SwayFocusWatcher.start(socketPath: socket, onFocus: { name in
            MainLoop.post { box.value.swayFocused(name) }
        }, onLost: { why in
            MainLoop.post { box.value.swayFocusLost(why) }
        })
    }

    private func swayFocused(_ name: String) {
        swayFocus = name
        guard config.output == .focused else { return }
        Log.info("sway says \(name) has the focus")
        relocate()
    }

    private func swayFocusLost(_ why: String) {
        swayFocus = nil
        swayFollowing = false
        Log.info("sway's IPC: \(why); the compositor places the nook, checked once a second")
        relocate()
        followWallSeconds()
    }

    /// The monitor the layer surface is pinned to for `target`: nil for `output: focused`
    /// when no IPC names the focused output (the compositor's choice).
    private func layerMonitor(_ target: OpaquePointer?) -> OpaquePointer? {
        config.output == .focused && swayFocus == nil ? nil : target
    }

    /// The configured output's monitor; for `focused` on layer shell, the output sway says has
    /// the focus, else the one the surface is on.
    private func targetMonitor() -> OpaquePointer? {
        if nook.usesLayerShell, config.output == .focused, let name = swayFocus {
            let focused = MonitorInfo.monitor(for: .named(name))
            if focused.found { return focused.monitor }
        }
        if nook.usesLayerShell, config.output == .focused, let window = gtk_widget_get_window(nook.widget),
           let actual = gdk_display_get_monitor_at_window(gdk_display_get_default(), window) {
            return actual
        }
        return MonitorInfo.monitor(for: config.output).monitor
    }

    /// Places the window on the configured output (the primary one while that is absent) as
    /// the config says, and declares the display again (`DisplayChanged`) when its size,
    /// scale, rate or notch changed.
    ///
    /// While X reconfigures its outputs (a new resolution: `xrandr` turns the CRTC off, resizes
    /// the screen, turns it on again) GDK can report no monitor at all for a moment, and a
    /// signal for each step. Without a monitor nothing is placed or declared (it used to
    /// declare a 0x0 display, which the broker refuses, and place the window there); the
    /// signal that brings a monitor back places the window on it.
    private func relocate() {
        guard let target = targetMonitor() else {
            Log.debug("no monitor for now (the outputs are changing); the window stays where it is")
            return
        }
        let fresh = MonitorInfo(target, notch: (notchOverride ?? config.notch).size)
        guard fresh.geometry.width > 0, fresh.geometry.height > 0 else {
            Log.debug("monitor \(fresh.name) has no size for now (the outputs are changing); the window stays where it is")
            return
        }
        let changed = !fresh.declaresSame(as: monitor)
        gdkMonitor = target
        monitor = fresh
        images.scale = fresh.scale
        // A new monitor: the whole share until the next plan settles.
        surfaceSize = NookWindow.size(on: fresh)
        nook.place(on: fresh, gdkMonitor: layerMonitor(target), config: config, placement: placement, size: surfaceSize)
        if changed { declare(fresh) }
    }

    /// Displays handed to the broker link so far: numbers them, so that the link sends only
    /// the newest (`BrokerLink.displayChanged`).
    private var displaysDeclared: UInt64 = 0

    /// `DisplayChanged(monitor)` through the link. Each declaration goes in a task of its own,
    /// and tasks may reach the link in any order: numbered, an older one arriving after a
    /// newer is dropped, so the broker ends up planning for the display the window is on. (A
    /// resolution change makes several in a few milliseconds; under load the broker was left
    /// with an intermediate one, and the pill off the new centre.)
    private func declare(_ monitor: MonitorInfo) {
        guard let link else { return }
        displaysDeclared += 1
        let number = displaysDeclared
        Task { await link.displayChanged(monitor, number: number) }
    }

    // MARK: Signals

    private func connectSignals() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        let widget = UnsafeMutableRawPointer(nook.widget)
        typealias DrawHandler = @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> gboolean
        let onDraw: DrawHandler = { _, cr, data in
            guard let cr else { return 1 }
            let renderer = Unmanaged<Renderer>.fromOpaque(data!).takeUnretainedValue()
            if renderer.nook.frames.usesCanvas { renderer.nook.frames.gtkPainted(cr) } else { renderer.draw(cr) }
            return 1
        }
        nook.frames.paint = { [unowned self] cr in self.draw(cr) }
        connectSignal(widget, "draw", onDraw, me)
        typealias MotionHandler = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GdkEventMotion>?, UnsafeMutableRawPointer?) -> gboolean
        let onMotion: MotionHandler = { _, event, data in
            if let event { Unmanaged<Renderer>.fromOpaque(data!).takeUnretainedValue().pointerMoved(x: event.pointee.x, y: event.pointee.y) }
            return 0
        }
        connectSignal(widget, "motion-notify-event", onMotion, me)
        typealias CrossingHandler = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GdkEventCrossing>?, UnsafeMutableRawPointer?) -> gboolean
        let onEnter: CrossingHandler = { _, event, data in
            if let event { Unmanaged<Renderer>.fromOpaque(data!).takeUnretainedValue().pointerMoved(x: event.pointee.x, y: event.pointee.y) }
            return 0
        }
        let onLeave: CrossingHandler = { _, _, data in
            Unmanaged<Renderer>.fromOpaque(data!).takeUnretainedValue().pointerLeft()
            return 0
        }
        connectSignal(widget, "enter-notify-event", onEnter, me)
        connectSignal(widget, "leave-notify-event", onLeave, me)
        typealias ButtonHandler = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<GdkEventButton>?, UnsafeMutableRawPointer?) -> gboolean
        // Button 1 presses and clicks; button 2 (middle) dismisses.
        let onPress: ButtonHandler = { _, event, data in
            if let event, event.pointee.button == 1 || event.pointee.button == 2, event.pointee.type == GDK_BUTTON_PRESS {
                Unmanaged<Renderer>.fromOpaque(data!).takeUnretainedValue().button(event.pointee.button, pressed: true, x: event.pointee.x, y: event.pointee.y)
            }
            return 0
        }
        let onRelease: ButtonHandler = { _, event, data in
            if let event, event.pointee.button == 1 || event.pointee.button == 2 {
                Unmanaged<Renderer>.fromOpaque(data!).takeUnretainedValue().button(event.pointee.button, pressed: false, x: event.pointee.x, y: event.pointee.y)
            }
            return 0
        }
        connectSignal(widget, "button-press-event", onPress, me)
        connectSignal(widget, "button-release-event", onRelease, me)
        typealias DestroyHandler = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void
        // Nothing here destroys the window (a signal ends the main loop with it alive), so
        // a destroy comes from outside: the compositor closed the layer surface when its
        // output went away, or the display did. Exit non-zero so the unit (Restart=on-failure)
        // brings the nook back on an output that exists.
        let onDestroy: DestroyHandler = { _, _ in
            Log.info("the window was closed from outside (its output or the display went away); exiting with status 1")
            Renderer.windowLost = true
            gtk_main_quit()
        }
        connectSignal(widget, "destroy", onDestroy, me)
        let screen = UnsafeMutableRawPointer(gtk_widget_get_screen(nook.widget)!)
        let onScreen: DestroyHandler = { _, data in
            Unmanaged<Renderer>.fromOpaque(data!).takeUnretainedValue().screenChanged()
        }
        connectSignal(screen, "size-changed", onScreen, me)
        connectSignal(screen, "monitors-changed", onScreen, me)
        // An output plugged in or out: the configured one may have come back or gone.
        typealias MonitorHandler = @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void
        let onMonitor: MonitorHandler = { _, _, data in
            OutputConnectors.forget()
            Unmanaged<Renderer>.fromOpaque(data!).takeUnretainedValue().screenChanged()
        }
        let display = UnsafeMutableRawPointer(gdk_display_get_default()!)
        connectSignal(display, "monitor-added", onMonitor, me)
        connectSignal(display, "monitor-removed", onMonitor, me)
    }
}
