import CGtk
import NookBus
import NookCore

/// The display the nook lives on, as GDK reports it, and as `Subscribe` and `DisplayChanged`
/// declare it.
struct MonitorInfo: Hashable, Sendable {
    /// In application pixels (GDK's logical coordinates): the contract's points.
    var geometry: Rect
    var scale: Double
    var refreshRate: Double
    var name: String
    var notch: Size

    /// The primary monitor (or the first) of the default display.
    static func current(notch: Size) -> MonitorInfo {
        let monitor = primaryMonitor
        var area = GdkRectangle()
        gdk_monitor_get_geometry(monitor, &area)
        let millihertz = gdk_monitor_get_refresh_rate(monitor)
        let model = gdk_monitor_get_model(monitor).map { String(cString: $0) } ?? ""
        return MonitorInfo(
            geometry: Rect(x: Double(area.x), y: Double(area.y), width: Double(area.width), height: Double(area.height)),
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
        record["capabilities"] = .array(element: "s", [.string("relayout"), .string("spring"), .string("crossfade")])
        return record
    }
}
