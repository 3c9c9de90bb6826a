#if canImport(Glibc)
import Glibc
#endif

/// Watches one file by name, through inotify on its directory: written and closed, replaced
/// by a rename (as editors save), created or removed. A thread of its own sleeps in `poll` and
/// wakes only when that directory changes: nookd runs all day and must not wake for nothing.
///
/// The directory need not exist yet (a new user has no `~/.config/nook`): then the deepest
/// ancestor that exists is watched, and the watch moves down as directories appear (and back
/// up if they are removed). A burst of events (an editor's temporary file, rename and
/// attribute change) is one change: `onChange` runs once the directory has been quiet for
/// `settleMilliseconds`. A link at the watched name is seen replaced, not its target rewritten.
public final class FileChangeWatch: Sendable {
    /// Quiet time after the last event before `onChange` runs.
    public static let settleMilliseconds: Int32 = 150

    private let stopper: StopPipe

    /// Nil when inotify is unavailable (or the path has no file name): the caller says so, and
    /// the file is then read on SIGHUP and `ReloadTheme` only.
    public init?(path: String, onChange: @escaping @Sendable () -> Void) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard !name.isEmpty else { return nil }
        let inotify = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard inotify >= 0 else { return nil }
        guard let stopper = StopPipe() else {
            close(inotify)
            return nil
        }
        self.stopper = stopper
        // Armed before `init` returns: a change made once the caller holds the watch is seen,
        // however late the thread gets to run.
        let armed = DirectoryWatch(inotify: inotify, target: directory)
        DetachedThread.start(named: "nook-file-watch") {
            var watch = armed
            Self.run(&watch, stop: stopper.readEnd, name: name, onChange: onChange)
            close(inotify)
            stopper.close()
        }
    }

    /// Ends the watch; its thread closes the descriptors as it leaves. Call it once.
    public func stop() { stopper.stop() }

    private static func run(_ watch: inout DirectoryWatch, stop: Int32, name: String, onChange: @Sendable () -> Void) {
        var changed = false
        while true {
            var fds = [pollfd(fd: watch.inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: stop, events: Int16(POLLIN), revents: 0)]
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
            var rearm = false
            for event in readEvents(watch.inotify) where event.descriptor == watch.descriptor {
                if event.mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                    // The watched directory went away: watch what is left of the path.
                    rearm = true
                } else if watch.isTarget {
                    if event.name == name { changed = true }
                } else if event.mask & UInt32(IN_ISDIR) != 0 {
                    // A directory appeared on the way to the file's: follow it down.
                    rearm = true
                }
            }
            if rearm {
                let wasTarget = watch.isTarget
                watch.arm()
                // The file may have come or gone with its directory.
                if watch.isTarget || wasTarget { changed = true }
            }
        }
    }

    /// One inotify watch on the file's directory, or on its deepest existing ancestor.
    private struct DirectoryWatch {
        let inotify: Int32
        let target: String
        private(set) var descriptor: Int32 = -1
        private(set) var isTarget = false

        init(inotify: Int32, target: String) {
            self.inotify = inotify
            self.target = target
            arm()
        }

        /// Watches the deepest directory of `target` that exists now. A directory made on the
        /// way between looking for it and watching its parent (`mkdir -p` makes several at
        /// once) would never be reported, so once a watch is on an ancestor, the next
        /// directory down is looked for again, and if it is there now the walk starts over.
        mutating func arm() {
            // Bounded: a path being made and removed in a loop must not hold the thread here.
            for _ in 0..<64 {
                if descriptor >= 0 { _ = inotify_rm_watch(inotify, descriptor) }
                descriptor = -1
                isTarget = false
                var candidate = target
                var below: String?
                while true {
                    let added = inotify_add_watch(inotify, candidate, Self.mask)
                    if added >= 0 {
                        descriptor = added
                        isTarget = candidate == target
                        break
                    }
                    guard let slash = candidate.lastIndex(of: "/"), candidate != "/" else { return }
                    below = candidate
                    candidate = slash == candidate.startIndex ? "/" : String(candidate[..<slash])
                }
                guard let below, Self.isDirectory(below) else { return }
            }
        }

        private static let mask = UInt32(
            IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB
                | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

        private static func isDirectory(_ path: String) -> Bool {
            var status = stat()
            return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
        }
    }

    private struct Event {
        var descriptor: Int32
        var mask: UInt32
        var name: String
    }

    /// Everything queued on the inotify descriptor.
    private static func readEvents(_ inotify: Int32) -> [Event] {
        var events: [Event] = []
        let capacity = 4096
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        while true {
            let count = read(inotify, buffer, capacity)
            if count < 0 {
                if errno == EINTR { continue }
                return events
            }
            if count == 0 { return events }
            var offset = 0
            let header = MemoryLayout<inotify_event>.size
            while offset + header <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let length = Int(event.len)
                guard offset + header + length <= count else { break }
                let bytes = UnsafeRawBufferPointer(start: buffer + offset + header, count: length)
                events.append(Event(descriptor: event.wd, mask: event.mask, name: String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)))
                offset += header + length
            }
        }
    }
}
