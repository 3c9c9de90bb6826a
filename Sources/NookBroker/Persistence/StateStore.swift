import FoundationEssentials
import Glibc

/// Reads and writes the state file, atomically, off the bus thread.
///
/// Guarantees: a write either leaves the previous file in place or replaces it whole (temp
/// file in the same directory, `fsync`, `rename`, `fsync` of the directory), so a crash or
/// power cut never leaves half a file. Every file is read and written in a checked state
/// directory, relative to its descriptor, without following links (`StateDirectory`). A file
/// that cannot be read (a link, not a regular file, over `maxFileBytes`, not ours to decode)
/// is moved aside unread or undecoded (`state.corrupt-<time>-<pid>-<n>.json`, `SetAsideName`)
/// and reported, never fatal. Writes carry a generation number; an older generation arriving
/// after a newer one is dropped. `save(_: PersistedState, ...)` builds the stored form here,
/// off the bus thread, and encodes only what changed since the last save (`StateJSON`).
public actor StateStore {
    public nonisolated let directory: URL
    public nonisolated var fileURL: URL { directory.appendingPathComponent(Self.fileName) }
    static let fileName = "state.json"
    /// The largest `state.json` read (a larger one is set aside unread) or written (a state
    /// that would encode larger is not written: the write fails, and is retried, until the
    /// state shrinks).
    public static let maxFileBytes = 256 << 20
    private var lastGeneration: UInt64 = 0
    /// The time set-aside names carry (a parameter so tests can hold it still).
    private let clock: @Sendable () -> Date
    /// Each module's bytes from the last save, and its activities', reused while unchanged.
    private var encodedModules: [String: EncodedModule] = [:]

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
        /// The state directory is not one nookd may use (`StateDirectoryError`): nothing in it
        /// was read.
        case refused(StateDirectoryError)
    }

    public func load() -> LoadResult {
        let opened: StateDirectory?
        do { opened = try StateDirectory.open(directory, create: false) } catch { return .refused(error) }
        guard let directory = opened else { return .empty }
        // Not followed if a link, unread if not a regular file (a FIFO would block the read) or
        // over the size limit.
        let data: Data
        do {
            guard let read = try directory.read(Self.fileName, limit: Self.maxFileBytes, limitName: "StateStore.maxFileBytes") else { return .empty }
            data = read
        } catch {
            return moveAside(reason: error.what, in: directory)
        }
        do {
            let file = try JSONDecoder().decode(StateFile.self, from: data)
            guard file.format == StateFile.formatName, file.version == StateFile.currentVersion else {
                return moveAside(reason: "unsupported format \"\(file.format)\" version \(file.version)", in: directory)
            }
            return .loaded(file)
        } catch {
            return moveAside(reason: "\(error)", in: directory)
        }
    }

    private func moveAside(reason: String, in directory: StateDirectory) -> LoadResult {
        let moved = try? SetAsideName.move(Self.fileName, kind: "corrupt", in: directory, now: clock())
        return .corrupt(reason: reason, movedTo: moved.map(directory.path))
    }

    /// Moves `state.json` (if there is one) to `state.<kind>-<...>.json`, so the next load
    /// starts empty; returns where it went, nil when there was no file.
    public func setAside(kind: String) throws -> String? {
        guard let directory = try StateDirectory.open(directory, create: false), directory.contains(Self.fileName) else { return nil }
        return directory.path(try SetAsideName.move(Self.fileName, kind: kind, in: directory, now: clock()))
    }

    /// Writes `entries` to a new `state.rejected-<...>.json` and returns its path.
    public func saveRejected(_ entries: [RejectedEntry]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data = try encoder.encode(RejectedFile(source: fileURL.path, rejected: entries))
        let directory = try Self.openForWriting(directory)
        let target = try SetAsideName.reserve(kind: "rejected", in: directory, now: clock())
        try directory.writeAtomically(data, to: target)
        return directory.path(target)
    }

    /// The state directory, created if missing, checked (`StateDirectory`).
    static func openForWriting(_ url: URL) throws -> StateDirectory {
        // Never nil when creating.
        try StateDirectory.open(url, create: true)!
    }

    /// Writes `file` atomically unless a newer generation was written already.
    public func save(_ file: StateFile, generation: UInt64) throws {
        guard generation > lastGeneration else { return }
        try write(try Self.encoded(file))
        lastGeneration = generation
    }

    /// Writes `state` atomically unless a newer generation was written already. The stored
    /// form is built here, off the bus thread; only modules and activities that changed since
    /// the last save are encoded again (`StateJSON`), the rest reuse their bytes.
    public func save(_ state: PersistedState, generation: UInt64) throws {
        guard generation > lastGeneration else { return }
        try write(encoded(state))
        lastGeneration = generation
    }

    private func write(_ data: Data) throws {
        guard data.count <= Self.maxFileBytes else {
            throw StateStoreError(
                "the state is \(data.count) bytes, over the limit of \(Self.maxFileBytes) bytes of \(fileURL.path) (StateStore.maxFileBytes); "
                    + "it is not written until it is smaller")
        }
        try Self.openForWriting(directory).writeAtomically(data, to: Self.fileName)
        // The encoder's values and the bytes are freed by now: a big state left many free pages.
        if data.count >= BrokerHeap.trimAfterWritesOf { BrokerHeap.giveBackFreePages() }
    }

    /// The bytes `JSONEncoder` (sorted keys) writes for `file`, encoded one module at a time:
    /// the encoder's values for the whole state (megabytes at 1,024 activities) are never
    /// alive at once. `StateStoreTests` holds the bytes equal to the one-piece encoding.
    static func encoded(_ file: StateFile) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let modules = try file.registry.modules.map { Data(try encoder.encode($0)) }
        return try frame(
            format: file.format, version: file.version, presentation: file.presentation, counter: file.registry.counter, modules: modules,
            settings: file.settings, tokens: file.tokens)
    }

    /// The file around its modules' bytes: keys in sorted order, as `StateFile.CodingKeys` and
    /// `RegistrySnapshot.CodingKeys` name them; nil optionals are left out, as the synthesized
    /// encoding does.
    static func frame<Bytes: Collection<UInt8>>(
        format: String = StateFile.formatName, version: Int = StateFile.currentVersion, presentation: StoredValue?, counter: UInt64,
        modules: [Bytes], settings: [String: StoredValue]?, tokens: [String: StoredValue]?
    ) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var out = Data(capacity: modules.reduce(512) { $0 + $1.count + 1 })
        out += Data("{\"format\":".utf8)
        out += try encoder.encode(format)
        if let presentation { out += Data(",\"presentation\":".utf8) + (try encoder.encode(presentation)) }
        out += Data(",\"registry\":{\"counter\":".utf8) + (try encoder.encode(counter)) + Data(",\"modules\":[".utf8)
        for (index, module) in modules.enumerated() {
            if index > 0 { out += Data(",".utf8) }
            out.append(contentsOf: module)
        }
        out += Data("]}".utf8)
        if let settings { out += Data(",\"settings\":".utf8) + (try encoder.encode(settings)) }
        if let tokens { out += Data(",\"tokens\":".utf8) + (try encoder.encode(tokens)) }
        out += Data(",\"version\":".utf8) + (try encoder.encode(version)) + Data("}".utf8)
        return out
    }

    /// `state` as `encoded(StateFile(registry: state.registry.snapshot, ...))` would write it,
    /// reusing the bytes of every module and activity equal to the last save's.
    func encoded(_ state: PersistedState) throws -> Data {
        var fresh: [String: EncodedModule] = [:]
        fresh.reserveCapacity(state.registry.modules.count)
        var modules: [[UInt8]] = []
        modules.reserveCapacity(state.registry.modules.count)
        for id in state.registry.modules.keys.sorted() {
            let module = EncodedModule(state.registry.modules[id]!, reusing: encodedModules[id])
            modules.append(module.bytes)
            fresh[id] = module
        }
        // Only what the file now holds is kept: gone modules and activities are forgotten.
        encodedModules = fresh
        return try Self.frame(
            presentation: state.presentation, counter: state.registry.counter, modules: modules, settings: state.settings, tokens: state.tokens)
    }

    /// A module's bytes and what they were made from.
    struct EncodedModule {
        /// The module with its activities left out: its other fields' bytes are reused while
        /// this is equal (views compare by identity first, so an untouched tree costs nothing).
        var fields: ModuleRecord
        var fieldBytes: [UInt8]
        var activities: [String: (record: ActivityRecord, bytes: [UInt8])]
        var bytes: [UInt8]

        init(_ record: ModuleRecord, reusing previous: EncodedModule?) {
            var fields = record
            fields.activities = [:]
            // The owner is not stored: a module that only changed hands keeps its bytes.
            fields.owner = previous?.fields.owner ?? fields.owner
            var changed = previous == nil || previous?.activities.count != record.activities.count
            let fieldBytes: [UInt8]
            if let previous, previous.fields == fields {
                fieldBytes = previous.fieldBytes
            } else {
                fieldBytes = StateJSON.moduleFields(record)
                changed = true
            }
            var activities: [String: (record: ActivityRecord, bytes: [UInt8])] = [:]
            activities.reserveCapacity(record.activities.count)
            for (id, activity) in record.activities {
                if let kept = previous?.activities[id], kept.record == activity {
                    activities[id] = kept
                } else {
                    activities[id] = (activity, StateJSON.activity(activity))
                    changed = true
                }
            }
            self.fields = fields
            self.fieldBytes = fieldBytes
            self.activities = activities
            if !changed, let previous {
                bytes = previous.bytes
                return
            }
            let ids = record.activities.keys.sorted()
            var bytes: [UInt8] = []
            bytes.reserveCapacity(ids.reduce(fieldBytes.count + 32) { $0 + activities[$1]!.bytes.count + 1 })
            bytes.append(contentsOf: #"{"activities":["#.utf8)
            for (index, id) in ids.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes.append(contentsOf: activities[id]!.bytes)
            }
            bytes.append(UInt8(ascii: "]"))
            bytes.append(contentsOf: fieldBytes)
            self.bytes = bytes
        }
    }

}

/// What the broker hands the store to write: its registry as it is (a value, so handing it
/// over copies nothing; the store builds the stored form off the bus thread) and the small
/// parts already in their stored form.
public struct PersistedState: Sendable {
    public var registry: Registry
    public var presentation: StoredValue?
    public var settings: [String: StoredValue]?
    public var tokens: [String: StoredValue]?

    /// The same state as a `StateFile` (what `load` gives back).
    public var file: StateFile {
        StateFile(registry: registry.snapshot, presentation: presentation, settings: settings, tokens: tokens)
    }
}

public struct StateStoreError: Error, CustomStringConvertible {
    public let operation: String
    /// 0 when the error is not a failed system call (`operation` then says it all).
    public let errno: Int32
    public var description: String { errno == 0 ? operation : "\(operation) failed: \(String(cString: strerror(errno)))" }
}

extension StateStoreError {
    /// An error that is not a failed system call.
    init(_ message: String) { self.init(operation: message, errno: 0) }
}
