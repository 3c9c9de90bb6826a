import CGtk
import Glibc
import NookRenderModel

/// Watches every place `renderer.json` may be (each candidate file and its directory, so a
/// file created, replaced by rename or removed later is seen) and calls `onChange` on the GTK
/// main loop once a burst of events has passed.
///
/// A candidate whose directory does not exist (`/etc/xdg/nook` on most machines) is not
/// watched by its path: GLib then looks for the missing path every four seconds, a wakeup a
/// desktop pays all day for nothing. Its nearest existing ancestor is watched instead, and when
/// something appears there the watches are made again, deeper.
final class ConfigWatcher {
    private var monitors: [UnsafeMutablePointer<GFileMonitor>] = []
    private let paths: [String]
    private let onChange: () -> Void
    private var pending: guint = 0
    /// Whether the watches must be made again (a directory on a candidate's path appeared).
    private var rearm = false
    /// The names whose appearance in a watched ancestor means a candidate's directory is
    /// nearer (the next component of each missing path below its ancestor).
    private var awaited: Set<String> = []
    /// Editors write a file in several steps: wait this long after the last event.
    static let settleMilliseconds: guint = 150

    typealias ChangedHandler = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, GFileMonitorEvent, UnsafeMutableRawPointer?) -> Void

    init(paths: [String], onChange: @escaping () -> Void) {
        self.paths = paths
        self.onChange = onChange
        arm()
    }

    /// Whether `path` is an existing directory.
    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// `path`'s directory, or "" for a path without one.
    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private func arm() {
        for monitor in monitors {
            g_file_monitor_cancel(monitor)
            g_object_unref(UnsafeMutableRawPointer(monitor))
        }
        monitors = []
        let changed: ChangedHandler = { _, file, other, event, data in
            // Content changes mid-write are followed by CHANGES_DONE_HINT; wait for that.
            guard event != G_FILE_MONITOR_EVENT_CHANGED, event != G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED else { return }
            let watcher = Unmanaged<ConfigWatcher>.fromOpaque(data!).takeUnretainedValue()
            guard [file, other].contains(where: { $0.map(ConfigWatcher.isConfigFile) == true }) else { return }
            watcher.schedule()
        }
        let appeared: ChangedHandler = { _, file, other, event, data in
            guard event == G_FILE_MONITOR_EVENT_CREATED || event == G_FILE_MONITOR_EVENT_MOVED_IN || event == G_FILE_MONITOR_EVENT_RENAMED else { return }
            let watcher = Unmanaged<ConfigWatcher>.fromOpaque(data!).takeUnretainedValue()
            guard [file, other].contains(where: { $0.flatMap(ConfigWatcher.basename).map(watcher.awaited.contains) == true }) else { return }
            watcher.rearm = true
            watcher.schedule()
        }
        var ancestors: Set<String> = []
        awaited = []
        // The missing directories, each to be looked at again once its ancestor is watched.
        var missingDirectories: [String] = []
        for path in paths {
            let directory = Self.parent(path)
            if Self.isDirectory(directory) {
                watch(path, directory: false, changed)
                watch(directory, directory: true, changed)
            } else {
                var missing = directory, ancestor = Self.parent(directory)
                while !ancestor.isEmpty, !Self.isDirectory(ancestor) { (missing, ancestor) = (ancestor, Self.parent(ancestor)) }
                awaited.insert(String(missing[missing.index(after: missing.lastIndex(of: "/") ?? missing.startIndex)...]))
                if !ancestor.isEmpty, ancestors.insert(ancestor).inserted { watch(ancestor, directory: true, appeared) }
                missingDirectories.append(missing)
            }
        }
        // Made between the look above and its ancestor's watch, a directory would never be
        // seen appearing (nor the file later written into it): look again, now that the watch
        // is there, and go deeper at once if it came.
        if missingDirectories.contains(where: Self.isDirectory) {
            rearm = true
            schedule()
        }
    }

    private func watch(_ path: String, directory: Bool, _ handler: ChangedHandler) {
        let file = g_file_new_for_path(path)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        var error: UnsafeMutablePointer<GError>?
        let flags = GFileMonitorFlags(rawValue: G_FILE_MONITOR_WATCH_MOVES.rawValue)
        let monitor = directory ? g_file_monitor_directory(file, flags, nil, &error) : g_file_monitor_file(file, flags, nil, &error)
        if let error {
            Log.debug("cannot watch \(path): \(String(cString: error.pointee.message))")
            g_error_free(error)
        }
        guard let monitor else { return }
        monitors.append(monitor)
        connectSignal(UnsafeMutableRawPointer(monitor), "changed", handler, Unmanaged.passUnretained(self).toOpaque())
    }

    private static func basename(_ file: OpaquePointer) -> String? {
        guard let name = g_file_get_basename(file) else { return nil }
        defer { g_free(name) }
        return String(cString: name)
    }

    private static func isConfigFile(_ file: OpaquePointer) -> Bool { basename(file) == "renderer.json" }

    private func schedule() {
        if pending != 0 { g_source_remove(pending) }
        pending = g_timeout_add(Self.settleMilliseconds, { data in
            let watcher = Unmanaged<ConfigWatcher>.fromOpaque(data!).takeUnretainedValue()
            watcher.pending = 0
            // Made again here, outside the monitors' own callbacks.
            if watcher.rearm {
                watcher.rearm = false
                watcher.arm()
            }
            watcher.onChange()
            return 0  // G_SOURCE_REMOVE
        }, Unmanaged.passUnretained(self).toOpaque())
    }
}
