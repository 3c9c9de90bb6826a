import NookBus

/// Do not disturb: while on, low and normal notifications do not peek (they still become
/// activities, a capsule beside the pill, and reach the history when they close); critical
/// ones still peek. Counts what arrived while on. Pure: the time comes from the caller.
public struct DoNotDisturb: Codable, Hashable, Sendable {
    /// The longest `--for`: a week.
    public static let maxDurationSeconds: Double = 7 * 86_400
    public static let formatName = "nook-notifications-dnd"
    public static let currentVersion = 1

    public var format = Self.formatName
    public var version = Self.currentVersion
    public var on = false
    /// When it ends by itself, unix µs; nil: when turned off.
    public var until: Int64?
    /// Notifications that arrived (new, not critical) since it was turned on.
    public var arrived: Int = 0

    public init() {}

    /// `SetDoNotDisturb`'s modes.
    public enum Mode: String, Sendable { case on, off, toggle }

    /// Applies `mode` at `now` (unix µs), lasting `seconds` (nil: until turned off). Turning
    /// it on from off resets the counter; `on` while on only changes the end.
    public mutating func set(_ mode: Mode, seconds: Double?, now: Int64) {
        let turnOn: Bool
        switch mode {
        case .on: turnOn = true
        case .off: turnOn = false
        case .toggle: turnOn = !on
        }
        if turnOn {
            if !on { arrived = 0 }
            on = true
            until = seconds.map { now.addingReportingOverflow(Int64(($0 * 1_000_000).rounded())).partialValue }
        } else {
            on = false
            until = nil
        }
    }

    /// Ends it if its time has come at `now`; true when that turned it off.
    public mutating func expire(now: Int64) -> Bool {
        guard on, let until, until <= now else { return false }
        on = false
        self.until = nil
        return true
    }

    /// Counts a new notification; true when it must not peek (on, and not critical).
    public mutating func holdsPeek(of urgency: Urgency) -> Bool {
        guard on, urgency != .critical else { return false }
        if arrived < Int(Int32.max) { arrived += 1 }
        return true
    }

    /// Why a stored state is refused; nil when it is one the bridge could write.
    public var problem: String? {
        guard format == Self.formatName, version == Self.currentVersion else { return "unsupported format \"\(format)\" version \(version)" }
        guard (0...Int(Int32.max)).contains(arrived) else { return "arrived: \(arrived) is outside 0...\(Int32.max)" }
        if let until, until <= 0 { return "until: not a time after 1970" }
        if !on, until != nil { return "until: set while off" }
        return nil
    }

    /// `DoNotDisturb()`'s `a{sv}`: `on` b, `until` x (unix µs, 0: until turned off), `arrived` u.
    public var vardict: DBusValue {
        .vardict(["on": .bool(on), "until": .int64(until ?? 0), "arrived": .uint32(UInt32(clamping: arrived))])
    }
}
