import Foundation

/// The content nookctl last built for each activity, so `activity update --progress 0.6` keeps
/// the title: the broker holds views, and no call gives them back.
///
/// One JSON file per activity under `$XDG_STATE_HOME/nookctl/activities` (else
/// `~/.local/state/nookctl/activities`), named `<module>~<activity>.json` (`~` is outside the
/// id charset, so names never clash or climb out of the directory). `end` removes the file; a
/// file older than the 24 h cap of any detached activity is removed on the next save.
public struct ActivityRecordStore: Sendable {
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    /// From the environment, as the XDG base directory spec says.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> ActivityRecordStore {
        let base: URL
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            base = URL(fileURLWithPath: state)
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home).appendingPathComponent(".local/state")
        }
        return ActivityRecordStore(directory: base.appendingPathComponent("nookctl/activities"))
    }

    func file(module: String, activity: String) -> URL {
        directory.appendingPathComponent("\(module)~\(activity).json")
    }

    /// The remembered content; nil when there is none (or it cannot be read).
    public func load(module: String, activity: String) -> ActivityContent? {
        guard let data = try? Data(contentsOf: file(module: module, activity: activity)) else { return nil }
        return try? JSONDecoder().decode(ActivityContent.self, from: data)
    }

    public func save(_ content: ActivityContent, module: String, activity: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(content).write(to: file(module: module, activity: activity), options: .atomic)
        pruneExpired()
    }

    public func remove(module: String, activity: String) {
        try? FileManager.default.removeItem(at: file(module: module, activity: activity))
    }

    /// Removes records older than any detached activity can live.
    func pruneExpired(now: Date = Date()) {
        let files = (try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
        for file in files where file.pathExtension == "json" {
            let modified = (try? file.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate ?? now
            if now.timeIntervalSince(modified) > ActivityRequest.maxExpiry { try? FileManager.default.removeItem(at: file) }
        }
    }
}
