import NookFiles
import FoundationEssentials
import NookBus
import NookCore

/// What `nookd` starts the broker with.
public struct BrokerConfiguration: Sendable {
    public var address: BusAddress
    /// Where `state.json` lives; nil: `$XDG_STATE_HOME/nook` (or `~/.local/state/nook`).
    public var stateDirectory: URL?
    public var limits: RegistryLimits
    /// Renderers at once, and plans a renderer may leave unacknowledged.
    public var renderLimits: RenderLimits
    /// What `StateChanged` and `PropertiesChanged` may carry, and how fast.
    public var broadcastLimits: BroadcastLimits = .standard
    /// How much of the bus thread one process's expensive calls may take.
    public var callLimits: CallLimits = .standard
    /// The theme (for `broker.moduleGrace`); nil: built-in defaults with
    /// `$XDG_CONFIG_HOME/nook/theme.json` (or `~/.config/nook/theme.json`) merged over them.
    public var theme: Theme?
    /// Where the theme came from, for reloads (SIGHUP, `Control.ReloadTheme`); set by the broker
    /// when it read the user's file.
    var themeFile: URL?
    /// How long after a change the state file is written; changes in between share one write.
    /// The broker waits less while writes are slow (`Broker.debounce`).
    public var persistDelay: Duration
    public var log: Log
    /// Measure text in the theme's `font.family` with fontconfig and HarfBuzz, as renderers
    /// draw it (nookd); false: the built-in estimate (`TextMetrics`), for tests that compare
    /// the broker's rects with NookCore's goldens.
    public var measuresTextWithFonts = true

    public init(
        address: BusAddress = .session, stateDirectory: URL? = nil, limits: RegistryLimits = .standard,
        theme: Theme? = nil, persistDelay: Duration = .milliseconds(500), log: Log = Log(),
        renderLimits: RenderLimits = .standard
    ) {
        self.renderLimits = renderLimits
        self.address = address
        self.stateDirectory = stateDirectory
        self.limits = limits
        self.theme = theme
        self.persistDelay = persistDelay
        self.log = log
    }

    /// The user's theme file, merged over the defaults; a bad file is refused whole (logged),
    /// leaving the defaults.
    static func loadTheme(environment: [String: String], log: Log) -> Theme {
        let file = themeFile(environment: environment)
        do {
            return try readTheme(file)
        } catch {
            log(.warning, "ignoring \(file.path): \(error)")
            return .builtIn
        }
    }

    /// `$XDG_CONFIG_HOME/nook/theme.json`, or `~/.config/nook/theme.json`.
    static func themeFile(environment: [String: String]) -> URL {
        let config: URL
        if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") {
            config = URL(fileURLWithPath: base)
        } else {
            config = URL(fileURLWithPath: environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path).appendingPathComponent(".config")
        }
        return config.appendingPathComponent("nook/theme.json")
    }

    /// The theme `file` makes over the defaults; the defaults when there is no file.
    ///
    /// The file is checked before a byte is read (`BoundedFileRead`): a link is followed (a
    /// theme linked from a dotfiles repository is legitimate), but only a regular file of at
    /// most `ThemeLimits.maxDocumentBytes` is read; a FIFO or a 10 GB file is refused unread.
    /// - Throws: `ThemeError` (naming the token path, or the size limit) for a bad file;
    ///   `BoundedFileRead.Refusal` for one that is not a regular file or cannot be opened.
    static func readTheme(_ file: URL) throws -> Theme {
        let data: Data
        do {
            guard let read = try BoundedFileRead.read(file.path, limit: ThemeLimits.maxDocumentBytes, followLinks: true) else { return .builtIn }
            data = read
        } catch let refusal {
            if case .tooLarge(let size, _) = refusal.reason {
                throw ThemeError(issues: [ThemeLimits.tooLarge(Int(clamping: size), what: "the theme document")])
            }
            throw refusal
        }
        return try Theme(json: String(decoding: data, as: UTF8.self))
    }
}

extension BrokerConfiguration {
    /// The limits `--limits` may set, by name (docs/broker.md, "Limits against slow and greedy
    /// peers"), each with what it sets.
    static let namedLimits: [(name: String, set: @Sendable (inout BrokerConfiguration, Double) -> Void)] = [
        ("broadcast.maxLabelBytes", { $0.broadcastLimits.maxLabelBytes = Int($1) }),
        ("broadcast.maxRecordBytes", { $0.broadcastLimits.maxRecordBytes = Int($1) }),
        ("broadcast.bytesPerSecond", { $0.broadcastLimits.bytesPerSecond = Int($1) }),
        ("broadcast.burstBytes", { $0.broadcastLimits.burstBytes = Int($1) }),
        ("broadcast.maxHeldBytes", { $0.broadcastLimits.maxHeldBytes = Int($1) }),
        ("broadcast.maxQueuedWrites", { $0.broadcastLimits.maxQueuedWrites = Int($1) }),
        ("render.maxUnreadPlanBytes", { $0.renderLimits.maxUnreadPlanBytes = Int($1) }),
        ("render.maxUnreadPlanBytesTotal", { $0.renderLimits.maxUnreadPlanBytesTotal = Int($1) }),
        ("render.silentRendererTimeout", { $0.renderLimits.silentRendererTimeout = $1 }),
        ("render.activationsPerSecond", { $0.renderLimits.activationsPerSecond = $1 }),
        ("render.activationBurst", { $0.renderLimits.activationBurst = Int($1) }),
        ("calls.workShare", { $0.callLimits.workShare = $1 }),
        ("calls.workBurst", { $0.callLimits.workBurst = $1 }),
    ]

    /// Sets limits from `NAME=VALUE,NAME=VALUE` (nookd's `--limits`).
    /// - Throws: a message naming the first entry that is not a known limit with a positive number.
    public mutating func setLimits(_ text: String) throws(LimitsOptionError) {
        for entry in text.split(separator: ",", omittingEmptySubsequences: true) {
            let parts = entry.split(separator: "=", maxSplits: 1).map { String($0.filter { $0 != " " }) }
            guard parts.count == 2, let limit = Self.namedLimits.first(where: { $0.name == parts[0] }) else {
                throw LimitsOptionError("'\(entry)' is not NAME=VALUE with a NAME among \(Self.namedLimits.map(\.name).joined(separator: ", "))")
            }
            guard let value = Double(parts[1]), value.isFinite, value > 0, value < 1e15 else {
                throw LimitsOptionError("\(parts[0]): '\(parts[1])' is not a positive number")
            }
            limit.set(&self, value)
        }
    }
}

/// A `--limits` value nookd cannot use.
public struct LimitsOptionError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
