import FoundationEssentials
import Glibc

/// Reads and writes the state file, atomically, off the bus thread.
///
/// Guarantees: a write either leaves the previous file in place or replaces it whole (temp
/// file in the same directory, `fsync`, `rename`, `fsync` of the directory), so a crash or
/// power cut never leaves half a file. A file that cannot be read (a link, not a regular file,
/// over `maxFileBytes`: all checked before a byte is read, `BoundedFileRead`) is moved aside
/// (`state.corrupt-<time>-<pid>-<n>.json`, `SetAsideName`) and reported, never fatal. Writes
/// carry a generation number; an older generation arriving after a newer one is dropped.
public actor StateStore {
    public nonisolated let directory: URL
    public nonisolated var fileURL: URL { directory.appendingPathComponent("state.json") }
    /// The largest `state.json` read (a larger one is set aside unread) or written (a state
    /// that would encode larger is not written: the write fails, and is retried, until the
    /// state shrinks).
    public static let maxFileBytes = 256 << 20
    private var lastGeneration: UInt64 = 0
    /// The time set-aside names carry (a parameter so tests can hold it still).
    private let clock: @Sendable () -> Date

    public init(directory: URL, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.directory = directory
        self.clock = clock
    }

    /// `$XDG_STATE_HOME/nook`, else `~/.local/state/nook` (SPEC, "Reliability").
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state).appendingPathComponent("nook")
        }
        let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
        return URL(fileURLWithPath: home).appendingPathComponent(".local/state/nook")
    }

    public enum LoadResult: Sendable {
        /// No state file: a first start.
        case empty
        case loaded(StateFile)
        /// The file could not be read; it was moved to `movedTo` (nil if that failed too).
        case corrupt(reason: String, movedTo: String?)
    }

    public func load() -> LoadResult {
        // Not followed if a link, unread if not a regular file (a FIFO would block the read) or
        // over the size limit.
        let data: Data
        do {
            guard let read = try BoundedFileRead.read(fileURL.path, limit: Self.maxFileBytes, limitName: "StateStore.maxFileBytes", followLinks: false)
            else { return .empty }
            data = read
        } catch {
            return moveAside(reason: error.what)
        }
        do {
            let file = try JSONDecoder().decode(StateFile.self, from: data)
            guard file.format == StateFile.formatName, file.version == StateFile.currentVersion else {
                return moveAside(reason: "unsupported format \"\(file.format)\" version \(file.version)")
            }
            return .loaded(file)
        } catch {
            return moveAside(reason: "\(error)")
        }
    }

    private func moveAside(reason: String) -> LoadResult {
        let moved = try? SetAsideName.move(fileURL, kind: "corrupt", in: directory, now: clock())
        return .corrupt(reason: reason, movedTo: moved?.path)
    }

    /// Moves `state.json` (if there is one) to `state.<kind>-<...>.json`, so the next load
    /// starts empty; returns where it went, nil when there was no file.
    public func setAside(kind: String) throws -> String? {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return nil }
        return try SetAsideName.move(fileURL, kind: kind, in: directory, now: clock()).path
    }

    /// Writes `entries` to a new `state.rejected-<...>.json` and returns its path.
    public func saveRejected(_ entries: [RejectedEntry]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data = try encoder.encode(RejectedFile(source: fileURL.path, rejected: entries))
        let target = try SetAsideName.reserve(kind: "rejected", in: directory, now: clock())
        try Self.writeAtomically(data, to: target, directory: directory)
        return target.path
    }

    /// Writes `file` atomically unless a newer generation was written already.
    public func save(_ file: StateFile, generation: UInt64) throws {
        guard generation > lastGeneration else { return }
        let size = try encodeAndWrite(file)
        lastGeneration = generation
        // The encoder's values and the bytes are freed by now: a big state left many free pages.
        if size >= BrokerHeap.trimAfterWritesOf { BrokerHeap.giveBackFreePages() }
    }

    /// - Returns: the size of the file written.
    private func encodeAndWrite(_ file: StateFile) throws -> Int {
        let data = try Self.encoded(file)
        guard data.count <= Self.maxFileBytes else {
            throw StateStoreError(
                "the state is \(data.count) bytes, over the limit of \(Self.maxFileBytes) bytes of \(fileURL.path) (StateStore.maxFileBytes); "
                    + "it is not written until it is smaller")
        }
        try Self.writeAtomically(data, to: fileURL, directory: directory)
        return data.count
    }

    /// The bytes `JSONEncoder` (sorted keys) writes for `file`, encoded one module at a time:
    /// the encoder's values for the whole state (megabytes at 1,024 activities) are never
    /// alive at once. `StateStoreTests` holds the bytes equal to the one-piece encoding.
    static func encoded(_ file: StateFile) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Keys in sorted order, as `StateFile.CodingKeys` and `RegistrySnapshot.CodingKeys`
        // name them; nil optionals are left out, as the synthesized encoding does.
        var out = Data("{\"format\":".utf8)
        out += try encoder.encode(file.format)
        if let presentation = file.presentation { out += Data(",\"presentation\":".utf8) + (try encoder.encode(presentation)) }
        out += Data(",\"registry\":{\"counter\":".utf8) + (try encoder.encode(file.registry.counter)) + Data(",\"modules\":[".utf8)
        for (index, module) in file.registry.modules.enumerated() {
            if index > 0 { out += Data(",".utf8) }
            out += try encoder.encode(module)
        }
        out += Data("]}".utf8)
        if let settings = file.settings { out += Data(",\"settings\":".utf8) + (try encoder.encode(settings)) }
        if let tokens = file.tokens { out += Data(",\"tokens\":".utf8) + (try encoder.encode(tokens)) }
        out += Data(",\"version\":".utf8) + (try encoder.encode(file.version)) + Data("}".utf8)
        return out
    }

    static func writeAtomically(_ data: Data, to url: URL, directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temp = directory.appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())")
        let fd = open(temp.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StateStoreError(operation: "open \(temp.path)", errno: errno) }
        var written = 0
        let result: Int32 = data.withUnsafeBytes { buffer -> Int32 in
            while written < buffer.count {
                let n = write(fd, buffer.baseAddress! + written, buffer.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += n
            }
            return fsync(fd) == 0 ? 0 : errno
        }
        close(fd)
        guard result == 0 else {
            unlink(temp.path)
            throw StateStoreError(operation: "write \(temp.path)", errno: result)
        }
        guard rename(temp.path, url.path) == 0 else {
            let code = errno
            unlink(temp.path)
            throw StateStoreError(operation: "rename to \(url.path)", errno: code)
        }
        // The rename is durable once the directory entry is.
        let dirFD = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFD >= 0 {
            fsync(dirFD)
            close(dirFD)
        }
    }
}

public struct StateStoreError: Error, CustomStringConvertible {
    public let operation: String
    /// 0 when the error is not a failed system call (`operation` then says it all).
    public let errno: Int32
    public init(operation: String, errno: Int32) {
        self.operation = operation
        self.errno = errno
    }
    init(_ message: String) {
        operation = message
        errno = 0
    }
    public var description: String { errno == 0 ? operation : "\(operation) failed: \(String(cString: strerror(errno)))" }
}
