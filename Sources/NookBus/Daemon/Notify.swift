import CSystemd

/// systemd's service notification (`sd_notify`), for `Type=notify` units.
public enum ServiceNotify {
    /// Sends `state` (`READY=1`, `STATUS=...`, `STOPPING=1`, `WATCHDOG=1`) to the service
    /// manager. Without `$NOTIFY_SOCKET` (not run by systemd) it does nothing.
    /// - Returns: true when a manager received it.
    @discardableResult
    public static func notify(_ state: String) -> Bool {
        sd_notify(0, state) > 0
    }

    /// The watchdog interval systemd asked for (`$WATCHDOG_USEC`), if any.
    public static var watchdogInterval: Duration? {
        var usec: UInt64 = 0
        guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
        return .microseconds(Int64(usec))
    }
}
