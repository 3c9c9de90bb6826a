import NookBus
import NookCore
import NookText

/// The presentation and its plans: Control actions and registry changes move the
/// `PresentationMachine`; every change is planned for each subscriber (Broker+Render.swift).
extension Broker {
    /// The display plans are previewed on when no renderer has said what it has.
    static let defaultDisplay = DisplayInfo(width: 1512, height: 982, notchWidth: 200, notchHeight: 32, scale: 2)

    /// A module changed what it shows: the presentation follows, and subscribers get a plan
    /// on their next frame (coalesced: the latest state wins).
    func sceneChanged(_ change: SceneChange) {
        let cause = change.cause.planCause
        let previous = machine.state
        _ = machine.reconcile(with: registry, cause: cause)
        // A panel the nook does not show changed (a progress notification's body under the
        // pill): every renderer's scene is what it was, so none is woken for it. Opening the
        // panel later plans from the registry, which has the change.
        if change.panelsOnly, previous == machine.state, machine.state.presentation == .pill || machine.state.presentation == .hidden {
            return
        }
        let action = PlanAction(cause: cause, serial: nextSerial(), animate: change.animate, callerAnimation: change.animation)
        presentationMayHaveChanged(from: previous)
        queue(action)
    }

    /// Applies a Control or Pointer action; subscribers get its plan on their next frame,
    /// coalesced with whatever else changes in that frame, like a module's changes.
    /// - Returns: the serial of the plan it caused, or the current serial when nothing changed.
    @discardableResult
    func control(_ action: ControlAction) throws(DBusError) -> UInt64 {
        let previous = machine.state
        let change: PresentationMachine.Change?
        do { change = try machine.apply(action, registry: registry) } catch { throw DBusError(error) }
        guard let change else { return serial }
        let plan = PlanAction(cause: change.cause, serial: nextSerial(), via: change.via)
        presentationMayHaveChanged(from: previous)
        queue(plan)
        return plan.serial
    }

    func nextSerial() -> UInt64 {
        noteStateChange()
        serial += 1
        return serial
    }

    private func presentationMayHaveChanged(from previous: NookState) {
        guard previous != machine.state else { return }
        schedulePersist()
        // `PropertiesChanged` goes out with the next `StateChanged` (Broker+State.swift),
        // coalesced and within the broadcast budget like it: a flood of Pointer calls once
        // made a broadcast each.
        if stateBroadcast.announcedPresentation == nil { stateBroadcast.announcedPresentation = previous.presentation.rawValue }
    }

    // MARK: Control arguments

    /// `Open`'s options: `onto` (`activity`, `home`, `board`), `module`, `activity`, `via`.
    static func openAction(_ options: [String: PropValue]) throws(DBusError) -> ControlAction {
        let onto = try string(options, "onto") ?? "activity"
        let module = try string(options, "module")
        let activity = try string(options, "activity")
        let via = try string(options, "via").map { text throws(DBusError) -> OpenVia in
            guard let via = OpenVia(rawValue: text) else { throw DBusError(nook: .invalidArgs, "Open: key 'via' must be 'claim' or 'hover', got '\(InputQuote.text(text))'") }
            return via
        } ?? .claim
        switch onto {
        case "activity":
            switch (module, activity) {
            case (nil, nil): return .open(onto: .activity(nil), via: via)
            case (let module?, let activity?): return .open(onto: .activity(ActivityRef(module: module, activity: activity)), via: via)
            default: throw DBusError(nook: .invalidArgs, "Open onto activity: give both 'module' and 'activity', or neither")
            }
        case "home": return .open(onto: .home(module: module), via: via)
        case "board": return .open(onto: .board, via: via)
        default: throw DBusError(nook: .invalidArgs, "Open: key 'onto' must be 'activity', 'home' or 'board', got '\(InputQuote.text(onto))'")
        }
    }

