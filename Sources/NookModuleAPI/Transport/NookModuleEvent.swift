import NookCore
/// What happened to a module's link with the broker, as `NookModule.events()` reports it.
public enum NookModuleEvent: Hashable, Sendable {
    /// The module is registered with a broker and everything it publishes has been sent:
    /// after `connect`, and again each time the broker comes back.
    case connected
    /// The broker left the bus. Calls keep working; their effect is delivered on its return.
    case brokerLost
    /// A change kept while the broker was away was refused when it was delivered (or the
    /// module could not register again); the SDK dropped it and carried on with the rest.
    case deliveryFailed(NookModuleError)
    /// The bus connection itself closed. Calls are kept; the module reconnects to the same
    /// address by itself, reports `.connected` once it has registered again, and delivers them.
    case disconnected
    /// A person dismissed the activity (`nookctl end`, a close button): the SDK dropped it from
    /// `activities`, `update` on it throws `UnknownActivity`, and only a `start` with a new id
    /// shows something again, as ActivityKit does once a user dismisses a Live Activity.
    case activityDismissed(String, by: NookDismissalSource)
}

/// Who ended an activity the module did not end itself.
public enum NookDismissalSource: String, Hashable, Sendable {
    /// A person, through the broker's Control interface.
    case user
}
