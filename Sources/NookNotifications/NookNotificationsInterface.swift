import NookBus

/// `org.nook.Notifications1` at `/org/nook/Notifications1`, on the bridge's connection (the
/// owner of `org.freedesktop.Notifications`): Nook's own controls of the notification server,
/// as `dunstctl` and `makoctl` have (docs/notifications.md). An addition to the contract,
/// declared in data/org.nook.Notifications1.xml (`NookContract.Notifications`), which says what
/// each member does.
public enum NookNotificationsInterface {
    typealias Contract = NookContract.Notifications
    public static let name = Contract.interface
    public static let path = Contract.path

    static func interface(bridge: NotificationBridge) -> DBusInterface {
        DBusInterface(
            name,
            methods: [
                DBusMethod(Contract.history, deferred: { [weak bridge] _ in
                    let entries = await bridge?.history() ?? []
                    return [.array(element: "a{sv}", entries.map(\.vardict))]
                }),
                DBusMethod(Contract.restore, deferred: { [weak bridge] _ in
                    [.uint32(await bridge?.restore() ?? 0)]
                }),
                DBusMethod(Contract.clear, deferred: { [weak bridge] _ in
                    [.uint32(UInt32(clamping: await bridge?.clearHistory() ?? 0))]
                }),
                DBusMethod(Contract.doNotDisturb, deferred: { [weak bridge] _ in
                    [(await bridge?.doNotDisturb() ?? DoNotDisturb()).vardict]
                }),
                DBusMethod(Contract.setDoNotDisturb, deferred: { [weak bridge] call in
                    let (mode, seconds) = try setDoNotDisturbArguments(call.arguments)
                    return [(await bridge?.setDoNotDisturb(mode, seconds: seconds) ?? DoNotDisturb()).vardict]
                }),
                DBusMethod(Contract.reloadRules, deferred: { [weak bridge] _ in
                    [.uint32(UInt32(clamping: try await bridge?.reloadRules() ?? 0))]
                }),
            ],
            signals: [Contract.doNotDisturbChanged.declaration])
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
