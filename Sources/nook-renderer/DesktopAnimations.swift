import CGtk

/// The desktop's own animation switch: GtkSettings `gtk-enable-animations`, which GNOME's
/// `org.gnome.desktop.interface enable-animations` drives (through XSETTINGS on X11 and the
/// settings portal or GSettings on Wayland), and `settings.ini` sets elsewhere.
final class DesktopAnimations {
    private let onChange: (Bool) -> Void

    /// Whether the desktop enables animations now.
    static var enabled: Bool {
        guard let settings = gtk_settings_get_default() else { return true }
        var value = GValue()
        g_value_init(&value, GType(5 << 2))  // G_TYPE_BOOLEAN (a macro that does not import)
        g_object_get_property(UnsafeMutableRawPointer(settings).assumingMemoryBound(to: GObject.self), "gtk-enable-animations", &value)
        let enabled = g_value_get_boolean(&value) != 0
        g_value_unset(&value)
        return enabled
    }

    /// Calls `onChange` with the new value each time the setting changes (GTK main loop).
    init(onChange: @escaping (Bool) -> Void) {
        self.onChange = onChange
        guard let settings = gtk_settings_get_default() else { return }
        typealias NotifyHandler = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void
        let notify: NotifyHandler = { _, _, data in
            let watcher = Unmanaged<DesktopAnimations>.fromOpaque(data!).takeUnretainedValue()
            watcher.onChange(DesktopAnimations.enabled)
        }
        connectSignal(UnsafeMutableRawPointer(settings), "notify::gtk-enable-animations", notify, Unmanaged.passUnretained(self).toOpaque())
    }
}
