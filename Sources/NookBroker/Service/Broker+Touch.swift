import FoundationEssentials
import NookBus
import NookCore

/// Controls (contract 1.1, Touch): a renderer's `Activate` or a script's `Invoke` becomes one
/// `ActionInvoked` signal, unicast to the connection of the module that owns the control.
///
/// A press is resolved where it happened: `Activate` names a node (`slot`, `owner`, `path`)
/// of the scene the broker sent *this* renderer at `serial` (`SentScenes` keeps the newest
/// few), so a renderer one plan behind still hits what it drew, and a node that has gone, a
/// forged path or a serial this broker never sent that renderer (a previous nookd's, whose
/// serials lie below this one's: see `firstSerial`) is `UnknownTarget`. Presses from one
/// process are bounded by `ActivationLimiter`. A module in its grace period (its
/// connection gone) has nobody to hear the action: it is dropped with a warning, not kept.
extension Broker {
    /// Why an action was sent: `info.source`.
    enum ActionSource: String {
        case renderer, control
    }

    /// The first serial of this broker's life: the wall clock in microseconds when it started.
    /// Serials then grow by one per change, so a serial from an earlier life of nookd (lower,
    /// unless the clock went back or a life made a million changes a second) is never one
    /// this life sent, and `Activate` refuses it instead of pressing whatever sits at that
    /// path now.
    static func firstSerial(unixMicroseconds: Int64) -> UInt64 { UInt64(max(0, unixMicroseconds)) }

    // MARK: Render.Activate

    /// `Activate(a{sv} target)`: `serial` t, `slot` s, `owner` s, `path` s.
    func activate(_ caller: String, target: [String: PropValue]) throws(DBusError) {
        guard let subscriber = subscribers[caller] else {
            throw DBusError(nook: .accessDenied, "Activate: connection \(caller) is not a subscribed renderer (call Subscribe first)")
        }
        try chargeActivation(caller, member: RenderMember.activate.rawValue)
        let serial = try Self.targetSerial(target)
        let slotName = try Self.targetString(target, "slot")
        let owner = try Self.targetString(target, "owner")
        let path = try Self.targetString(target, "path")
        let named = "\(InputQuote.text(slotName)) \(InputQuote.text(owner)) \(InputQuote.text(path))"
        guard let scene = subscriber.sentScenes.scene(at: serial) else {
            let kept = subscriber.sentScenes.serials.map(String.init).joined(separator: ", ")
            throw DBusError(nook: .unknownTarget, "Activate: serial \(serial) is not a plan this broker sent this renderer lately (kept: \(kept))")
        }
        guard let slot = SlotName(rawValue: slotName), let prepared = scene.slot(slot, owner: owner) else {
            throw DBusError(nook: .unknownTarget, "Activate: the scene of plan \(serial) has no slot \(InputQuote.text(slotName)) owned by \(InputQuote.text(owner))")
        }
        guard let node = prepared.node(at: path) else {
            throw DBusError(nook: .unknownTarget, "Activate: the scene of plan \(serial) has no node at \(named)")
        }
        guard let action = node.props.action else {
            throw DBusError(nook: .unknownTarget, "Activate: the node at \(named) in plan \(serial) carries no action")
        }
        let parsed = SlotOwner(parsing: owner)
        invokeAction(action, module: parsed.module, activity: parsed.activity ?? "", slot: slotName,
                     presentation: scene.presentation.rawValue, source: .renderer)
    }

    // MARK: Control.Invoke

    /// `Invoke(s module, s activity, s action, a{sv} options)`: presses the control with
    /// `action` in the module's current views of `activity` (`""`: its own views).
    func invoke(_ caller: String, module: String, activity: String, action: String, options: [String: PropValue]) throws(DBusError) {
        try chargeActivation(caller, member: ControlMember.invoke.rawValue)
        if let problem = Identifier.problem(action) {
            throw DBusError(nook: .invalidArgs, "Invoke: action \"\(InputQuote.text(action))\" \(problem)")
        }
        let slot: String?
        do { slot = try registry.slotCarrying(action: action, module: module, activity: activity) } catch {
            throw DBusError(error)
        }
        guard let slot else {
            let whose = activity.isEmpty ? "module \"\(module)\"'s own views" : "activity \"\(module)/\(activity)\""
            throw DBusError(nook: .unknownTarget, "Invoke: no view of \(whose) carries action \"\(action)\"")
        }
        invokeAction(action, module: module, activity: activity, slot: slot,
                     presentation: machine.state.presentation.rawValue, source: .control)
    }

    // MARK: Delivery

    /// Sends `ActionInvoked` to the module's owner connection only; a module without one (in
    /// its grace period, or kept for detached activities) is told nothing, and the action is
    /// dropped with a warning: pressing is about now, so nothing is kept for later.
    func invokeAction(_ action: String, module: String, activity: String, slot: String, presentation: String, source: ActionSource) {
        let what = "action \"\(action)\" of \(activity.isEmpty ? module : module + "/" + activity) (\(source.rawValue), \(slot))"
        guard let record = registry.modules[module] else {
            log(.warning, "\(what) dropped: module \"\(module)\" is no longer registered")
            return
        }
        guard let owner = record.owner.connection else {
            log(.warning, "\(what) dropped: module \"\(module)\" has no connection (its grace period is running); actions are not kept for later")
            return
        }
        let info: [String: PropValue] = [
            "source": .string(source.rawValue), "slot": .string(slot), "presentation": .string(presentation),
        ]
        let path = self.path
        do {
            try connection.assumeIsolated { bus in
                try bus.emit(NookContract.Modules.actionInvoked, [.string(activity), .string(action), WireCodec.vardict(info)], from: path, to: owner)
            }
            log(.debug, "\(what) sent to \(owner)")
        } catch {
            log(.warning, "\(what): could not send it to \(owner): \(error)")
        }
    }

    /// Takes one press from `caller`'s bucket (presses, slot opens and focus requests share
    /// it), or refuses the call with `LimitsExceeded`.
    func chargeActivation(_ caller: String, member: String) throws(DBusError) {
        let peer = self.peer(of: caller)
        guard activations.take(peer, at: now.seconds) else {
            let limits = delivery.limits
            throw DBusError(
                nook: .limitsExceeded,
                "\(member): activationsPerSecond (\(NumberText.short(limits.activationsPerSecond)) a second, bursts of \(limits.activationBurst)) exceeded by \(peer) (its connections share one budget); try again later")
        }
    }

    // MARK: Reading the target

    static func targetSerial(_ target: [String: PropValue]) throws(DBusError) -> UInt64 {
        switch target["serial"] {
        case .uint(let value)?: return value
        case .int(let value)? where value >= 0: return UInt64(value)
        case nil: throw DBusError(nook: .invalidArgs, "Activate target: missing key 'serial' (t, the plan whose scene was drawn)")
        case let other?: throw DBusError(nook: .invalidArgs, "Activate target: key 'serial': expected t, found \(other.typeName)")
        }
    }

    static func targetString(_ target: [String: PropValue], _ key: String) throws(DBusError) -> String {
        switch target[key] {
        case .string(let text)?: return text
        case nil: throw DBusError(nook: .invalidArgs, "Activate target: missing key '\(key)' (s, as in the scene's node)")
        case let other?: throw DBusError(nook: .invalidArgs, "Activate target: key '\(key)': expected s, found \(other.typeName)")
        }
    }
}
