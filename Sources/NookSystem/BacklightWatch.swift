import Glibc
import NookBus
import NookFiles

/// The backlights under `/sys/class/backlight` (or another directory, for tests), followed
/// through inotify on each one's `brightness` file: every write to it (`brightnessctl`,
/// logind's `SetBrightness`, a desktop's slider, a key bound to either) wakes one thread, which
/// reads the level again; nothing is polled. A change the firmware makes without writing the
/// file is not seen (the kernel announces those only to udev).
///
/// Every value is checked: `max_brightness` must be 1...2^31-1 and `brightness` 0...max
/// (clamped), each file at most 4 KiB, read only if it is a regular file.
public final class BacklightWatch: Sendable {
    /// One device's level, 0...1.
    public struct Level: Hashable, Sendable {
        public var device: String
        public var level: Double
    }

    private let stopper: StopPipe
    public let devices: [String]

    /// Nil when there is no backlight under `directory` (or inotify is unavailable).
    public init?(directory: String = "/sys/class/backlight", onChange: @escaping @Sendable (Level) -> Void) {
        let found = Self.deviceNames(in: directory).filter { Self.level(directory: directory, device: $0) != nil }
        guard !found.isEmpty else { return nil }
        let inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard inotify >= 0 else { return nil }
        var watches: [Int32: String] = [:]
        for device in found {
            let wd = inotify_add_watch(inotify, "\(directory)/\(device)/brightness", UInt32(IN_MODIFY | IN_CLOSE_WRITE))
            if wd >= 0 { watches[wd] = device }
        }
        guard !watches.isEmpty, let stopper = StopPipe() else {
            close(inotify)
            return nil
        }
        self.stopper = stopper
        devices = found.sorted()
        let watched = watches
        // The levels as they are now, read before `init` returns: a write made once the caller
        // holds the watch is news, however late the thread gets to run.
        var levels: [String: Double] = [:]
        for device in watches.values { levels[device] = Self.level(directory: directory, device: device) }
        let initial = levels
        DetachedThread.start(named: "nook-backlight") {
            Self.run(inotify: inotify, stop: stopper.readEnd, directory: directory, watched: watched, levels: initial, onChange: onChange)
            close(inotify)
            stopper.close()
        }
    }

    /// Ends the watch; its thread closes the descriptors as it leaves. Call it once.
    public func stop() { stopper.stop() }

    /// The entries of `directory` (each a link to a device in sysfs), sorted.
    static func deviceNames(in directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != "..", !name.contains("/") { names.append(name) }
        }
        return names.sorted()
    }

    /// `brightness / max_brightness`, 0...1; nil when either is missing or out of its range.
    public static func level(directory: String, device: String) -> Double? {
        func number(_ file: String) -> Int? {
            guard let data = try? BoundedFileRead.read("\(directory)/\(device)/\(file)", limit: 4096, followLinks: true) else { return nil }
            return Int(String(decoding: data, as: UTF8.self).trimmingWhitespace)
        }
        guard let maximum = number("max_brightness"), (1...Int(Int32.max)).contains(maximum), let value = number("brightness") else { return nil }
        return Double(min(max(value, 0), maximum)) / Double(maximum)
    }

    private static func run(
        inotify: Int32, stop: Int32, directory: String, watched: [Int32: String], levels: [String: Double], onChange: @Sendable (Level) -> Void
    ) {
        var last = levels
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 2, -1) >= 0 || errno == EINTR else { return }
            if fds[1].revents != 0 { return }
            guard fds[0].revents != 0 else { continue }
            var changed = Set<String>()
            while true {
                let n = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress!, $0.count) }
                guard n > 0 else { break }
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= n {
                    let (wd, length) = buffer.withUnsafeBytes { raw in
                        (raw.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                         Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
                    }
                    if let device = watched[wd] { changed.insert(device) }
                    offset += MemoryLayout<inotify_event>.size + length
                }
            }
            // A write is a modify and a close: one reading, and only a new level is news.
            for device in changed.sorted() {
                guard let now = level(directory: directory, device: device), now != last[device] else { continue }
                last[device] = now
                onChange(Level(device: device, level: now))
            }
        }
    }
}
