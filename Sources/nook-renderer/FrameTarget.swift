import CGtk
import CXdgOutput
import Glibc
import NookCore

/// Where the renderer's frames are drawn, and how a change asks for one (`invalidate`).
///
/// On Wayland, frames go to a subsurface over GTK's window, painted from three `wl_shm`
/// buffers that are kept (SubsurfaceCanvas.c): each frame repaints only what is stale in the
/// buffer it reuses, this frame's damage and that of the frames since the buffer was last
/// shown. GTK 3 would map a new buffer for every frame whenever the compositor keeps the
/// last one until the next commit, as wlroots' pixman renderer does (docs/PERFORMANCE.md).
/// GTK's own surface stays transparent and keeps the pointer input, and GTK still draws it
/// (clear) when its size changes: that commit carries the canvas' first frame of the new size
/// (a subsurface in sync mode for that frame) and the input region, so the compositor never
/// shows or hit-tests a size with the other's content. On headless sway the canvas takes the
/// renderer's CPU per transition from 44.6 ms to 27.9 ms in the same run (docs/PERFORMANCE.md).
///
/// On X11, and with `NOOK_RENDERER_GTK_BUFFERS=1` (to measure the difference), GTK's window is
/// drawn as before.
final class FrameTarget {
    let widget: UnsafeMutablePointer<GtkWidget>
    /// Draws the frame on a cairo context already clipped to what needs painting.
    var paint: (OpaquePointer) -> Void = { _ in }
    /// Whether frames go to the subsurface (else to GTK's window).
    private(set) var usesCanvas: Bool
    private var canvas: OpaquePointer?
    /// What changed since the last frame committed (nil: everything).
    private var pending: [Rect]? = []
    /// The damage of the frames committed last, oldest first (nil: everything).
    private var history: [[Rect]?] = []
    private static let historyLength = 3
    private var clock: OpaquePointer?
    private var paintHandler: gulong = 0
    private var paintRequested = false
    private var lastSize: (width: Int32, height: Int32) = (0, 0)
    /// Where GTK's surface takes the pointer, flattened (x, y, width, height each).
    private var inputRegion: [Int32] = []
    private var parentUncommitted = false
    private var afterPaintHandler: gulong = 0
    /// GTK's window size when it last drew, whether it drew in the frame being painted, and
    /// whether a size asked has yet to be drawn (`resizeRequested`).
    private var gtkDrawnSize: (width: Int32, height: Int32) = (0, 0)
    private var gtkDrewThisFrame = false
    private var sizeInFlight = false
    private var framesWaited = 0

