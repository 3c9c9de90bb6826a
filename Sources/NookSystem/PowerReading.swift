import NookBus

/// The battery as UPower's display device reports it (`org.freedesktop.UPower.Device` at
/// `/org/freedesktop/UPower/devices/DisplayDevice`): the composite of every battery, what
/// desktop bars show. Every value from the bus is checked: a percentage outside 0...100 or
/// not finite is clamped (NaN reads as 0), an enum value UPower does not define is `unknown`.
public struct PowerReading: Hashable, Sendable {
    /// UPower's `State`.
    public enum State: UInt32, Hashable, Sendable {
        case unknown = 0, charging = 1, discharging = 2, empty = 3, fullyCharged = 4, pendingCharge = 5, pendingDischarge = 6
    }

    /// UPower's `WarningLevel`, in rising severity.
    public enum Warning: UInt32, Hashable, Sendable, Comparable {
        case unknown = 0, none = 1, discharging = 2, low = 3, critical = 4, action = 5
        public static func < (a: Warning, b: Warning) -> Bool { a.rawValue < b.rawValue }
    }

    public var isPresent = false
    /// 0...100.
    public var percentage: Double = 0
    public var state: State = .unknown
    public var warning: Warning = .unknown

    public init() {}

    /// A reading from `GetAll`'s properties.
    public init(properties: [String: DBusValue]) {
        apply(changed: properties)
    }

    /// Applies a `PropertiesChanged`'s changed values; keys it does not use are ignored.
    public mutating func apply(changed properties: [String: DBusValue]) {
        if case .bool(let present)? = properties["IsPresent"] { isPresent = present }
        if case .double(let value)? = properties["Percentage"] { percentage = value.isFinite ? min(max(value, 0), 100) : 0 }
        if case .uint32(let value)? = properties["State"] { state = State(rawValue: value) ?? .unknown }
        if case .uint32(let value)? = properties["WarningLevel"] { warning = Warning(rawValue: value) ?? .unknown }
    }

    /// On a charger: charging, full, or waiting to charge.
    public var isOnExternalPower: Bool { state == .charging || state == .fullyCharged || state == .pendingCharge }

    /// Low or worse, and not on a charger.
    public var needsPower: Bool { warning >= .low && !isOnExternalPower }
}

/// What the nook tells a person about power.
public enum PowerEvent: Hashable, Sendable {
    case pluggedIn(percentage: Double)
    case unplugged(percentage: Double)
    case low(percentage: Double)
    case critical(percentage: Double)

    /// The events between two readings: a charger plugged or unplugged, or the warning rising
    /// to low or to critical (`action`, the level before UPower's own action, counts as
    /// critical) while on battery. A machine without a battery has none. From nothing read
    /// (at start) only a warning is news: a charger plugged in before is not.
    public static func between(_ old: PowerReading, _ new: PowerReading) -> [PowerEvent] {
        guard new.isPresent, new.state != .unknown else { return [] }
        var events: [PowerEvent] = []
        if old.isPresent, old.state != .unknown, old.isOnExternalPower != new.isOnExternalPower {
            events.append(new.isOnExternalPower ? .pluggedIn(percentage: new.percentage) : .unplugged(percentage: new.percentage))
        }
        if new.needsPower, new.warning > old.warning || (old.isOnExternalPower && !new.isOnExternalPower) {
            events.append(new.warning >= .critical ? .critical(percentage: new.percentage) : .low(percentage: new.percentage))
        }
        return events
    }

    public var percentage: Double {
        switch self {
        case .pluggedIn(let p), .unplugged(let p), .low(let p), .critical(let p): p
        }
    }
}