    static func string(_ options: [String: PropValue], _ key: String) throws(DBusError) -> String? {
        do { return try FieldReader<RegistryError>(fields: options).optionalString(key) } catch { throw DBusError(error) }
    }

    /// A number (`d`, or any integer type) within `domain`; the error names the key, and says
    /// whether the type or the value was wrong.
    static func number(_ options: [String: PropValue], _ key: String, in domain: NumberDomain, context: String = "")
        throws(DBusError) -> Double?
    {
        do { return try FieldReader<RegistryError>(fields: options, context: context).number(key, in: domain) } catch {
            throw DBusError(error)
        }
    }

    /// `SetSharedElementAnimation`'s curve: `type` `chrome`, `theme`, `spring`, `bezier`,
    /// `linear` or `none`, with their parameters and an optional `delay`, each within its
    /// `NumberDomain` (durations and delays `duration`, a spring's `springResponse` and
    /// `dampingFraction`, Bézier points `bezierX` / `bezierY`).
    static func curveOverride(_ record: [String: PropValue]) throws(DBusError) -> CurveOverride {
        guard let type = try string(record, "type") else { throw DBusError(nook: .invalidArgs, "curve: missing key 'type'") }
        let delay = try number(record, "delay", in: .duration, context: "curve") ?? 0
        do {
            switch type {
            case "chrome": return .chrome
            case "theme": return .theme
            case "none": return .curve(.none(source: "override"))
            case "spring":
                guard let response = try number(record, "response", in: .springResponse, context: "spring curve"),
                    let damping = try number(record, "damping_fraction", in: .dampingFraction, context: "spring curve")
                else {
                    throw DBusError(nook: .invalidArgs, "spring curve needs keys 'response' and 'damping_fraction'")
                }
                return .curve(try .spring(response: response, dampingFraction: damping, delay: delay, source: "override"))
            case "linear":
                guard let duration = try number(record, "duration", in: .duration, context: "linear curve") else {
                    throw DBusError(nook: .invalidArgs, "linear curve needs key 'duration'")
                }
                return .curve(try .linear(duration: duration, delay: delay, source: "override"))
            case "bezier":
                guard let duration = try number(record, "duration", in: .duration, context: "bezier curve"),
                    case .structure(let fields)? = record["points"], fields.count == 4
                else {
                    throw DBusError(nook: .invalidArgs, "bezier curve needs keys 'duration' and 'points' (dddd)")
                }
                var points: [Double] = []
                for (index, field) in fields.enumerated() {
                    guard let value = field.lenientDouble else { throw DBusError(nook: .invalidArgs, "key 'points': expected (dddd)") }
                    let domain: NumberDomain = index % 2 == 0 ? .bezierX : .bezierY
                    if let problem = domain.problem(value) {
                        throw DBusError(nook: .invalidArgs, "bezier curve: key 'points.\(index)': \(problem)")
                    }
                    points.append(value)
                }
                let bezier = try CubicBezier(points[0], points[1], points[2], points[3])
                return .curve(try .bezier(bezier, duration: duration, delay: delay, source: "override"))
            default:
                throw DBusError(nook: .invalidArgs, "curve: key 'type' must be chrome, theme, spring, bezier, linear or none, got '\(InputQuote.text(type))'")
            }
        } catch let error as DBusError {
            throw error
        } catch {
            throw DBusError(nook: .invalidArgs, "curve: \(error)")
        }
    }

    // MARK: Tokens and settings

    /// `SetTokens`, and the overrides restored from the state file (which came that way).
    /// `broker.*` tokens change what every module gets (the grace period), so they come only
    /// from the user's theme file (docs/security.md): any connection may call `SetTokens`.
    func setTokens(_ tokens: [String: PropValue]) throws(DBusError) {
        if let path = tokens.keys.sorted().first(where: { $0 == "broker" || $0.hasPrefix("broker.") }) {
            throw DBusError(
                nook: .accessDenied,
                "SetTokens: token '\(path)': broker settings affect every module and are set in the theme file (nook/theme.json under XDG_CONFIG_HOME) only")
        }
        let merged = tokenOverrides.merging(tokens) { $1 }
        do {
            settings.theme = try baseTheme.applying(merged)
        } catch {
            throw DBusError(nook: .invalidTheme, "SetTokens: \(error)")
        }
        tokenOverrides = merged
        themeChanged()
        schedulePersist()
    }

