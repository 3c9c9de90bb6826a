import FoundationEssentials
import Glibc
import NookFiles

/// The bridge's state files in `$XDG_STATE_HOME/nook` (else `~/.local/state/nook`), the
/// directory nookd keeps its state in: read and written so that no other user can read them
/// and a crash never leaves half a file.
///
/// - The directory is created 0700; an existing one that is a link, not a directory, not
///   ours, or open to the group or others is refused (nothing is read or written there; the
///   bridge keeps its history in memory and says why).
/// - A file is opened without following a link (`O_NOFOLLOW`), read only when `fstat` says
///   it is a regular file of at most `maxFileBytes`, and written 0600 to a temporary file in
///   the same directory, `fsync`ed and renamed over the old one.
/// - A file that cannot be read or decoded, or holds a value the bridge could not have
///   written, is moved aside (`<name>.corrupt-<unix seconds>-<pid>`) and reported, never fatal.
public struct HistoryStore: Sendable {
    public let directory: String
    public let fileName: String
    /// The largest file read or written: 500 entries at their limits, with JSON escaping.
    public static let maxFileBytes = 16 << 20

    public var path: String { directory + "/" + fileName }

    /// `$XDG_STATE_HOME/nook`, else `$HOME/.local/state/nook`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/nook" }
        return (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.local/state/nook"
    }

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// What `load` found.
    public enum Loaded<Value: Sendable>: Sendable {
        case none
        case loaded(Value)
        /// Unreadable or invalid: why, and where it was moved (nil when moving failed too).
        case corrupt(reason: String, movedTo: String?)
        /// The directory is not one to use: nothing was read.
        case refused(String)
    }

    /// Checks the directory (creating it, 0700, when `create`); nil when it does not exist
    /// and `create` is false.
    func checkedDirectory(create: Bool) throws(Failure) -> Bool {
        var info = stat()
        if lstat(directory, &info) != 0 {
            guard errno == ENOENT else { throw Failure("cannot stat \(directory): \(String(cString: strerror(errno)))") }
            guard create else { return false }
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch { throw Failure("cannot create \(directory): \(error)") }
            guard lstat(directory, &info) == 0 else { throw Failure("cannot stat \(directory): \(String(cString: strerror(errno)))") }
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw Failure("\(directory) is not a directory (a link or a file)") }
        guard info.st_uid == geteuid() else { throw Failure("\(directory) belongs to uid \(info.st_uid), not to this user") }
        guard info.st_mode & 0o077 == 0 else {
            throw Failure("\(directory) is open to other users (mode \(String(info.st_mode & 0o777, radix: 8))); make it 0700")
        }
        return true
    }

    /// Reads and decodes the file; a file that fails (`validate` names why) is moved aside.
    public func load<Value: Decodable & Sendable>(_ type: Value.Type, validate: (Value) -> String?) -> Loaded<Value> {
        do { guard try checkedDirectory(create: false) else { return .none } } catch { return .refused(error.description) }
        let data: Data
        switch read() {
        case .success(nil): return .none
        case .success(let bytes?): data = bytes
        case .failure(let failure): return moveAside(failure.description)
        }
        do {
            let value = try JSONDecoder().decode(Value.self, from: data)
            if let problem = validate(value) { return moveAside(problem) }
            return .loaded(value)
        } catch {
            return moveAside("not the expected JSON: \(error)")
        }
    }

    /// The file's bytes, nil when there is none; a link, a non-regular file or one over
    /// `maxFileBytes` is a failure, unread.
    func read() -> Result<Data?, Failure> {
        do {
            return .success(try BoundedFileRead.read(path, limit: Self.maxFileBytes, followLinks: false))
        } catch {
            switch error.reason {
            case .link: return .failure(Failure("\(path) is a symbolic link"))
            case .notRegular: return .failure(Failure("\(path) is not a regular file"))
            case .tooLarge(let size, _): return .failure(Failure("\(path) is \(size) bytes, over the limit of \(Self.maxFileBytes)"))
            case .system(let operation, let code): return .failure(Failure("cannot \(operation) \(path): \(String(cString: strerror(code)))"))
            }
        }
    }

    func moveAside<Value>(_ reason: String) -> Loaded<Value> {
        let target = path + ".corrupt-\(Int(Date().timeIntervalSince1970))-\(getpid())"
        let moved = rename(path, target) == 0
        return .corrupt(reason: reason, movedTo: moved ? target : nil)
    }

    /// Encodes `value` and replaces the file with it atomically, mode 0600.
    public func save<Value: Encodable>(_ value: Value) throws(Failure) {
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            data = try encoder.encode(value)
        } catch { throw Failure("cannot encode \(fileName): \(error)") }
        guard data.count <= Self.maxFileBytes else { throw Failure("\(fileName) would be \(data.count) bytes, over \(Self.maxFileBytes); not written") }
        _ = try checkedDirectory(create: true)
        let temporary = path + ".tmp-\(getpid())"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure("cannot create \(temporary): \(String(cString: strerror(errno)))") }
        var written = 0
        let ok = data.withUnsafeBytes { bytes -> Bool in
            while written < bytes.count {
                let count = write(fd, bytes.baseAddress! + written, bytes.count - written)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                written += count
            }
            return fsync(fd) == 0
        }
        close(fd)
        guard ok, rename(temporary, path) == 0 else {
            let why = String(cString: strerror(errno))
            unlink(temporary)
            throw Failure("cannot write \(path): \(why)")
        }
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
    }
}

/// Writes the latest of what it is given, off the bus thread, at most once per `interval`:
/// a burst of closes costs one write (as nookd's state writes coalesce).
public actor CoalescingWriter<Value: Encodable & Sendable> {
    let store: HistoryStore
    let interval: Duration
    let log: @Sendable (String) -> Void
    private var pending: Value?
    private var waiting: Task<Void, Never>?
    private var lastFailure: String?

    public init(store: HistoryStore, interval: Duration = .milliseconds(100), log: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.interval = interval
        self.log = log
    }

    /// Writes `value` within `interval` (replacing any value not yet written).
    public func schedule(_ value: Value) {
        pending = value
        guard waiting == nil else { return }
        let interval = self.interval
        waiting = Task {
            try? await Task.sleep(for: interval)
            self.writePending()
        }
    }

    /// Writes what is pending now (the bridge leaving).
    public func flush() {
        waiting?.cancel()
        writePending()
    }

    private func writePending() {
        waiting = nil
        guard let value = pending else { return }
        pending = nil
        do {
            try store.save(value)
            if lastFailure != nil { log("\(store.path) written again") }
            lastFailure = nil
        } catch {
            // Said once per kind of failure, not at every close.
            if lastFailure != error.description { log("cannot keep \(store.fileName): \(error.description)") }
            lastFailure = error.description
        }
    }
}
