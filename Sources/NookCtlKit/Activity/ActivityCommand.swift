import NookBus
import NookCore

/// `nookctl activity start|update|end|list`: publish from a shell. Each call registers the
/// module (taking back its detached activities), acts, and exits; the activity stays, detached,
/// until its dismiss date.
public enum ActivityCommand: Hashable, Sendable {
    case start(ActivityRequest)
    case update(ActivityRequest)
    case end(module: String, activity: String, dismissal: String)
    case list(json: Bool)
    /// `activity finish`: a countdown says "Done", peeks and plays its sound.
    case finish(ActivityFinish)

    /// The contract calls it makes, in order. The spec of `start` and `update` depends on the
    /// clock, the record of earlier content and the `--view-json` file, so it is built when the
    /// command runs (`ActivitySpec`); here it is empty.
    public var calls: [ContractCall] {
        switch self {
        case .start(let request):
            [.register(request.module), .startActivity(request.activity, [:])]
        case .update(let request):
            [.register(request.module), .updateActivity(request.activity, [:])]
        case .end(let module, let activity, let dismissal):
            [.register(module), .endModuleActivity(activity, ["dismissal": .string(dismissal)])]
        case .list:
            [.getState]
        case .finish(let finish):
            [.register(finish.module), .updateActivity(finish.activity, [:]), .peek(module: finish.module, activity: finish.activity)]
        }
    }
}

/// `activity finish M/A [--wait] [--no-sound] [--expires D] [--peek D]` as parsed.
public struct ActivityFinish: Hashable, Sendable {
    public var module: String
    public var activity: String
    /// `--wait`: first wait until the remembered countdown reaches zero (what `start --timer`
    /// runs in the background); do nothing if it changed or ended meanwhile.
    public var wait = false
    /// False with `--no-sound`.
    public var playsSound = true
    /// `--expires`: the dismiss date from now; nil keeps the one set at start.
    public var expires: Double?
    /// `--peek`: how long the nook peeks at it, seconds.
    public var peekSeconds: Double = ActivityFinish.defaultPeekSeconds

    /// The peek lasts this long unless `--peek` says: 8 seconds (the SDK's `NookAlert`).
    public static let defaultPeekSeconds: Double = 8
    /// The sound played, from the freedesktop sound theme.
    public static let sound = "complete"

    public init(module: String, activity: String) {
        self.module = module
        self.activity = activity
    }
}

/// `activity start` and `update` as parsed: what changes, and for how long the activity stays.
public struct ActivityRequest: Hashable, Sendable {
    public var module: String
    public var activity: String
    public var content = ContentChanges()
    /// `--view-json`: a file, or `-` for standard input.
    public var viewJSON: String?
    /// `--expires`, seconds from when the command runs.
    public var expires: Double?
    public var relevance: Double?
    /// `--dismissible on|off`: the spec key `dismissible` (off: no close control and no dismiss
    /// gesture; `activity end` still ends it). Nil sends nothing, so the broker's default (on)
    /// or what was set before stays.
    public var dismissible: Bool?
    /// `--no-sound`: the countdown's finish (`activity finish --wait`, run in the background
    /// when `--timer` is given) plays no sound.
    public var playsSound = true

    public init(module: String, activity: String) {
        self.module = module
        self.activity = activity
    }

    /// Without `--expires`, `start` keeps the activity this long: an hour.
    public static let defaultExpiry: Double = 3600
    /// A countdown stays this long after it reaches zero (when `--expires` is not given).
    public static let timerLinger: Double = 60
    /// The broker's cap for a detached activity's dismiss date (contract 1.1): 24 hours.
    public static let maxExpiry: Double = 86_400

    /// The dismiss date this command sets, unix µs at `now`: `--expires` from now; else, when
    /// `--timer` is given, a minute after the countdown ends; else, for `start`, an hour from
    /// now; else (an update) none, so the date stays.
    public func dismissDate(now: Int64, isStart: Bool) -> Int64? {
        if let expires { return now.saturatingAdd(Microseconds.of(expires)) }
        if case .set(let timer) = content.timer {
            return now.saturatingAdd(Microseconds.of(min(timer + Self.timerLinger, Self.maxExpiry)))
        }
        return isStart ? now.saturatingAdd(Microseconds.of(Self.defaultExpiry)) : nil
    }
}

extension ContractCall {
    /// `Modules.Register(s, a{sv})`, as the module `module`, named after itself.
    static func register(_ module: String) -> ContractCall {
        ContractCall(NookContract.Modules.register, [.string(module), WireCodec.vardict(["display_name": .string(module)])])
    }
    static func startActivity(_ activity: String, _ spec: [String: PropValue]) -> ContractCall {
        ContractCall(NookContract.Modules.startActivity, [.string(activity), WireCodec.vardict(spec)])
    }
    static func updateActivity(_ activity: String, _ changes: [String: PropValue]) -> ContractCall {
        ContractCall(NookContract.Modules.updateActivity, [.string(activity), WireCodec.vardict(changes)])
    }
    /// `Modules.EndActivity(s, a{sv})`: the owner ends its own activity.
    static func endModuleActivity(_ activity: String, _ options: [String: PropValue]) -> ContractCall {
        ContractCall(NookContract.Modules.endActivity, [.string(activity), WireCodec.vardict(options)])
    }
}
