import FoundationEssentials
import Glibc
import NookCore

/// The content nookctl last built for each activity, so `activity update --progress 0.6` keeps
/// the title: the broker holds views, and no call gives them back.
///
/// One JSON file per activity under `$XDG_STATE_HOME/nookctl/activities` (else
/// `~/.local/state/nookctl/activities`), named `<module>~<activity>.json` (`~` is outside the
/// id charset, so names never clash or climb out of the directory). `end` removes the file; a
/// file older than the 24 h cap of any detached activity is removed on the next save.
///
/// The records hold what scripts showed (titles, subtitles), so they are the user's alone:
/// each file is written `0600` (to a temporary file created with that mode, then renamed over
/// the old one, so no moment exposes it), and the directory is made, or set back to, `0700`.
public struct ActivityRecordStore: Sendable {
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    /// From the environment, as the XDG base directory spec says.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> ActivityRecordStore {
        let base: URL
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            base = URL(fileURLWithPath: state)
        } else {
            let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
            base = URL(fileURLWithPath: home).appendingPathComponent(".local/state")
        }
        return ActivityRecordStore(directory: base.appendingPathComponent("nookctl/activities"))
    }

    func file(module: String, activity: String) -> URL {
        directory.appendingPathComponent("\(module)~\(activity).json")
    }

    /// The remembered content; nil when there is none (or it cannot be read).
    public func load(module: String, activity: String) -> ActivityContent? {
        // A record holds at most one `--view-json` and a few fields; anything larger is not one.
        let limit = 2 * NookControlClient.maxViewJSONBytes
        guard case .success(let bytes) = BoundedRead.read(file(module: module, activity: activity).path, limit: limit) else { return nil }
        return try? JSONDecoder().decode(ActivityContent.self, from: Data(bytes))
    }

    public func save(_ content: ActivityContent, module: String, activity: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        // A directory an older nookctl made 0755: set back to the user's alone.
        if chmod(directory.path, 0o700) != 0 { throw RecordError("cannot make \(directory.path) private: \(String(cString: strerror(errno)))") }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try Self.writePrivately(try encoder.encode(content), to: file(module: module, activity: activity))
        pruneExpired()
    }

    struct RecordError: Error, LocalizedError {
        let message: String
        init(_ message: String) { self.message = message }
        var errorDescription: String? { message }
    }

    /// Writes `data` to `file` atomically with mode 0600 whatever the umask: a new temporary
    /// file beside it (`O_EXCL | O_NOFOLLOW`, created 0600), then renamed over `file`.
    static func writePrivately(_ data: Data, to file: URL) throws {
        let temporary = file.deletingLastPathComponent().appendingPathComponent(".\(file.lastPathComponent).\(getpid()).tmp")
        unlink(temporary.path)  // One left by a nookctl killed mid-write (this pid, long ago).
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw RecordError("cannot create \(temporary.path): \(String(cString: strerror(errno)))") }
        var failure: String?
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else {
                    failure = "cannot write \(temporary.path): \(String(cString: strerror(errno)))"
                    return
                }
                offset += written
            }
        }
        // The mode the file was created with is cut by the umask; 0600 is exact.
        if failure == nil, fchmod(fd, 0o600) != 0 { failure = "cannot set the mode of \(temporary.path): \(String(cString: strerror(errno)))" }
        close(fd)
        if failure == nil, rename(temporary.path, file.path) != 0 { failure = "cannot rename onto \(file.path): \(String(cString: strerror(errno)))" }
        if let failure {
            unlink(temporary.path)
            throw RecordError(failure)
        }
    }

    /// The colours of the countdowns remembered, other than `module`/`activity`'s own, leaving
    /// out those that reached zero over an hour before `now` (unix µs; gone by then unless
    /// kept with a long `--expires`).
    public func timerColors(except module: String, _ activity: String, now: Int64) -> [String] {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).map { directory.appendingPathComponent($0) }
        let own = file(module: module, activity: activity).lastPathComponent
        return files.filter { $0.pathExtension == "json" && $0.lastPathComponent != own }.sorted { $0.path < $1.path }.compactMap { file in
            guard let data = try? Data(contentsOf: file), let content = try? JSONDecoder().decode(ActivityContent.self, from: data),
                  let end = content.timerEnd, end > now.saturatingSubtract(3_600_000_000) else { return nil }
            return content.color
        }
    }

    /// Where the pid of the activity's background `finish --wait` is kept (`FinishWaiter`).
    func waiterFile(module: String, activity: String) -> URL {
        directory.appendingPathComponent("\(module)~\(activity).finish-pid")
    }

    public func remove(module: String, activity: String) {
        try? FileManager.default.removeItem(at: file(module: module, activity: activity))
        // Its countdown's finish has nothing left to do.
        FinishWaiter.stopPrevious(module: module, activity: activity, records: self)
    }

    /// Removes records older than any detached activity can live.
    func pruneExpired(now: Date = Date()) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for file in names.map({ directory.appendingPathComponent($0) }) where file.pathExtension == "json" {
            let modified = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.modificationDate] as? Date ?? now
            if now.timeIntervalSince(modified) > ActivityRequest.maxExpiry { try? FileManager.default.removeItem(at: file) }
        }
    }
}
