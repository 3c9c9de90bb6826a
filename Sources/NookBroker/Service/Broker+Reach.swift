import NookBus
import NookCore

/// Every activity in reach (an addition): a renderer's `OpenSlot` opens onto what a slot it
/// drew shows — a capsule's activity, the pill's, a board tile's module — by hover (the
/// pointer came over it) or by claim (a click, a key).
///
/// Like `Activate`, the target names a slot of the scene the broker sent *this* renderer at
/// `serial` (`SentScenes` keeps the newest few), so what opens is what was under the pointer
/// even when a newer plan is on its way, and a forged or stale target is `UnknownTarget`.
/// Calls count against the same per-process budget as presses (`ActivationLimiter`).
extension Broker {
    /// `OpenSlot(a{sv} target) -> t`: `serial` t, `slot` s, `owner` s, `via` s (`claim`,
    /// the default, or `hover`).
    func openSlot(_ caller: String, target: [String: PropValue]) throws(DBusError) -> UInt64 {
        let member = RenderMember.openSlot.rawValue
        guard let subscriber = subscribers[caller] else {
            throw DBusError(nook: .accessDenied, "\(member): connection \(caller) is not a subscribed renderer (call Subscribe first)")
        }
        try chargeActivation(caller, member: member)
        let serial = try Self.slotTargetSerial(target, member: member)
        let slotName = try Self.slotTargetString(target, "slot", member: member)
        let owner = try Self.slotTargetString(target, "owner", member: member)
        let via: OpenVia
        switch target["via"] {
        case nil: via = .claim
        case .string(let text)?:
            guard let parsed = OpenVia(rawValue: text) else {
                throw DBusError(nook: .invalidArgs, "\(member) target: key 'via' must be 'claim' or 'hover', got '\(InputQuote.text(text))'")
            }
            via = parsed
        case let other?:
            throw DBusError(nook: .invalidArgs, "\(member) target: key 'via': expected s, found \(other.typeName)")
        }
        guard let scene = subscriber.sentScenes.scene(at: serial) else {
            let kept = subscriber.sentScenes.serials.map(String.init).joined(separator: ", ")
            throw DBusError(nook: .unknownTarget, "\(member): serial \(serial) is not a plan this broker sent this renderer lately (kept: \(kept))")
        }
        guard let slot = SlotName(rawValue: slotName), scene.slot(slot, owner: owner) != nil else {
            throw DBusError(nook: .unknownTarget, "\(member): the scene of plan \(serial) has no slot \(InputQuote.text(slotName)) owned by \(InputQuote.text(owner))")
        }
        let parsed = SlotOwner(parsing: owner)
        let onto: OpenTarget = parsed.activity.map { .activity(ActivityRef(module: parsed.module, activity: $0)) } ?? .module(parsed.module)
        log(.debug, "\(member) \(slotName) \(owner) via \(via.rawValue) from \(caller)")
        return try control(via == .hover ? .pointerEnterOnto(onto) : .open(onto: onto, via: .claim))
    }

    /// `Control.Focus(a{sv}) -> t` (an addition): a person asked for the keyboard in the nook
    /// (a key bound to `nookctl focus`). A nook hidden (by `Hide`, or before anything showed)
    /// that has something to show is shown, and every subscribed renderer gets
    /// `Render.FocusRequested`, unicast, and takes the keyboard. Counts against the caller's
    /// press budget. Returns the current serial (the `Show`'s plan, when it showed).
    func requestFocus(_ caller: String) throws(DBusError) -> UInt64 {
        try chargeActivation(caller, member: ControlMember.focus.rawValue)
        if machine.state == .hidden { try control(.show) }
        let path = self.path
        let renderers = subscribers.keys.sorted()
        for renderer in renderers {
            do {
                try connection.assumeIsolated { bus in
                    try bus.emit(NookContract.Render.focusRequested, [WireCodec.vardict([:])], from: path, to: renderer)
                }
            } catch {
                log(.warning, "FocusRequested could not reach \(renderer): \(error)")
            }
        }
        log(.debug, "focus asked by \(caller); told \(renderers.count) renderer(s)")
        return serial
    }

    static func slotTargetSerial(_ target: [String: PropValue], member: String) throws(DBusError) -> UInt64 {
        switch target["serial"] {
        case .uint(let value)?: return value
        case .int(let value)? where value >= 0: return UInt64(value)
        case nil: throw DBusError(nook: .invalidArgs, "\(member) target: missing key 'serial' (t, the plan whose scene was drawn)")
        case let other?: throw DBusError(nook: .invalidArgs, "\(member) target: key 'serial': expected t, found \(other.typeName)")
        }
    }

    static func slotTargetString(_ target: [String: PropValue], _ key: String, member: String) throws(DBusError) -> String {
        switch target[key] {
        case .string(let text)?: return text
        case nil: throw DBusError(nook: .invalidArgs, "\(member) target: missing key '\(key)' (s, as in the scene)")
        case let other?: throw DBusError(nook: .invalidArgs, "\(member) target: key '\(key)': expected s, found \(other.typeName)")
        }
    }
}
