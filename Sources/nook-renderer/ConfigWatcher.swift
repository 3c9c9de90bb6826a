import CGtk
import NookRenderModel

/// Watches every place `renderer.json` may be (each candidate file and its directory, so a
/// file created, replaced by rename or removed later is seen) and calls `onChange` on the GTK
/// main loop once a burst of events has passed.
final class ConfigWatcher {
    private var monitors: [UnsafeMutablePointer<GFileMonitor>] = []
    private let onChange: () -> Void
    private var pending: guint = 0
    /// Editors write a file in several steps: wait this long after the last event.
    static let settleMilliseconds: guint = 150

    init(paths: [String], onChange: @escaping () -> Void) {
        self.onChange = onChange
        let me = Unmanaged.passUnretained(self).toOpaque()
        typealias ChangedHandler = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, GFileMonitorEvent, UnsafeMutableRawPointer?) -> Void
        let changed: ChangedHandler = { _, file, other, event, data in
            // Content changes mid-write are followed by CHANGES_DONE_HINT; wait for that.
            guard event != G_FILE_MONITOR_EVENT_CHANGED, event != G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED else { return }
            let watcher = Unmanaged<ConfigWatcher>.fromOpaque(data!).takeUnretainedValue()
            guard [file, other].contains(where: { $0.map(ConfigWatcher.isConfigFile) == true }) else { return }
            watcher.schedule()
        }
        for path in paths {
            let file = g_file_new_for_path(path)
            let directory = g_file_get_parent(file)
            for (target, isDirectory) in [(file, false), (directory, true)] {
                guard let target else { continue }
                var error: UnsafeMutablePointer<GError>?
                let flags = GFileMonitorFlags(rawValue: G_FILE_MONITOR_WATCH_MOVES.rawValue)
                let monitor = isDirectory ? g_file_monitor_directory(target, flags, nil, &error) : g_file_monitor_file(target, flags, nil, &error)
                if let error {
                    Log.debug("cannot watch \(path): \(String(cString: error.pointee.message))")
                    g_error_free(error)
                }
                guard let monitor else { continue }
                monitors.append(monitor)
                connectSignal(UnsafeMutableRawPointer(monitor), "changed", changed, me)
            }
            if let directory { g_object_unref(UnsafeMutableRawPointer(directory)) }
            g_object_unref(UnsafeMutableRawPointer(file))
        }
    }

    private static func isConfigFile(_ file: OpaquePointer) -> Bool {
        guard let name = g_file_get_basename(file) else { return false }
        defer { g_free(name) }
        return String(cString: name) == "renderer.json"
    }

    private func schedule() {
        if pending != 0 { g_source_remove(pending) }
        pending = g_timeout_add(Self.settleMilliseconds, { data in
            let watcher = Unmanaged<ConfigWatcher>.fromOpaque(data!).takeUnretainedValue()
            watcher.pending = 0
            watcher.onChange()
            return 0  // G_SOURCE_REMOVE
        }, Unmanaged.passUnretained(self).toOpaque())
    }
}
