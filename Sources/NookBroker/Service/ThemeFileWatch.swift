#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// What the theme file looks like from outside, compared once a second to see it change
/// (written in place, replaced by a rename, created or removed): no inotify thread to keep,
/// and a `stat` a second costs nothing measurable.
struct ThemeFileStamp: Hashable, Sendable {
    var exists = false
    var device: UInt64 = 0
    var inode: UInt64 = 0
    var size: Int64 = 0
    var modified: Int64 = 0
    var modifiedNanoseconds: Int = 0
    var changed: Int64 = 0
    var changedNanoseconds: Int = 0

    init(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        exists = true
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec)
        changedNanoseconds = Int(info.st_ctim.tv_nsec)
    }
}

extension BrokerDaemon {
    /// How often the theme file is looked at.
    static let themeFilePoll = Duration.seconds(1)

    /// Reloads the theme whenever its file changes, as SIGHUP does (a bad file is logged by
    /// the broker and changes nothing); nil when the configuration gave the theme itself.
    static func watchThemeFile(_ broker: Broker, log: Log) -> Task<Void, Never>? {
        guard let file = broker.themeFile else { return nil }
        let path = file.path
        return Task.detached {
            var last = ThemeFileStamp(path: path)
            while !Task.isCancelled {
                try? await Task.sleep(for: themeFilePoll)
                let now = ThemeFileStamp(path: path)
                guard now != last else { continue }
                last = now
                log(.info, "the theme file \(path) changed; reloading it")
                _ = try? await broker.reloadTheme()
            }
        }
    }
}
