#if canImport(Glibc)
import Glibc
#endif
import NookBus

/// Watches one file by name, through inotify on its directory: written and closed, replaced
/// by a rename (as editors save), created or removed. A thread of its own sleeps in `poll` and
/// wakes only when that directory changes: nookd runs all day and must not wake for nothing.
///
/// A burst of events (an editor's temporary file, rename and attribute change) is one change:
/// `onChange` runs once the directory has been quiet for `settle`. A link at the watched name
/// is seen replaced, not its target rewritten.
final class FileChangeWatch: Sendable {
    /// Quiet time after the last event before `onChange` runs.
    static let settleMilliseconds: Int32 = 150

    private let stopFD: Int32

    /// Nil when the directory cannot be watched (it does not exist, or inotify is unavailable):
    /// the caller says so, and the file is then read on SIGHUP and `ReloadTheme` only.
    init?(path: String, onChange: @escaping @Sendable () -> Void) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty else { return nil }
        let inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard inotify >= 0 else { return nil }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB)
        guard inotify_add_watch(inotify, directory, mask) >= 0 else {
            close(inotify)
            return nil
        }
        // A pipe to wake the thread for `stop`: its write end here, its read end polled.
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            close(inotify)
            return nil
        }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let (stopRead, stopWrite) = (ends[0], ends[1])
        stopFD = stopWrite
        DetachedThread.start {
            Self.run(inotify: inotify, stop: stopRead, name: name, onChange: onChange)
            close(inotify)
            close(stopRead)
            close(stopWrite)
        }
    }

    /// Ends the watch; its thread closes the descriptors as it leaves. Call it once.
    func stop() {
        var one: UInt8 = 1
        _ = write(stopFD, &one, 1)
    }

    private static func run(inotify: Int32, stop: Int32, name: String, onChange: @Sendable () -> Void) {
        var changed = false
        while true {
            var fds = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
            // Asleep until something happens; once the file changed, until the burst is over.
            let ready = poll(&fds, 2, changed ? settleMilliseconds : -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            if ready == 0 {
                changed = false
                onChange()
                continue
            }
            switch readEvents(inotify, name: name) {
            case .named: changed = true
            case .other: break
            case .gone: return
            }
        }
    }

    private enum Batch { case named, other, gone }

    /// Reads what is queued; whether an event named the file, or the directory went away.
    private static func readEvents(_ inotify: Int32, name: String) -> Batch {
        var outcome = Batch.other
        let capacity = 4096
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        while true {
            let count = read(inotify, buffer, capacity)
            if count < 0 {
                if errno == EINTR { continue }
                return outcome
            }
            if count == 0 { return .gone }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let length = Int(event.len)
                guard offset + header + length <= count else { break }
                if event.mask & UInt32(IN_IGNORED) != 0 { return .gone }
                if length > 0 {
                    let bytes = UnsafeRawBufferPointer(start: buffer + offset + header, count: length)
                    let eventName = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                    if eventName == name { outcome = .named }
                }
                offset += header + length
            }
        }
    }
}

extension BrokerDaemon {
    /// Reloads the theme whenever its file changes, as SIGHUP does (a bad file is logged by
    /// the broker and changes nothing); nil when the configuration gave the theme itself or its
    /// directory cannot be watched (logged).
    static func watchThemeFile(_ broker: Broker, log: Log) -> FileChangeWatch? {
        guard let file = broker.themeFile else { return nil }
        let path = file.path
        let watch = FileChangeWatch(path: path) {
            Task {
                log(.info, "the theme file \(path) changed; reloading it")
                _ = try? await broker.reloadTheme()
            }
        }
        if watch == nil {
            log(.info, "cannot watch the directory of \(path) (it may not exist yet); the theme file is read again on SIGHUP and ReloadTheme")
        }
        return watch
    }
}