    init(widget: UnsafeMutablePointer<GtkWidget>, wayland: Bool) {
        self.widget = widget
        let gtkBuffers = getenv("NOOK_RENDERER_GTK_BUFFERS").map { String(cString: $0) == "1" } ?? false
        usesCanvas = wayland && !gtkBuffers
        guard usesCanvas else { return }
        typealias UnmapHandler = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void
        // Unmapped, GTK destroys its surface, and the subsurface with it is of no use: a new
        // one goes on the surface of the next map.
        let onUnmap: UnmapHandler = { _, data in
            Unmanaged<FrameTarget>.fromOpaque(data!).takeUnretainedValue().dropCanvas()
        }
        _ = connectSignal(UnsafeMutableRawPointer(widget), "unmap", onUnmap, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { dropCanvas() }

    /// Everything needs painting.
    func invalidate() {
        guard usesCanvas else { return gtk_widget_queue_draw(widget) }
        pending = nil
        requestPaint()
    }

    /// The rect at `x`, `y` (surface points) needs painting.
    func invalidate(x: Int32, y: Int32, width: Int32, height: Int32) {
        guard usesCanvas else { return gtk_widget_queue_draw_area(widget, x, y, width, height) }
        // Within the window, as GTK clips what it is asked to draw.
        let right = min(Int64(x) + Int64(width), Int64(gtk_widget_get_allocated_width(widget)))
        let bottom = min(Int64(y) + Int64(height), Int64(gtk_widget_get_allocated_height(widget)))
        let left = max(Int64(x), 0), top = max(Int64(y), 0)
        guard right > left, bottom > top else { return }
        pending?.append(Rect(x: Double(left), y: Double(top), width: Double(right - left), height: Double(bottom - top)))
        requestPaint()
    }

    /// GTK painted its own window (mapped or resized): in canvas mode it stays clear, and the
    /// canvas paints the whole frame at the window's size.
    func gtkPainted(_ cr: OpaquePointer) {
        gtkDrawnSize = (gtk_widget_get_allocated_width(widget), gtk_widget_get_allocated_height(widget))
        gtkDrewThisFrame = true
        sizeInFlight = false
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        cairo_paint(cr)
        cairo_restore(cr)
        invalidate()
    }

    /// Where GTK's surface takes the pointer, in its coordinates. Set on the surface directly
    /// (again on each new one): GTK would send it only with a frame of its own.
    func acceptInput(in areas: [cairo_rectangle_int_t]) {
        inputRegion = areas.flatMap { [$0.x, $0.y, $0.width, $0.height] }
        if canvas == nil { createCanvas() }
        applyInputRegion()
    }

    /// The region goes with the parent's next commit: GTK's own, when it draws this frame (a
    /// resize: the region, in the new size's coordinates, must not apply to the old size, or
    /// the compositor would tell a still pointer it left), else one made after the paint.
    private func applyInputRegion() {
        guard let canvas else { return }
        nook_canvas_set_parent_input(canvas, inputRegion, Int32(inputRegion.count / 4))
        parentUncommitted = true
        if let clock = connectedClock() { gdk_frame_clock_request_phase(clock, GDK_FRAME_CLOCK_PHASE_AFTER_PAINT) }
    }

    /// The window was asked to take this size: until GTK draws it, the compositor may hold a
    /// configure for it that GTK has acknowledged, and a commit of the parent now would give
    /// the surface its new place with its old buffer (and the pointer coordinates the renderer
    /// would read against the new one). What is set on the parent meanwhile goes with GTK's commit.
    func resizeRequested(width: Int32, height: Int32) {
        guard usesCanvas, width != gtkDrawnSize.width || height != gtkDrawnSize.height else { return }
        sizeInFlight = true
        framesWaited = 0
    }

    /// After GTK's own after-paint, which commits the parent when GTK drew this frame: else
    /// commits what is left to (an input region, a frame of a new size waiting for the parent),
    /// unless a resize is on its way.
    private func afterPaint() {
        guard let canvas else { return }
        if gtkDrewThisFrame {
            gtkDrewThisFrame = false
            nook_canvas_parent_committed(canvas)
            // GTK drew a new size before the compositor configured it: GTK acknowledges that
            // configure when it comes, and it applies on the next commit, which GTK would make
            // only when it next draws. Until then the compositor keeps the surface where the
            // last configure put it, and pointer coordinates would not match what is drawn.
            parentUncommitted = true
            if let clock { gdk_frame_clock_request_phase(clock, GDK_FRAME_CLOCK_PHASE_AFTER_PAINT) }
            return
        }
        guard parentUncommitted || nook_canvas_awaits_parent(canvas) != 0 else { return }
        if sizeInFlight {
            framesWaited += 1
            // A size the compositor never configured (or one GTK had already): not for ever.
            if framesWaited < Self.resizeFramesAtMost {
                if let clock { gdk_frame_clock_request_phase(clock, GDK_FRAME_CLOCK_PHASE_AFTER_PAINT) }
                return
            }
            Log.debug("canvas: GTK drew no frame of the size asked \(framesWaited) frames ago; committing the surface anyway")
            sizeInFlight = false
        }
        parentUncommitted = false
        nook_canvas_commit_parent(canvas)
    }

    /// How many frames a commit of the parent waits for GTK to draw a size asked.
    private static let resizeFramesAtMost = 30

    private func createCanvas() {
        guard gtk_widget_get_mapped(widget) != 0, let window = gtk_widget_get_window(widget),
              let display = gdk_window_get_display(window), let surface = gdk_wayland_window_get_wl_surface(window) else { return }
        canvas = nook_canvas_create(gdk_wayland_display_get_wl_display(display), surface)
        if canvas == nil {
            // Drawn by GTK from now on, as on X11.
            Log.info("the compositor offers no wl_subcompositor or wl_shm: GTK draws the frames on its own surface")
            usesCanvas = false
            gtk_widget_queue_draw(widget)
            return
        }
        history = []
        pending = nil
        applyInputRegion()
    }

    /// The widget's frame clock, with this target's handlers on it (GDK's own come first: they
    /// were connected when the window was realized).
    private func connectedClock() -> OpaquePointer? {
        guard let current = gtk_widget_get_frame_clock(widget) else { return nil }
        guard current != clock else { return current }
        if let clock {
            g_signal_handler_disconnect(UnsafeMutableRawPointer(clock), paintHandler)
            g_signal_handler_disconnect(UnsafeMutableRawPointer(clock), afterPaintHandler)
        }
        clock = current
        typealias PhaseHandler = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void
        let onPaint: PhaseHandler = { _, data in
            Unmanaged<FrameTarget>.fromOpaque(data!).takeUnretainedValue().paintCanvas()
        }
        let onAfterPaint: PhaseHandler = { _, data in
            Unmanaged<FrameTarget>.fromOpaque(data!).takeUnretainedValue().afterPaint()
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        paintHandler = connectSignal(UnsafeMutableRawPointer(current), "paint", onPaint, me)
        afterPaintHandler = connectSignal(UnsafeMutableRawPointer(current), "after-paint", onAfterPaint, me)
        return current
    }

    private func requestPaint() {
        guard let current = connectedClock() else { return }
        guard !paintRequested else { return }
        paintRequested = true
        gdk_frame_clock_request_phase(current, GDK_FRAME_CLOCK_PHASE_PAINT)
    }

    private func dropCanvas() {
        guard let canvas else { return }
        nook_canvas_destroy(canvas)
        self.canvas = nil
        history = []
        pending = nil
    }

    /// The frame clock's paint phase: one frame on a free buffer, repainting what is stale in it.
    private func paintCanvas() {
        paintRequested = false
        if let pending, pending.isEmpty { return }
        if canvas == nil { createCanvas() }
        guard let canvas else { return }
        let scale = max(1, gtk_widget_get_scale_factor(widget))
        let width = gtk_widget_get_allocated_width(widget), height = gtk_widget_get_allocated_height(widget)
        var stride: Int32 = 0, age: Int32 = 0
        if width != lastSize.width || height != lastSize.height {
            lastSize = (width, height)
            Log.debug("canvas \(width)x\(height)")
        }
        guard width > 0, height > 0 else { return }
        guard let pixels = nook_canvas_begin(canvas, width &* scale, height &* scale, scale, &stride, &age) else {
            // Every buffer is still the compositor's: the next frame tries again.
            if age == 0 { return requestPaint() }
            // None can be made: GTK draws from now on, rather than trying every frame.
            Log.info("the canvas cannot make a \(width)x\(height) buffer at scale \(scale): GTK draws the frames on its own surface")
            dropCanvas()
            usesCanvas = false
            return gtk_widget_queue_draw(widget)
        }
        let stale = Self.stale(pending, since: Int(age), history: history)
        guard let image = cairo_image_surface_create_for_data(pixels, CAIRO_FORMAT_ARGB32, width &* scale, height &* scale, stride) else { return }
        cairo_surface_set_device_scale(image, Double(scale), Double(scale))
        let cr = cairo_create(image)!
        if let stale {
            for rect in stale { cairo_rectangle(cr, rect.minX, rect.minY, rect.width, rect.height) }
            cairo_clip(cr)
        }
        paint(cr)
        cairo_destroy(cr)
        cairo_surface_flush(image)
        cairo_surface_destroy(image)
        let damage = age == 0 ? nil : pending
        if let damage {
            let flat = damage.flatMap { rect -> [Int32] in
                let x = rect.minX.rounded(.down), y = rect.minY.rounded(.down)
                return [Int32(clamping: Int(x)), Int32(clamping: Int(y)),
                        Int32(clamping: Int((rect.maxX.rounded(.up) - x))), Int32(clamping: Int((rect.maxY.rounded(.up) - y)))]
            }
            nook_canvas_commit(canvas, flat, Int32(damage.count))
        } else {
            nook_canvas_commit(canvas, nil, 0)
        }
        if nook_canvas_awaits_parent(canvas) != 0, let clock { gdk_frame_clock_request_phase(clock, GDK_FRAME_CLOCK_PHASE_AFTER_PAINT) }
        history.append(damage)
        if history.count > Self.historyLength { history.removeFirst(history.count - Self.historyLength) }
        pending = []
    }

    /// What to repaint in a buffer `age` frames old (0: unknown): this frame's damage and that
    /// of every frame committed since the buffer was; nil for everything.
    static func stale(_ damage: [Rect]?, since age: Int, history: [[Rect]?]) -> [Rect]? {
        guard var rects = damage, age >= 1, age - 1 <= history.count else { return nil }
        for earlier in history.suffix(age - 1) {
            guard let earlier else { return nil }
            rects += earlier
        }
        return rects
    }
}
