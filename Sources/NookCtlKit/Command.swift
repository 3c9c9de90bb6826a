import NookBus

/// What one nookctl invocation asks for, parsed and checked, before any bus is touched.
///
/// Each case knows the contract calls it makes (`calls`), so the parser can be tested against
/// the contract without a broker, and the client only has to perform them.
public enum Command: Hashable, Sendable {
    /// `--help`: the overview (nil) or one verb's help (its table name, e.g. `theme set`).
    case help(verb: String?)
    case status
    /// `status` as JSON or Waybar's JSON, and/or following `StateChanged`.
    case statusAs(StatusFormat, follow: Bool)
    case activities
    case modules
    case show
    case hide
    case open(OpenTarget, via: String?)
    case close
    /// Open when the nook shows the pill (or nothing), close when it is open: one key binding.
    case toggle
    /// `Control.Focus`: the nook takes the keyboard (bound to a key).
    case focus
    case peek(module: String, activity: String)
    case unpeek
    /// A module's companion window; nil closes it.
    case companion(module: String?)
    case display(DisplayArguments)
    /// `PreviewPlan(action, options)`; `json` prints the plan as JSON instead of explaining it.
    case preview(action: String, options: [String: DBusValue], json: Bool)
    /// Subscribe as a renderer and print each plan; stop after `count` plans when set.
    case watch(json: Bool, display: DisplayArguments, count: Int?)
    case setReduceMotion(Bool)
    /// `Control.ReloadTheme()`: nookd reads its theme file again.
    case reload
    case themeShow
    /// `SetTokens` with the tokens of a DTCG JSON file, read when the command runs.
    case themeLoad(path: String)
    case themeSet(token: String, value: DBusValue)
    case animationSet(which: String, curve: CurveArgument)
    /// `Control.EndActivity`: the user dismisses any module's activity.
    case end(module: String, activity: String, dismissal: String)
    case record(svg: String, limit: RecordLimit, display: DisplayArguments)
    /// `Control.Invoke`: presses the control with `action` in an activity's views (`""`: the
    /// module's own views).
    case press(module: String, activity: String, action: String)
    /// The controls of an activity (`""`: the module's own views) in the scene shown now.
    case actions(module: String, activity: String)
    /// `activity start|update|end|list`: publishing from a shell (Activity/).
    case activity(ActivityCommand)
    /// `notifications list|restore|clear`: nook-notifications' history (Notifications/).
    case notifications(NotificationsCommand)
    /// `osd volume|brightness|caps-lock VALUE`: an on-screen display for key bindings (OSD/).
    case osd(OSDRequest)
    /// `timer start|list|cancel`: countdowns as activities of module `timer` (Timer/).
    case timer(TimerCommand)
}

/// How `status` prints the state.
public enum StatusFormat: String, Hashable, Sendable {
    case text, json, waybar
}

/// Where `open` (and `preview open`) lands.
public enum OpenTarget: Hashable, Sendable {
    /// The broker's default: the primary activity's expanded view, or its module's home.
    case automatic
    case activity(module: String, activity: String)
    case home(module: String)
    case board

    /// The `Open` option keys: `onto`, `module`, `activity`.
    public var options: [String: DBusValue] {
        switch self {
        case .automatic: [:]
        case .activity(let module, let activity):
            ["onto": .string("activity"), "module": .string(module), "activity": .string(activity)]
        case .home(let module): ["onto": .string("home"), "module": .string(module)]
        case .board: ["onto": .string("board")]
        }
    }
}

/// How `watch` and `record` stop.
public enum RecordLimit: Hashable, Sendable {
    case count(Int)
    case seconds(Double)
}

/// A display as `DisplayChanged` and `Subscribe` take it.
public struct DisplayArguments: Hashable, Sendable {
    public var width: Double
    public var height: Double
    public var notchWidth: Double?
    public var notchHeight: Double?
    /// Subscribe only: pixels per point and frames per second.
    public var scale: Double?
    public var refreshRate: Double?

    /// What `watch` and `record` declare when no display options are given: a notched laptop.
    public static let defaultRenderer = DisplayArguments(width: 1512, height: 982, notchWidth: 200, notchHeight: 32,
                                                         scale: 2, refreshRate: 60)

