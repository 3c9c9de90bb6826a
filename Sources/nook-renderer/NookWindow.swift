import CGtk
import CXdgOutput
import NookCore
import NookRenderModel

/// The surface the nook is drawn on: a layer-shell surface anchored top-centre on Wayland
/// compositors that support it, else a borderless dock window at the top of the monitor
/// (X11, Xvfb), else (Wayland without layer shell nor XWayland) an ordinary toplevel the
/// compositor places where it likes (a layer-shell surface only as large as what it shows:
/// `SurfaceExtent`). Where it goes (layer, output, margin, exclusive zone) comes from
/// `RendererConfig`; `place` applies it again whenever the config or the outputs change. Either way it spans the monitor's width and the top part of its
/// height, enough for the largest nook; outside the chrome it is transparent when a
/// compositor can blend it, else cut away with an X shape (`WindowShape`), and it takes pointer input
/// only over the chrome.
struct NookWindow {
    /// What the nook's surroundings look like when the window cannot be transparent.
    static let neutralBackground = (red: 0.16, green: 0.17, blue: 0.19)
    /// The share of the monitor's height the window covers (the board, the largest nook,
    /// stays well inside it).
    static let heightShare = 0.45

    let widget: UnsafeMutablePointer<GtkWidget>
    let usesLayerShell: Bool
    let isTransparent: Bool
    /// An X11 window (X11, Xvfb, XWayland): placed with `gtk_window_move` as a dock.
    let isX11: Bool
    /// Layer shell only: the band `exclusive_zone: auto` reserves for the resting pill, an
    /// empty, transparent layer surface (namespace `nook-reservation`) on the background layer,
    /// anchored to the top, left and right edges. Compositors arrange exclusive zones layer by
    /// layer from the overlay down to the background, so its zone comes after every bar's (on
    /// the top or bottom layer): the band lies right below the bars, and windows below it.
    let reservation: UnsafeMutablePointer<GtkWidget>?
    /// Where frames are drawn, and how a change asks for one.
    let frames: FrameTarget

    /// Where no compositor blends the window (X11 without one), it is shaped to the chrome.
    var needsShape: Bool { isX11 && !isTransparent }

    /// What kind of surface this is, for the log, saying plainly what it cannot do.
    var kindDescription: String {
        if usesLayerShell { return "layer shell" }
        if isX11 { return isTransparent ? "X11 dock window" : "X11 dock window, no compositor: shaped to the chrome" }
        return "no layer-shell: showing a normal toplevel window; the nook cannot be placed at the top edge"
    }

    var window: UnsafeMutablePointer<GtkWindow> { gtkCast(widget, to: GtkWindow.self) }

    static func make(on monitor: MonitorInfo, gdkMonitor: OpaquePointer?, config: RendererConfig) -> NookWindow {
        let (widget, window) = bareWindow(title: "Nook")
        gtk_window_set_resizable(window, 0)
        gtk_window_set_focus_on_map(window, 0)
        gtk_window_set_skip_taskbar_hint(window, 1)
        gtk_window_set_skip_pager_hint(window, 1)

        let screen = gtk_widget_get_screen(widget)
        let composited = gdk_screen_is_composited(screen) != 0
        if composited, let visual = gdk_screen_get_rgba_visual(screen) { gtk_widget_set_visual(widget, visual) }

        let layerShell = gtk_layer_is_supported() != 0
        let displayType = gdk_screen_get_display(screen).map { String(cString: g_type_name_from_instance(UnsafeMutableRawPointer($0).assumingMemoryBound(to: GTypeInstance.self))) }
        let isX11 = displayType == "GdkX11Display"
        if isX11, !composited, let visual = rootVisual(of: screen) { gtk_widget_set_visual(widget, visual) }
        if layerShell {
            gtk_layer_init_for_window(window)
            gtk_layer_set_namespace(window, "nook")
            gtk_layer_set_anchor(window, GTK_LAYER_SHELL_EDGE_TOP, 1)
            gtk_layer_set_keyboard_mode(window, GTK_LAYER_SHELL_KEYBOARD_MODE_NONE)
        } else if isX11 {
            gtk_window_set_type_hint(window, GDK_WINDOW_TYPE_HINT_DOCK)
            gtk_window_stick(window)
        }
        gtk_widget_add_events(widget, Int32(bitPattern: GDK_POINTER_MOTION_MASK.rawValue | GDK_BUTTON_PRESS_MASK.rawValue
            | GDK_BUTTON_RELEASE_MASK.rawValue | GDK_ENTER_NOTIFY_MASK.rawValue | GDK_LEAVE_NOTIFY_MASK.rawValue))
        let nook = NookWindow(widget: widget, usesLayerShell: layerShell, isTransparent: composited, isX11: isX11,
                              reservation: layerShell ? makeReservation(composited: composited) : nil,
                              frames: FrameTarget(widget: widget, wayland: displayType == "GdkWaylandDisplay"))
        nook.place(on: monitor, gdkMonitor: gdkMonitor, config: config, placement: Placement())
        return nook
    }

