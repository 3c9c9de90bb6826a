import CGtk
import NookBus
import NookCore
import NookRenderModel

/// The display the nook lives on, as GDK reports it, and as `Subscribe` and `DisplayChanged`
/// declare it.
struct MonitorInfo: Hashable, Sendable {
    /// In application pixels (GDK's logical coordinates): the contract's points.
    var geometry: Rect
    /// Where panels leave room (X11's `_NET_WORKAREA`; the geometry where GDK knows none).
    var workarea: Rect
    var scale: Double
    var refreshRate: Double
    var name: String
    var notch: Size

    init(geometry: Rect, workarea: Rect, scale: Double, refreshRate: Double, name: String, notch: Size) {
        self.geometry = geometry
        self.workarea = workarea
        self.scale = scale
        self.refreshRate = refreshRate
        self.name = name
        self.notch = notch
    }

    /// `monitor` as GDK describes it.
    init(_ monitor: OpaquePointer?, notch: Size) {
        var area = GdkRectangle()
        gdk_monitor_get_geometry(monitor, &area)
        var work = GdkRectangle()
        gdk_monitor_get_workarea(monitor, &work)
        let millihertz = gdk_monitor_get_refresh_rate(monitor)
        let model = Self.connector(of: monitor) ?? Self.model(of: monitor)
        self.init(
            geometry: Rect(x: Double(area.x), y: Double(area.y), width: Double(area.width), height: Double(area.height)),
            workarea: Rect(x: Double(work.x), y: Double(work.y), width: Double(work.width), height: Double(work.height)),
            scale: Double(max(1, gdk_monitor_get_scale_factor(monitor))),
            // Xvfb and some drivers report 0: assume the common 60 Hz.
            refreshRate: millihertz > 0 ? Double(millihertz) / 1000 : 60,
            name: model.isEmpty ? "monitor-0" : model,
            notch: notch)
    }

    /// The primary monitor, or the first (Wayland has no primary).
    static var primaryMonitor: OpaquePointer? {
        let display = gdk_display_get_default()
        return gdk_display_get_primary_monitor(display) ?? gdk_display_get_monitor(display, 0)
    }

    /// GDK's model string: on X11 the RandR output's name (the connector, `DP-1`); on Wayland
    /// the model `wl_output` reports (GTK 3 does not expose the connector there).
    static func model(of monitor: OpaquePointer?) -> String {
        gdk_monitor_get_model(monitor).map { String(cString: $0) } ?? ""
    }

    /// The output's connector name (`DP-1`, `HEADLESS-2`): on X11 GDK's model, which is the
    /// RandR output's name; on Wayland xdg-output's `name` (`OutputConnectors`; GTK 3 reads it
    /// but does not expose it). Nil when the compositor has no xdg-output 2.
    static func connector(of monitor: OpaquePointer?) -> String? {
        guard let monitor, let display = gdk_monitor_get_display(monitor) else { return nil }
        guard isWayland(display) else {
            let model = model(of: monitor)
            return model.isEmpty ? nil : model
        }
        guard let output = gdk_wayland_monitor_get_wl_output(monitor) else { return nil }
        return OutputConnectors.name(of: output, on: gdk_wayland_display_get_wl_display(display))
    }

    static func isWayland(_ display: OpaquePointer?) -> Bool {
        guard let display else { return false }
        return String(cString: g_type_name_from_instance(UnsafeMutableRawPointer(display).assumingMemoryBound(to: GTypeInstance.self))) == "GdkWaylandDisplay"
    }

    /// The monitor `output` names, and whether it was found (else the primary one).
    static func monitor(for output: RendererConfig.Output) -> (monitor: OpaquePointer?, found: Bool) {
        let display = gdk_display_get_default()
        switch output {
        case .primary:
            return (primaryMonitor, true)
        case .focused:
            // Where GDK last saw the pointer: exact on X11; on Wayland GDK knows it only over
            // its own surfaces.
            var x: Int32 = 0, y: Int32 = 0
            if let seat = gdk_display_get_default_seat(display), let pointer = gdk_seat_get_pointer(seat) {
                gdk_device_get_position(pointer, nil, &x, &y)
                if let monitor = gdk_display_get_monitor_at_point(display, x, y) { return (monitor, true) }
            }
            return (primaryMonitor, false)
        case .named(let name):
            for index in 0..<gdk_display_get_n_monitors(display) {
                guard let monitor = gdk_display_get_monitor(display, index) else { continue }
                let model = model(of: monitor)
                let maker = gdk_monitor_get_manufacturer(monitor).map { String(cString: $0) } ?? ""
                if model == name || (!maker.isEmpty && "\(maker) \(model)" == name) || connector(of: monitor) == name {
                    return (monitor, true)
                }
            }
            return (primaryMonitor, false)
        }
    }

    /// The names `output` can match, for the log when it matches none.
    static var knownNames: [String] {
        let display = gdk_display_get_default()
        return (0..<gdk_display_get_n_monitors(display)).map { index in
            let monitor = gdk_display_get_monitor(display, index)
            let model = model(of: monitor)
            guard let connector = connector(of: monitor), connector != model else { return model }
            return "\(connector) (\(model))"
        }
    }

    /// The contract's display record (`Subscribe` adds `name` and `capabilities`).
    var displayRecord: [String: DBusValue] {
        [
            "width": .double(geometry.width), "height": .double(geometry.height),
            "notch_width": .double(notch.width), "notch_height": .double(notch.height),
            "scale": .double(scale), "refresh_rate": .double(refreshRate),
        ]
    }

    var subscription: [String: DBusValue] {
        var record = displayRecord
        record["name"] = .string(name)
        record["capabilities"] = .array(element: "s", [.string("relayout"), .string("spring"), .string("crossfade"), .string("scene_delta"), .string("compact_plans")])
        return record
    }

    /// Same size, scale, rate and notch: no `DisplayChanged` needed (a model name alone is no
    /// new display: X drops it while an output is reconfigured).
    func declaresSame(as other: MonitorInfo) -> Bool {
        geometry.size == other.geometry.size && scale == other.scale && refreshRate == other.refreshRate && notch == other.notch
    }
}
