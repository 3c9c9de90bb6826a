import FoundationEssentials
import Glibc
import NookBus

/// `nookctl notifications list|restore|clear`: nook-notifications' history, through its
/// `org.nook.Notifications1` interface on the owner of `org.freedesktop.Notifications`
/// (docs/notifications.md), as `dunstctl history` and `makoctl restore` do for theirs.
public enum NotificationsCommand: Hashable, Sendable {
    case list(json: Bool)
    case restore
    case clear
    /// `dnd on|off|toggle [--for D]`: `SetDoNotDisturb`; `seconds` nil: until turned off.
    case dnd(mode: String, seconds: Double?, json: Bool)
    /// `dnd status [--json]`.
    case dndStatus(json: Bool)

    /// The longest `dnd --for`: a week (the bridge's `DoNotDisturb.maxDurationSeconds`).
    public static let maxDNDSeconds: Double = 7 * 86_400

    /// The bridge's interface (an addition to the contract; not nookd's): data/org.nook.Notifications1.xml.
    typealias Interface = NookContract.Notifications
    /// `ReloadRules`' error for a rules file it refuses.
    public static let invalidRulesError = "org.nook.Notifications1.Error.InvalidRules"

    /// `SetDoNotDisturb`'s options: `duration` d when given.
    static func options(_ seconds: Double?) -> DBusValue {
        var options: [String: DBusValue] = [:]
        if let seconds { options["duration"] = .double(seconds) }
        return .vardict(options)
    }

    public var calls: [ContractCall] {
        switch self {
        case .list: [ContractCall(Interface.history)]
        case .restore: [ContractCall(Interface.restore)]
        case .clear: [ContractCall(Interface.clear)]
        case .dnd(let mode, let seconds, _): [ContractCall(Interface.setDoNotDisturb, [.string(mode), Self.options(seconds)])]
        case .dndStatus: [ContractCall(Interface.doNotDisturb)]
        }
    }
}

enum NotificationsVerbs {
    /// A verb's call as its help says it: `org.nook.Notifications1.History() -> aa{sv} (on org.freedesktop.Notifications)`.
    static func onTheServer(_ method: ContractMethod) -> String { "\(method) (on \(NookContract.Notifications.busName))" }

    static func dndRow(_ mode: String, _ summary: String) -> VerbSpec {
        let takesDuration = mode != "off"
        return VerbSpec("dnd \(mode)", takesDuration ? "[--for DURATION] [--json]" : "[--json]", summary: summary,
                        options: (takesDuration ? [OptionSpec("--for", "DURATION", "end it by itself after DURATION (90s, 30m, 2h), 1s...7d (168h); default: until turned off")] : [])
                            + [OptionSpec("--json", "print the new state as one JSON object")],
                        calls: onTheServer(NookContract.Notifications.setDoNotDisturb)) { p throws(UsageError) in
            var seconds: Double?
            if let text = p["--for"] {
                guard let value = DurationArgument.seconds(text), value >= 1, value <= NotificationsCommand.maxDNDSeconds else {
                    throw UsageError("option '--for' needs a duration of 1s to 7d (168h) such as 90s, 30m or 2h, found '\(text)'", verb: p.verb)
                }
                seconds = value
            }
            return .notifications(.dnd(mode: mode, seconds: seconds, json: p.has("--json")))
        }
    }

    static let rows: [VerbSpec] = [
        VerbSpec("notifications list", "[--json]",
                 summary: "Print nook-notifications' history of closed notifications, newest first: when it closed, how (expired, dismissed, closed by its app), the app and the summary.",
                 options: [OptionSpec("--json", "one JSON array of objects: id, app_name, app_icon, summary, body, urgency, reason, closed_at (unix µs)")],
                 calls: onTheServer(NookContract.Notifications.history)) { p throws(UsageError) in
            .notifications(.list(json: p.has("--json")))
        },
        VerbSpec("notifications restore",
                 summary: "Show the newest closed notification again, as a new one (like makoctl restore); prints its id, or says the history is empty (exit status 1).",
                 calls: onTheServer(NookContract.Notifications.restore)) { _ throws(UsageError) in
            .notifications(.restore)
        },
        dndRow("on", "Turn do not disturb on: low and normal notifications do not peek (they still show as capsules and reach the history), critical ones still do; counts what arrives."),
        dndRow("off", "Turn do not disturb off."),
        dndRow("toggle", "Turn do not disturb on if it is off, off if it is on (for a key binding)."),
        VerbSpec("dnd status", "[--json]",
                 summary: "Print whether do not disturb is on, until when, and how many notifications arrived since it was turned on.",
                 options: [OptionSpec("--json", "one JSON object: on, until (unix µs, 0: until turned off), arrived")],
                 calls: onTheServer(NookContract.Notifications.doNotDisturb)) { p throws(UsageError) in
            .notifications(.dndStatus(json: p.has("--json")))
        },
        VerbSpec("notifications clear", summary: "Forget nook-notifications' history; prints how many entries it held.",
                 calls: onTheServer(NookContract.Notifications.clear)) { _ throws(UsageError) in
            .notifications(.clear)
        },
    ]
}

