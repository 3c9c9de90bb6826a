import NookBus
import NookCore

/// The presentation and its plans: Control actions and registry changes move the
/// `PresentationMachine`; every change is planned for each subscriber (Broker+Render.swift).
extension Broker {
    /// The display plans are previewed on when no renderer has said what it has.
    static let defaultDisplay = DisplayInfo(width: 1512, height: 982, notchWidth: 200, notchHeight: 32, scale: 2)

    /// A module changed what it shows: the presentation follows, and subscribers get a plan
    /// on their next frame (coalesced: the latest state wins).
    func sceneChanged(_ change: SceneChange) {
        let cause = PlanCause(rawValue: change.cause.rawValue) ?? .contentChanged
        let previous = machine.state
        _ = machine.reconcile(with: registry, cause: cause)
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
        serial += 1
        return serial
    }

    private func presentationMayHaveChanged(from previous: NookState) {
        guard previous != machine.state else { return }
        schedulePersist()
        guard previous.presentation != machine.state.presentation else { return }
        let path = self.path
        let value = DBusValue.string(machine.state.presentation.rawValue)
        try? connection.assumeIsolated { connection in
            try connection.emitPropertiesChanged(path: path, interface: NookContract.controlInterface, changed: ["Presentation": value])
        }
    }

    // MARK: Control arguments

    /// `Open`'s options: `onto` (`activity`, `home`, `board`), `module`, `activity`, `via`.
    static func openAction(_ options: [String: PropValue]) throws(DBusError) -> ControlAction {
        let onto = try string(options, "onto") ?? "activity"
        let module = try string(options, "module")
        let activity = try string(options, "activity")
        let via = try string(options, "via").map { text throws(DBusError) -> OpenVia in
            guard let via = OpenVia(rawValue: text) else { throw DBusError(nook: .invalidArgs, "Open: key 'via' must be 'claim' or 'hover', got '\(text)'") }
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
        default: throw DBusError(nook: .invalidArgs, "Open: key 'onto' must be 'activity', 'home' or 'board', got '\(onto)'")
        }
    }

    static func string(_ options: [String: PropValue], _ key: String) throws(DBusError) -> String? {
        guard let value = options[key] else { return nil }
        guard case .string(let text) = value else {
            throw DBusError(nook: .invalidArgs, "key '\(key)': expected signature 's', found '\(value.typeName)'")
        }
        return text
    }

    static func number(_ options: [String: PropValue], _ key: String) throws(DBusError) -> Double? {
        guard let value = options[key] else { return nil }
        switch value {
        case .double(let number) where number.isFinite: return number
        case .int(let number): return Double(number)
        case .uint(let number): return Double(number)
        default: throw DBusError(nook: .invalidArgs, "key '\(key)': expected a finite number ('d'), found '\(value.typeName)'")
        }
    }

    /// `SetSharedElementAnimation`'s curve: `type` `chrome`, `theme`, `spring`, `bezier`,
    /// `linear` or `none`, with their parameters and an optional `delay`.
    static func curveOverride(_ record: [String: PropValue]) throws(DBusError) -> CurveOverride {
        guard let type = try string(record, "type") else { throw DBusError(nook: .invalidArgs, "curve: missing key 'type'") }
        let delay = try number(record, "delay") ?? 0
        do {
            switch type {
            case "chrome": return .chrome
            case "theme": return .theme
            case "none": return .curve(.none(source: "override"))
            case "spring":
                guard let response = try number(record, "response"), let damping = try number(record, "damping_fraction") else {
                    throw DBusError(nook: .invalidArgs, "spring curve needs keys 'response' and 'damping_fraction'")
                }
                return .curve(try .spring(response: response, dampingFraction: damping, delay: delay, source: "override"))
            case "linear":
                guard let duration = try number(record, "duration") else { throw DBusError(nook: .invalidArgs, "linear curve needs key 'duration'") }
                return .curve(try .linear(duration: duration, delay: delay, source: "override"))
            case "bezier":
                guard let duration = try number(record, "duration"), case .structure(let fields)? = record["points"], fields.count == 4 else {
                    throw DBusError(nook: .invalidArgs, "bezier curve needs keys 'duration' and 'points' (dddd)")
                }
                var points: [Double] = []
                for field in fields {
                    guard case .double(let value) = field else { throw DBusError(nook: .invalidArgs, "key 'points': expected (dddd)") }
                    points.append(value)
                }
                let bezier = try CubicBezier(points[0], points[1], points[2], points[3])
                return .curve(try .bezier(bezier, duration: duration, delay: delay, source: "override"))
            default:
                throw DBusError(nook: .invalidArgs, "curve: key 'type' must be chrome, theme, spring, bezier, linear or none, got '\(type)'")
            }
        } catch let error as DBusError {
            throw error
        } catch {
            throw DBusError(nook: .invalidArgs, "curve: \(error)")
        }
    }

    // MARK: Tokens and settings

    func setTokens(_ tokens: [String: PropValue]) throws(DBusError) {
        let merged = tokenOverrides.merging(tokens) { $1 }
        do {
            settings.theme = try baseTheme.applying(merged)
        } catch {
            throw DBusError(nook: .invalidTheme, "SetTokens: \(error)")
        }
        tokenOverrides = merged
        registry.grace = settings.theme.duration(at: "broker.moduleGrace") ?? registry.grace
        registry.namedRules = settings.namedRules
        schedulePersist()
    }

    func setReduceMotion(_ on: Bool) {
        guard settings.reduceMotion != on else { return }
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

    /// Puts back what the state file says, as far as it still makes sense with the restored
    /// registry: a panel onto content that is gone falls back to the pill.
    func restorePresentation(_ file: StateFile?) {
        guard let file else { return }
        if let tokens = file.tokens, !tokens.isEmpty {
            do { try setTokens(tokens.mapValues(\.propValue)) } catch {
                log(.warning, "restoring state: theme overrides refused (\(error.message)); using the theme without them")
            }
        }
        if let stored = file.settings {
            if case .bool(let on)? = stored["reduce_motion"] { settings.reduceMotion = on }
            for (key, which) in [("convert", \PlannerSettings.sharedElementAnimation), ("peek", \PlannerSettings.sharedElementPeekAnimation)] {
                if case .dictionary(let record)? = stored[key]?.propValue, let override = try? Self.curveOverride(record) {
                    settings[keyPath: which] = override
                }
            }
        }
        if case .dictionary(let record)? = file.presentation?.propValue {
            let kind = (try? Self.string(record, "state")) ?? nil
            let module = ((try? Self.string(record, "module")) ?? nil) ?? ""
            let activity = ((try? Self.string(record, "activity")) ?? nil) ?? ""
            let hidden = record["hidden_by_user"] == .bool(true)
            let ref = ActivityRef(module: module, activity: activity)
            let state: NookState =
                switch kind {
                case "pill": .pill
                case "peek": .peek(ref)
                case "expanded-activity": .expanded(.activity(ref), via: .claim)
                case "expanded-home": .expanded(.home(module: module), via: .claim)
                case "expanded-board": .expanded(.board, via: .claim)
                case "companion": .companion(module: module)
                default: .hidden
                }
            machine = PresentationMachine(state: state, hiddenByUser: hidden)
        }
        _ = machine.reconcile(with: registry, cause: .show)
    }
}
