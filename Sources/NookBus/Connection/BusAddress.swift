/// Which bus to connect to.
public enum BusAddress: Hashable, Sendable {
    /// The user's session bus (`DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`).
    case session
    /// An explicit D-Bus address, such as `unix:path=/tmp/test-bus`.
    case address(String)
}
