import FoundationEssentials
import Glibc
import NookBus
import NookFiles

/// The notification rules file (nook-notifications-rules(5)): where it is, and reading it
/// safely. Read only when it is a regular file (a link to one is followed: dotfiles are often
/// links) of at most `NotificationRules.maxFileBytes`; opened non-blocking, so a FIFO in its
/// place never stalls the reader.
public enum RulesFile {
    public static let fileName = "notifications.rules"

    /// `$XDG_CONFIG_HOME/nook/notifications.rules`, else `~/.config/nook/notifications.rules`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/nook/" + fileName }
        return (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.config/nook/" + fileName
    }

    /// The rules in the file at `path`: none when there is no file; a file that cannot be read
    /// or has any mistake is a `RulesError` (line 0 for the file as a whole).
    public static func load(_ path: String) throws(RulesError) -> NotificationRules {
        let data: Data
        do {
            guard let read = try BoundedFileRead.read(path, limit: NotificationRules.maxFileBytes, followLinks: true) else {
                return NotificationRules()
            }
            data = read
        } catch {
            switch error.reason {
            case .notRegular: throw RulesError(line: 0, key: nil, "it is not a regular file")
            case .tooLarge(let size, _): throw RulesError(line: 0, key: nil, "it is \(size) bytes, over the limit of \(NotificationRules.maxFileBytes)")
            case .system(let operation, let code): throw RulesError(line: 0, key: nil, "cannot \(operation) it: \(String(cString: strerror(code)))")
            case .link: throw RulesError(line: 0, key: nil, "it is a symbolic link")
            }
        }
        guard let text = String(data: data, encoding: .utf8) else { throw RulesError(line: 0, key: nil, "it is not UTF-8 text") }
        return try NotificationRules(parsing: text)
    }
}

/// The rules the bridge applies now, and their reloads: from the file when it changes (an
/// inotify watch on its directory, armed before the first read) and on `ReloadRules`. A file
/// that is refused leaves the previous rules in place. Reads happen in `Reloader`, never on
/// the bus thread; `Notify` only takes the current rules under a lock.
final class RulesState: Sendable {
    let path: String?
    let current = Locked(NotificationRules())
    private let watch = Locked<FileChangeWatch?>(nil)
    private let reloader = Reloader()
    let log: @Sendable (String) -> Void

    init(path: String?, log: @escaping @Sendable (String) -> Void) {
        self.path = path
        self.log = log
    }

    /// Serializes reloads, so a late read of an old file never replaces a newer one's rules.
    private actor Reloader {
        func reload(_ path: String, into current: Locked<NotificationRules>) -> Result<NotificationRules, RulesError> {
            do {
                let rules = try RulesFile.load(path)
                current.withLock { $0 = rules }
                return .success(rules)
            } catch {
                return .failure(error)
            }
        }
    }

    /// Arms the watch, then reads the file the first time (a bad file is logged, and there
    /// are no rules until a good one).
    func start() async {
        guard let path else { return }
        let made = FileChangeWatch(path: path) { [weak self] in
            Task { [weak self] in _ = await self?.reload(because: "changed") }
        }
        if made == nil { log("cannot watch \(path) (inotify is unavailable); the rules are read again on nookctl reload only") }
        watch.withLock { $0 = made }
        _ = await reload(because: nil)
    }

    func stop() { watch.withLock { $0?.stop(); $0 = nil } }

    /// Reads the file again: the sections now in effect, or why it was refused (logged; the
    /// previous rules stay).
    func reload(because reason: String?) async -> Result<Int, RulesError> {
        guard let path else { return .success(0) }
        switch await reloader.reload(path, into: current) {
        case .success(let rules):
            log("rules \(path)\(reason.map { " \($0)" } ?? ""): \(rules.sections.count) section\(rules.sections.count == 1 ? "" : "s") in effect")
            return .success(rules.sections.count)
        case .failure(let error):
            let kept = current.withLock { $0.sections.count }
            log("the rules file \(path) is refused (\(error)); the previous rules stay (\(kept) section\(kept == 1 ? "" : "s"))")
            return .failure(error)
        }
    }

    /// `ReloadRules`'s error for a refused file: `org.nook.Notifications1.Error.InvalidRules`
    /// naming the file, the line and the key.
    static let invalidRulesError = "org.nook.Notifications1.Error.InvalidRules"

    func dbusError(_ error: RulesError) -> DBusError {
        DBusError(name: Self.invalidRulesError, message: "\(path ?? RulesFile.fileName) \(error.description); the previous rules stay")
    }
}

extension NotificationBridge {
    /// Applies the rules to a request just read from `Notify`'s `arguments`; true when a rule
    /// ignores it. The category and desktop entry are read from the hints here (strings of at
    /// most `NotificationRules.maxValueBytes`, else empty).
    func applyRules(to request: inout NotificationRequest, arguments: [DBusValue]) -> Bool {
        let rules = self.rules.current.withLock { $0 }
        guard !rules.sections.isEmpty, arguments.count == 8 else { return false }
        let hints = NotificationRequest.hints(arguments[6])
        func text(_ key: String) -> String {
            guard case .string(let value)? = hints[key], value.utf8.count <= NotificationRules.maxValueBytes else { return "" }
            return value
        }
        let subject = NotificationRules.Subject(
            appName: request.appName, urgency: request.urgency, category: text("category"), desktopEntry: text("desktop-entry"),
            summary: request.summary, body: request.body)
        return rules.apply(to: &request, subject: subject)
    }

    /// `ReloadRules()`: the number of sections now in effect, or `InvalidRules` naming the line
    /// and key (the previous rules stay).
    func reloadRules() async throws -> Int {
        switch await rules.reload(because: "reloaded on request") {
        case .success(let count): return count
        case .failure(let error): throw rules.dbusError(error)
        }
    }
}
