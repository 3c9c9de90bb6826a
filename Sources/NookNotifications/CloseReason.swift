/// `NotificationClosed`'s reason, as the spec numbers them.
public enum CloseReason: UInt32, Hashable, Sendable {
    /// It expired (its `expire_timeout`, the server's default), or the bridge ended it to
    /// stay within its bound of live notifications.
    case expired = 1
    /// A person dismissed it (`nookctl end`, a close in the nook) or pressed one of its actions.
    case dismissed = 2
    /// `CloseNotification` was called.
    case closedByCall = 3
    /// Anything else (the bridge is leaving).
    case undefined = 4
}