extension NookControlClient {
    /// `reload`'s second half: nook-notifications reads its rules file again
    /// (`ReloadRules`). A refused file is said with its line and key (exit status 1); no
    /// bridge serving, or another notification server, is no error.
    func reloadNotificationRules(output: OutputSink) async -> ExitStatus {
        do {
            let reply = try await callNotifications(ContractCall(NookContract.Notifications.reloadRules))
            if case .uint32(let count)? = reply.first {
                output.out("reloaded the notification rules: \(count) section\(count == 1 ? "" : "s")\n")
            }
            return .ok
        } catch let error as DBusError where error.name == NotificationsCommand.invalidRulesError {
            output.err("nookctl: the notification rules are refused: \(error.message)\n")
            return .failure
        } catch let error as DBusError where Self.noRulesServer.contains(error.name) {
            // Nobody serves notifications, or another server (dunst, mako) without the method.
            return .ok
        } catch {
            output.err("nookctl: cannot reload the notification rules: \(error)\n")
            return .failure
        }
    }

    /// What the bus answers when no nook-notifications serves `ReloadRules`.
    static let noRulesServer: Set<String> = [
        "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
        "org.freedesktop.DBus.Error.UnknownMethod", "org.freedesktop.DBus.Error.UnknownObject",
        "org.freedesktop.DBus.Error.UnknownInterface",
    ]

    func callNotifications(_ call: ContractCall) async throws -> [DBusValue] {
        try await connection.call(
            destination: NookContract.Notifications.busName, path: NookContract.Notifications.path, interface: call.interface,
            member: call.member, arguments: call.arguments, timeout: timeout)
    }

    func execute(_ command: NotificationsCommand, output: OutputSink) async throws -> ExitStatus {
        let reply = try await callNotifications(command.calls[0])
        switch command {
        case .list(let json):
            guard case .array(_, let items)? = reply.first else { throw DBusError(.invalidArgs, "History: expected aa{sv}") }
            let entries = items.map(NotificationsText.entry)
            output.out(json ? NotificationsText.json(entries) : NotificationsText.text(entries))
        case .restore:
            guard case .uint32(let id)? = reply.first else { throw DBusError(.invalidArgs, "Restore: expected u") }
            guard id != 0 else {
                output.err("nookctl: the notification history is empty\n")
                return .failure
            }
            output.out("\(id)\n")
        case .clear:
            guard case .uint32(let count)? = reply.first else { throw DBusError(.invalidArgs, "Clear: expected u") }
            output.out("cleared \(count)\n")
        case .dnd(_, _, let json), .dndStatus(let json):
            guard let value = reply.first else { throw DBusError(.invalidArgs, "DoNotDisturb: expected a{sv}") }
            let state = NotificationsText.entry(value)
            output.out(json ? String(NotificationsText.json([state]).dropFirst().dropLast(2)) + "\n" : NotificationsText.dnd(state))
        }
        return .ok
    }
}

/// How `notifications list` prints the history.
enum NotificationsText {
    /// One entry's fields by name, variants unwrapped.
    static func entry(_ value: DBusValue) -> [String: DBusValue] {
        guard case .dictionary(_, _, let pairs) = value else { return [:] }
        var out: [String: DBusValue] = [:]
        for pair in pairs { if case .string(let key) = pair.key { out[key] = pair.value.unwrappingVariants } }
        return out
    }

    static let reasons: [UInt32: String] = [1: "expired", 2: "dismissed", 3: "closed by its app", 4: "closed"]

    static func string(_ value: DBusValue?) -> String { if case .string(let text)? = value { text } else { "" } }

    /// `2026-12-04 03:58:12  expired  Builder: Build done — All 42 tests passed`, a line each.
    static func text(_ entries: [[String: DBusValue]]) -> String {
        guard !entries.isEmpty else { return "no notifications in the history\n" }
        return entries.map { entry in
            var when = "?"
            if case .int64(let micros)? = entry["closed_at"] { when = LocalTime.text(unixMicroseconds: micros, withZone: false) }
            var reason = "?"
            if case .uint32(let code)? = entry["reason"] { reason = reasons[code] ?? "?" }
            let app = string(entry["app_name"])
            let body = string(entry["body"]).replacing("\n", with: " ")
            return "\(when)  \(reason)  \(app.isEmpty ? "" : app + ": ")\(string(entry["summary"]))\(body.isEmpty ? "" : " — " + body)\n"
        }.joined()
    }

    /// `on until 2026-12-04 05:00:00 UTC, 3 arrived` / `on until turned off, 0 arrived` / `off`.
    static func dnd(_ state: [String: DBusValue]) -> String {
        guard case .bool(true)? = state["on"] else { return "off\n" }
        var arrived: UInt32 = 0
        if case .uint32(let count)? = state["arrived"] { arrived = count }
        var until = "until turned off"
        if case .int64(let micros)? = state["until"], micros > 0 {
            until = "until " + LocalTime.text(unixMicroseconds: micros, withZone: true)
        }
        return "on \(until), \(arrived) arrived\n"
    }

    static func json(_ entries: [[String: DBusValue]]) -> String {
        // Strings, numbers and flags only, keys sorted (vardict sorts them), one line.
        let objects: [DBusValue] = entries.map { entry in
            .vardict(entry.compactMapValues { value -> DBusValue? in
                switch value {
                case .string, .bool: value
                case .uint32(let number): .int64(Int64(number))
                case .byte(let number): .int64(Int64(number))
                case .int64: value
                default: nil
                }
            })
        }
        return PlanJSON.json(.array(element: "a{sv}", objects)) + "\n"
    }
}
