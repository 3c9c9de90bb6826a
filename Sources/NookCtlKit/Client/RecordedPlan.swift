import NookBus

/// A plan as a renderer received it, with the seconds since the subscription's first plan.
public struct RecordedPlan: Hashable, Sendable {
    public var plan: DBusValue
    public var time: Double
}