    /// A toplevel the renderer alone paints, with no decoration, that never takes the focus:
    /// the nook and its reservation band both start as one.
    private static func bareWindow(title: String) -> (UnsafeMutablePointer<GtkWidget>, UnsafeMutablePointer<GtkWindow>) {
        let widget = gtk_window_new(GTK_WINDOW_TOPLEVEL)!
        let window = gtkCast(widget, to: GtkWindow.self)
        gtk_window_set_title(window, title)
        gtk_window_set_decorated(window, 0)
        gtk_window_set_accept_focus(window, 0)
        gtk_widget_set_app_paintable(widget, 1)
        return (widget, window)
    }

    /// The reservation band (see `reservation`), not yet shown.
    private static func makeReservation(composited: Bool) -> UnsafeMutablePointer<GtkWidget> {
        let (widget, window) = bareWindow(title: "Nook reservation")
        if composited, let visual = gdk_screen_get_rgba_visual(gtk_widget_get_screen(widget)) { gtk_widget_set_visual(widget, visual) }
        gtk_layer_init_for_window(window)
        gtk_layer_set_namespace(window, "nook-reservation")
        gtk_layer_set_layer(window, GTK_LAYER_SHELL_LAYER_BACKGROUND)
        for edge in [GTK_LAYER_SHELL_EDGE_TOP, GTK_LAYER_SHELL_EDGE_LEFT, GTK_LAYER_SHELL_EDGE_RIGHT] { gtk_layer_set_anchor(window, edge, 1) }
        gtk_layer_set_keyboard_mode(window, GTK_LAYER_SHELL_KEYBOARD_MODE_NONE)
        gtk_widget_set_size_request(widget, 1, 1)
        typealias DrawHandler = @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> gboolean
        let clear: DrawHandler = { _, cr, _ in
            if let cr {
                cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
                cairo_paint(cr)
            }
            return 1
        }
        connectSignal(UnsafeMutableRawPointer(widget), "draw", clear)
        typealias RealizeHandler = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void
        let noInput: RealizeHandler = { widget, _ in
            guard let widget, let window = gtk_widget_get_window(widget.assumingMemoryBound(to: GtkWidget.self)) else { return }
            let region = cairo_region_create()
            gdk_window_input_shape_combine_region(window, region, 0, 0)
            cairo_region_destroy(region)
        }
        connectSignal(UnsafeMutableRawPointer(widget), "realize", noInput)
        return widget
    }

    /// What the plans decide about placement (with `layer` and `exclusive_zone` at `auto`).
    struct Placement: Equatable {
        /// Points to reserve for the resting pill below the bars (0: none, nothing is shown).
        var reserve = 0
        /// A critical peek is shown: over fullscreen windows.
        var critical = false
    }

    /// The X screen's own visual. GDK picks another (GL-capable) one with a colormap of its own,
    /// which nothing installs without a window manager, and then the desktop around the
    /// shaped window is shown black (seen on Xvfb). Only for an X11 screen.
    private static func rootVisual(of screen: OpaquePointer?) -> OpaquePointer? {
        guard let screen, let xscreen = gdk_x11_screen_get_xscreen(screen), let xvisual = xscreen.pointee.root_visual else { return nil }
        return gdk_x11_screen_lookup_visual(screen, xvisual.pointee.visualid)
    }

    /// The window's size for `monitor`, in points.
    static func size(on monitor: MonitorInfo) -> Size {
        Size(width: monitor.geometry.width, height: (monitor.geometry.height * heightShare).rounded(.up))
    }

    /// Spans the top of `monitor`, as `config` says. The window's top-left is the display's
    /// top-left (shifted down by the margin and, below panels, by them), so display points are
    /// window points.
    ///
    /// Layer shell takes layer, output, exclusive zone and top margin as they are (a new
    /// output remaps the surface). On X11 there is no layer: `overlay` adds keep-above to the
    /// dock window, `top` leaves the window manager's dock layer (which a focused fullscreen
    /// window covers); exclusive zone 0 starts the window where panels' struts end (the
    /// monitor's workarea), -1 and reservations start it at the monitor's top (X11 gets no
    /// strut from us); the margin moves it down.
    ///
    /// `layer: auto` is the top layer, and the overlay layer while `placement` says a critical
    /// peek is shown. `exclusive_zone: auto` (layer shell) shows the reservation band,
    /// `placement.reserve` points plus the margin tall, below the bars, and moves the nook up
    /// into it (exclusive zone 0 puts it below every zone, the band's too; a negative margin
    /// of the band's height brings it back to the band's top). On X11 `auto` is 0.
    func place(on monitor: MonitorInfo, gdkMonitor: OpaquePointer?, config: RendererConfig, placement: Placement, size: Size? = nil) {
        resize(on: monitor, to: size)
        follow(placement, config: config, gdkMonitor: gdkMonitor)
        if !usesLayerShell {
            let top = (config.exclusiveZone ?? 0) == 0 ? max(monitor.geometry.y, monitor.workarea.y) : monitor.geometry.y
            gtk_window_move(window, Int32(monitor.geometry.x), Int32(top) + Int32(config.marginTop))
        }
    }

