import NookCore

/// `timer start|list|cancel`: countdowns from a shell, as detached activities of module
/// `timer` (docs/nookctl.md, "timer"). A timer is an `activity start --timer` with its title,
/// symbol and id chosen for it, so it finishes the same way: at zero a background `activity
/// finish --wait` makes it say "Done", peeks and plays the sound, and nookd keeps it across its
/// own restarts.
public enum TimerCommand: Hashable, Sendable {
    case start(TimerStart)
    case list(json: Bool)
    /// The timer to end; nil: the only one running.
    case cancel(id: String?)

    /// The module every timer belongs to.
    public static let module = "timer"
}

public struct TimerStart: Hashable, Sendable {
    public var seconds: Double
    public var label: String?
    /// The activity id: `--id`, else the label's letters and digits (`Tea` is `tea`), else the
    /// first of `timer`, `timer-2`, ... that no running timer has (chosen when it starts).
    public var id: String?
    public var playsSound = true

    public init(seconds: Double, label: String? = nil, id: String? = nil) {
        self.seconds = seconds
        self.label = label
        self.id = id ?? label.flatMap(Self.id(fromLabel:))
    }

    /// `Tea` -> `tea`, `Pasta (al dente)` -> `pasta-al-dente`; nil when nothing is left.
    static func id(fromLabel label: String) -> String? {
        var out = ""
        for scalar in label.lowercased().unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                out.unicodeScalars.append(scalar)
            } else if !out.isEmpty, out.last != "-" {
                out.append("-")
            }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return out.isEmpty ? nil : String(out.prefix(64))
    }

    /// The first of `timer`, `timer-2`, `timer-3`, ... not in `running`.
    static func freeID(notIn running: Set<String>) -> String {
        if !running.contains("timer") { return "timer" }
        var n = 2
        while running.contains("timer-\(n)") { n += 1 }
        return "timer-\(n)"
    }

    /// What `activity start` is given for it.
    func request(id: String) -> ActivityRequest {
        var request = ActivityRequest(module: TimerCommand.module, activity: id)
        request.content.title = .set(label ?? "Timer")
        request.content.symbol = .set("timer")
        request.content.timer = .set(seconds)
        request.playsSound = playsSound
        return request
    }
}
