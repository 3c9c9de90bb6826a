/// What `nook-notifications` can be told on its command line.
public struct BridgeSettings: Sendable {
    /// How long a notification with `expire_timeout` -1 stays (`--default-timeout`, 1...3600 s).
    public var defaultTimeout: Duration = .seconds(10)
    /// How long the pill peeks at a new notification (`--peek-seconds`, 1...60 s).
    public var peekDuration: Duration = .seconds(5)
    /// The most live notifications (`--max-live`, 1...256); more end the oldest with reason 1.
    public var capacity = 32
    /// Where `image-data` is written as PNG files (removed when their notification closes).
    public var imageDirectory: String
    /// Take the name from a running notification daemon (`--replace`), as dunst does.
    public var replace = false
    /// The shortest time between two batches of changes sent to the broker: a frame of a
    /// 60 Hz display. A program reporting progress hundreds of times a second then costs the
    /// broker one update a frame, and its calls are answered without that work in the way.
    public var publishInterval: Duration = .microseconds(16_667)
    /// How many closed notifications the history keeps (`--history`, 0...500, default 50).
    public var historyCapacity = NotificationHistory.defaultCapacity
    /// Where the history is kept (`--state-dir`; default `$XDG_STATE_HOME/nook`); nil: in
    /// memory only.
    public var stateDirectory: String? = HistoryStore.defaultDirectory()
    /// The notification rules file (`--rules`; default `$XDG_CONFIG_HOME/nook/notifications.rules`);
    /// nil: no rules.
    public var rulesPath: String? = RulesFile.defaultPath()
    /// Play the `sound-file` and `sound-name` hints through `canberra-gtk-play` (`--no-sound`: off).
    public var sound = true
    /// Where `desktop-entry` hints are looked up (`DesktopEntry.directories()`).
    public var desktopDirectories = DesktopEntry.directories()

    /// The longest `expire_timeout` honoured, in milliseconds (24 h, a detached activity's limit).
    public static let maxTimeoutMilliseconds: Int32 = 86_400_000

    public init(imageDirectory: String) { self.imageDirectory = imageDirectory }

    /// When a notification asking for `expireTimeout` ms expires after `now`; nil: never
    /// (0, or critical urgency).
    public func expiry(of request: NotificationRequest) -> Duration? {
        if request.urgency == .critical { return nil }
        switch request.expireTimeout {
        case 0: return nil
        case ..<0: return defaultTimeout
        default: return .milliseconds(min(request.expireTimeout, Self.maxTimeoutMilliseconds))
        }
    }
}