    /// The window is `size` (nil: `size(on:)`'s share), within that share; only a layer-shell
    /// surface is ever given less (`SurfaceExtent`), and the compositor centres it.
    func resize(on monitor: MonitorInfo, to size: Size?) {
        let share = Self.size(on: monitor)
        let wanted = usesLayerShell ? size ?? share : share
        let width = min(share.width, max(1, wanted.width)), height = min(share.height, max(1, wanted.height))
        frames.resizeRequested(width: Int32(width), height: Int32(height))
        gtk_widget_set_size_request(widget, Int32(width), Int32(height))
        gtk_window_resize(window, Int32(width), Int32(height))
    }

    /// Layer, exclusive zone and margin as `config` and `placement` want them; only what changed
    /// is sent (a new layer or monitor may remap the surface).
    /// - Parameter gdkMonitor: the output the layer surface is pinned to; nil leaves it to the
    ///   compositor (`output: focused` where no IPC says which output has the focus).
    func follow(_ placement: Placement, config: RendererConfig, gdkMonitor: OpaquePointer?) {
        let overlay = config.layer == .overlay || (config.layer == .auto && placement.critical)
        guard usesLayerShell else {
            gtk_window_set_keep_above(window, overlay ? 1 : 0)
            return
        }
        let layer = overlay ? GTK_LAYER_SHELL_LAYER_OVERLAY : GTK_LAYER_SHELL_LAYER_TOP
        if gtk_layer_get_layer(window) != layer {
            gtk_layer_set_layer(window, layer)
            // Applied only on a commit, which GTK makes when it next draws; a surface covered by a
            // fullscreen window gets no frame callbacks, so it would never be drawn onto the overlay.
            if let gdkWindow = gtk_widget_get_window(widget) {
                nook_surface_commit(gdk_wayland_window_get_wl_surface(gdkWindow))
            }
        }
        // nil (`focused` without sway's IPC): the compositor puts it on the focused output.
        let monitor = gdkMonitor
        if gtk_layer_get_monitor(window) != monitor { gtk_layer_set_monitor(window, monitor) }
        let reserve = config.exclusiveZone == nil ? max(0, min(placement.reserve, 1000)) : 0
        if let band = reservation {
            let bandWindow = gtkCast(band, to: GtkWindow.self)
            if gtk_layer_get_monitor(bandWindow) != monitor { gtk_layer_set_monitor(bandWindow, monitor) }
            let zone = Int32(reserve + config.marginTop)
            if reserve > 0 {
                if gtk_layer_get_exclusive_zone(bandWindow) != zone { gtk_layer_set_exclusive_zone(bandWindow, zone) }
                if gtk_widget_get_visible(band) == 0 { gtk_widget_show_all(band) }
            } else if gtk_widget_get_visible(band) != 0 {
                gtk_widget_hide(band)
            }
        }
        let zone = Int32(config.exclusiveZone ?? 0)
        if gtk_layer_get_exclusive_zone(window) != zone { gtk_layer_set_exclusive_zone(window, zone) }
        // Below the band (reserve + margin tall), the nook is moved up to the band's top plus the margin.
        let margin = reserve > 0 ? -Int32(reserve) : Int32(config.marginTop)
        if gtk_layer_get_margin(window, GTK_LAYER_SHELL_EDGE_TOP) != margin { gtk_layer_set_margin(window, GTK_LAYER_SHELL_EDGE_TOP, margin) }
    }

    /// Pointer input only over `rects` (the chrome, capsules, the close control), so clicks
    /// elsewhere reach the desktop; none at all for an empty list.
    func acceptInput(in rects: [Rect]) {
        // Whole points, a point wider and taller to cover antialiasing; clamped, so no rect traps.
        func points(_ value: Double) -> Int32 { Int32(max(-1_000_000, min(1_000_000, value.isFinite ? value : 0))) }
        let areas = rects.filter { $0.width > 0 && $0.height > 0 }.map { rect in
            cairo_rectangle_int_t(x: points(rect.minX.rounded(.down)), y: points(rect.minY.rounded(.down)),
                                  width: points(rect.width.rounded(.up) + 1), height: points(rect.height.rounded(.up) + 1))
        }
        guard !frames.usesCanvas else { return frames.acceptInput(in: areas) }
        guard let gdkWindow = gtk_widget_get_window(widget) else { return }
        let region = cairo_region_create()
        for var area in areas { cairo_region_union_rectangle(region, &area) }
        gdk_window_input_shape_combine_region(gdkWindow, region, 0, 0)
        cairo_region_destroy(region)
    }
}