    /// The contract keys: `width`, `height`, `notch_width`, `notch_height` (and `scale`,
    /// `refresh_rate` when set), all `d`.
    public var vardict: [String: DBusValue] {
        var out: [String: DBusValue] = ["width": .double(width), "height": .double(height)]
        if let notchWidth { out["notch_width"] = .double(notchWidth) }
        if let notchHeight { out["notch_height"] = .double(notchHeight) }
        if let scale { out["scale"] = .double(scale) }
        if let refreshRate { out["refresh_rate"] = .double(refreshRate) }
        return out
    }

    /// What a renderer subscribing declares: the display plus `name` and `capabilities`.
    public var subscription: [String: DBusValue] {
        var out = vardict
        out["name"] = .string("nookctl")
        out["capabilities"] = .array(element: "s", [.string("relayout"), .string("spring"), .string("crossfade")])
        return out
    }
}

/// A shared-element curve as `SetSharedElementAnimation` takes it.
public enum CurveArgument: Hashable, Sendable {
    case chrome
    case theme
    case none
    case spring(response: Double, dampingFraction: Double)
    case linear(duration: Double)
    case bezier(points: [Double], duration: Double)

    /// The contract's curve `a{sv}`.
    public var vardict: [String: DBusValue] {
        switch self {
        case .chrome: ["type": .string("chrome")]
        case .theme: ["type": .string("theme")]
        case .none: ["type": .string("none")]
        case .spring(let response, let damping):
            ["type": .string("spring"), "response": .double(response), "damping_fraction": .double(damping)]
        case .linear(let duration): ["type": .string("linear"), "duration": .double(duration)]
        case .bezier(let points, let duration):
            ["type": .string("bezier"), "duration": .double(duration), "points": .structure(points.map(DBusValue.double))]
        }
    }
}

extension Command {
    /// The contract calls this command makes, in order. `theme load` reads its file when it
    /// runs, so its `SetTokens` argument here is empty; `end` calls nookd's addition
    /// `Control.EndActivity(ssa{sv})`.
    /// `watch` and `record` also listen for `Render.Plan` and call `Unsubscribe` when done.
    public var calls: [ContractCall] {
        switch self {
        case .help: []
        case .status, .statusAs, .activities, .modules: [.getState]
        case .show: [.show]
        case .hide: [.hide]
        case .open(let target, let via):
            [.open(target.options.merging(via.map { ["via": .string($0)] } ?? [:]) { a, _ in a })]
        case .close: [.close()]
        // Then `Open` or `Close`, by the presentation GetState reports.
        case .toggle: [.getState]
        case .focus: [.focus]
        case .peek(let module, let activity): [.peek(module: module, activity: activity)]
        case .unpeek: [.endPeek]
        case .companion(let module?): [.openCompanion(module)]
        case .companion(nil): [.closeCompanion]
        case .display(let display): [.displayChanged(display.vardict)]
        case .preview(let action, let options, _): [.previewPlan(action, options)]
        case .watch(_, let display, _), .record(_, _, let display): [.subscribe(display.subscription)]
        case .setReduceMotion(let on): [.setReduceMotion(on)]
        case .reload: [.reloadTheme]
        case .themeShow: [.getTokens]
        case .themeLoad: [.setTokens([:])]
        case .themeSet(let token, let value): [.setTokens([token: value])]
        case .animationSet(let which, let curve): [.setSharedElementAnimation(which, curve.vardict)]
        case .end(let module, let activity, let dismissal): [.endActivity(module: module, activity: activity, dismissal: dismissal)]
        case .press(let module, let activity, let action): [.invoke(module: module, activity: activity, action: action)]
        case .actions: [.previewPlan("show", [:])]
        case .activity(let command): command.calls
        case .notifications(let command): command.calls
        case .osd(let request):
            [.register(OSDRequest.module), .updateActivity(request.kind.rawValue, [:]), .startActivity(request.kind.rawValue, [:]),
             .peek(module: OSDRequest.module, activity: request.kind.rawValue)]
        case .timer(.start(let start)):
            [.getState, .register(TimerCommand.module), .startActivity(start.id ?? "timer", [:])]
        case .timer(.list): [.getState]
        case .timer(.cancel(let id)):
            [.getState, .register(TimerCommand.module), .endModuleActivity(id ?? "", ["dismissal": .string("immediate")])]
        }
    }

    /// Why the contract cannot do this, for commands it cannot do (none, today).
    public var unsupportedReason: String? { nil }
}
