import NookBus

/// `org.nook.Notifications1` at `/org/nook/Notifications1`, on the bridge's connection (the
/// owner of `org.freedesktop.Notifications`): Nook's own controls of the notification server,
/// as `dunstctl` and `makoctl` have (docs/notifications.md). An addition to the contract.
///
/// - `History() -> aa{sv}`: the closed notifications, newest first (`NotificationHistory.Entry.vardict`).
/// - `Restore() -> u`: the newest closed one shown again as a new notification (its new id; 0
///   when the history is empty). It leaves the history, and enters it again when it closes.
/// - `Clear() -> u`: forgets the history; how many entries it held.
/// - `DoNotDisturb() -> a{sv}`: `on` b, `until` x (unix µs; 0: until turned off), `arrived` u.
/// - `SetDoNotDisturb(s mode, a{sv} options) -> a{sv}`: `on`, `off` or `toggle`, option
///   `duration` d (seconds, 1...604800); the new state.
/// - `ReloadRules() -> u`: reads the rules file again (nook-notifications-rules(5)); the number
///   of sections in effect, or `org.nook.Notifications1.Error.InvalidRules` naming the line and
///   key of a refused file (the previous rules stay).
/// - signal `DoNotDisturbChanged(a{sv} state)`: on every change of do not disturb (turned on or
///   off, ended by itself, a notification counted), for status bars.
public enum NookNotificationsInterface {
    public static let name = "org.nook.Notifications1"
    public static let path: ObjectPath = "/org/nook/Notifications1"

    static func interface(bridge: NotificationBridge) -> DBusInterface {
        DBusInterface(
            name,
            methods: [
                DBusMethod("History", out: [DBusArgument("entries", "aa{sv}")], deferred: { [weak bridge] _ in
                    let entries = await bridge?.history() ?? []
                    return [.array(element: "a{sv}", entries.map(\.vardict))]
                }),
                DBusMethod("Restore", out: [DBusArgument("id", "u")], deferred: { [weak bridge] _ in
                    [.uint32(await bridge?.restore() ?? 0)]
                }),
                DBusMethod("Clear", out: [DBusArgument("cleared", "u")], deferred: { [weak bridge] _ in
                    [.uint32(UInt32(clamping: await bridge?.clearHistory() ?? 0))]
                }),
                DBusMethod("DoNotDisturb", out: [DBusArgument("state", "a{sv}")], deferred: { [weak bridge] _ in
                    [(await bridge?.doNotDisturb() ?? DoNotDisturb()).vardict]
                }),
                DBusMethod("SetDoNotDisturb", in: [DBusArgument("mode", "s"), DBusArgument("options", "a{sv}")], out: [DBusArgument("state", "a{sv}")],
                           deferred: { [weak bridge] call in
                    let (mode, seconds) = try setDoNotDisturbArguments(call.arguments)
                    return [(await bridge?.setDoNotDisturb(mode, seconds: seconds) ?? DoNotDisturb()).vardict]
                }),
                DBusMethod("ReloadRules", out: [DBusArgument("sections", "u")], deferred: { [weak bridge] _ in
                    [.uint32(UInt32(clamping: try await bridge?.reloadRules() ?? 0))]
                }),
            ],
            signals: [DBusSignal("DoNotDisturbChanged", [DBusArgument("state", "a{sv}")])])
    }

    /// `SetDoNotDisturb(s mode, a{sv} options)`: `mode` `on`, `off` or `toggle`; option
    /// `duration` d, seconds in 1...`DoNotDisturb.maxDurationSeconds` (on and toggle only;
    /// absent: until turned off). Anything else is `InvalidArgs` naming it.
    static func setDoNotDisturbArguments(_ arguments: [DBusValue]) throws -> (DoNotDisturb.Mode, Double?) {
        guard arguments.count == 2, case .string(let text) = arguments[0], let mode = DoNotDisturb.Mode(rawValue: text) else {
            throw DBusError(.invalidArgs, "SetDoNotDisturb: mode must be on, off or toggle")
        }
        let options = NotificationRequest.hints(arguments[1])
        var seconds: Double?
        for (key, value) in options {
            guard key == "duration" else { throw DBusError(.invalidArgs, "SetDoNotDisturb: unknown option '\(key)'") }
            guard case .double(let number) = value, number.isFinite, (1...DoNotDisturb.maxDurationSeconds).contains(number) else {
                throw DBusError(.invalidArgs, "SetDoNotDisturb: duration must be a d of 1...\(Int(DoNotDisturb.maxDurationSeconds)) seconds")
            }
            guard mode != .off else { throw DBusError(.invalidArgs, "SetDoNotDisturb: duration applies to on and toggle only") }
            seconds = number
        }
        return (mode, seconds)
    }
}
