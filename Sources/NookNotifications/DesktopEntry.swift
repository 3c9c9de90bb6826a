import FoundationEssentials
import Glibc
import NookFiles
import NookModuleAPI
import Synchronization

/// What the bridge reads of an app's `.desktop` file (the `desktop-entry` hint): its name and
/// icon, shown when the notification does not bring its own.
public struct DesktopEntry: Hashable, Sendable {
    /// `Name=` of `[Desktop Entry]` (the untranslated one), at most 128 bytes.
    public var name: String?
    /// `Icon=`: an icon name or an absolute path, at most 4096 bytes.
    public var icon: String?

    /// The largest `.desktop` file read; a bigger one is skipped.
    public static let maxFileBytes = 64 * 1024

    /// The directories searched, in order: `$XDG_DATA_HOME/applications` (else
    /// `~/.local/share/applications`), then each of `$XDG_DATA_DIRS` (else
    /// `/usr/local/share:/usr/share`) with `/applications`.
    public static func directories(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        var bases: [String] = []
        if let home = environment["XDG_DATA_HOME"], home.hasPrefix("/") {
            bases.append(home)
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            bases.append(home + "/.local/share")
        }
        let dirs = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        bases += dirs.split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return bases.map { $0 + "/applications" }
    }

    /// The entry `name` (`NotificationHints.desktopEntry`: letters, digits, `.-_`, never a
    /// path) from the first directory holding `<name>.desktop` as a readable regular file of
    /// at most `maxFileBytes`; nil when none does. Only `stat` and one bounded read: a FIFO or
    /// a device in its place is skipped, never opened.
    public static func find(_ name: String, in directories: [String]) -> DesktopEntry? {
        for directory in directories {
            let path = directory + "/" + name + ".desktop"
            // Links are followed: /usr/share/applications holds links into packages' trees.
            guard let data = try? BoundedFileRead.read(path, limit: maxFileBytes, followLinks: true) else { continue }
            return parse(String(decoding: data, as: UTF8.self))
        }
        return nil
    }

    /// `Name` and `Icon` of the `[Desktop Entry]` group; other groups and keys are ignored.
    public static func parse(_ text: String) -> DesktopEntry {
        var entry = DesktopEntry()
        var inMain = false
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingWhitespace
            if trimmed.hasPrefix("[") {
                inMain = trimmed == "[Desktop Entry]"
                continue
            }
            guard inMain, let equals = trimmed.firstIndex(of: "=") else { continue }
            let key = trimmed[..<equals].trimmingWhitespace
            let value = trimmed[trimmed.index(after: equals)...].trimmingWhitespace
            guard !value.isEmpty else { continue }
            if key == "Name", entry.name == nil { entry.name = value.prefixBytes(NotificationRequest.maxAppNameBytes) }
            if key == "Icon", entry.icon == nil, value.utf8.count <= NotificationRequest.maxPathBytes { entry.icon = value }
        }
        return entry
    }
}

/// Desktop entries found so far, by name and directories: a notification updated every frame
/// (a progress bar) reads its `.desktop` file once, not once a frame. Only found entries are
/// kept (an app installed later is found on its next notification), at most `capacity`
/// (then the cache starts over); an edited file is read again when the bridge restarts.
final class DesktopEntryCache: Sendable {
    static let shared = DesktopEntryCache()
    static let capacity = 64
    private let entries = Mutex<[String: DesktopEntry]>([:])

    func find(_ name: String, in directories: [String]) -> DesktopEntry? {
        let key = directories.joined(separator: ":") + "\u{0}" + name
        if let entry = entries.withLock({ $0[key] }) { return entry }
        guard let entry = DesktopEntry.find(name, in: directories) else { return nil }
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll() }
            entries[key] = entry
        }
        return entry
    }
}
