import NookCore
/// Whether a call reached the broker.
public enum NookDelivery: Hashable, Sendable {
    /// The broker applied it.
    case delivered
    /// The broker is away; the change is kept (the latest state per activity) and sent when
    /// it returns.
    case queued
}