    /// What the registry takes from the theme in force (the grace period and the named
    /// rules), and a plan of its own for every renderer (`theme_changed`, `animate: false`):
    /// what is on screen is restyled in the next frame, not at the next transition.
    func themeChanged() {
        registry.grace = settings.theme.duration(at: "broker.moduleGrace") ?? registry.grace
        registry.namedRules = settings.namedRules
        refreshModuleThemes()
        let measurement = Self.textMeasurement(family: settings.fontFamily, fonts: measuresTextWithFonts)
        if measurement != settings.textMeasurement { settings.textMeasurement = measurement }
        queue(PlanAction(cause: .themeChanged, serial: nextSerial(), animate: false))
    }

    /// Text in `family` measured with fontconfig and HarfBuzz, the way renderers draw it; the
    /// estimate (`TextMetrics`) without `fonts`.
    static func textMeasurement(family: String, fonts: Bool) -> TextMeasurement {
        fonts ? TextMeasurement(FontTextMeasurer(family: family)) : .estimate
    }

    func setReduceMotion(_ on: Bool) {
        guard settings.reduceMotion != on else { return }
        // Announced with the next broadcast (Broker+State.swift), like `Presentation`.
        if stateBroadcast.announcedReduceMotion == nil { stateBroadcast.announcedReduceMotion = settings.reduceMotion }
        settings.reduceMotion = on
        schedulePersist()
    }

    // MARK: Persistence of the presentation, settings and tokens

    var storedPresentation: StoredValue? {
        let focus = machine.state.focus
        var kind = machine.state.presentation.rawValue
        if case .expanded(let target, _) = machine.state {
            switch target {
            case .activity: kind = "expanded-activity"
            case .home: kind = "expanded-home"
            case .board: kind = "expanded-board"
            }
        }
        return .dictionary([
            "state": .string(kind), "module": .string(focus.module), "activity": .string(focus.activity),
            "hidden_by_user": .bool(machine.hiddenByUser),
        ])
    }

    var storedSettings: [String: StoredValue]? {
        var settings: [String: StoredValue] = ["reduce_motion": .bool(self.settings.reduceMotion)]
        if let convert = Self.stored(self.settings.sharedElementAnimation) { settings["convert"] = convert }
        if let peek = Self.stored(self.settings.sharedElementPeekAnimation) { settings["peek"] = peek }
        return settings
    }

    var storedTokens: [String: StoredValue]? {
        tokenOverrides.isEmpty ? nil : tokenOverrides.mapValues(StoredValue.init)
    }

    static func stored(_ override: CurveOverride) -> StoredValue? {
        switch override {
        case .theme: nil
        case .chrome: .dictionary(["type": .string("chrome")])
        case .curve(let curve): StoredValue(.dictionary(curve.wireDictionary(sampleRate: nil)))
        }
    }

    /// Puts back the theme overrides, settings and presentation the state file keeps, each
    /// through the path the live call takes (Persistence/Broker+Restoring.swift); returns what
    /// was refused. A panel onto content that is gone falls back to the pill.
    func restorePresentation(_ file: StateFile?) -> [RejectedEntry] {
        var rejected: [RejectedEntry] = []
        if let tokens = file?.tokens, !tokens.isEmpty { rejected += restoreTokens(tokens) }
        if let stored = file?.settings { rejected += restoreSettings(stored) }
        if let stored = file?.presentation { rejected += restoreMachine(stored) }
        _ = machine.reconcile(with: registry, cause: .show)
        return rejected
    }
}
