/// The broker's registry codes, here so modules read the same names the broker sends.
extension DiagnosticCode {
    /// An update whose `sequence` is older than the last one applied; it was ignored.
    public static let staleUpdate: DiagnosticCode = "stale-update"
    /// A module id was taken back with activities it had before (after a restart).
    public static let moduleRestored: DiagnosticCode = "module-restored"
    /// An activity was ended through `Control.EndActivity` (by the user), not by its module.
    public static let activityDismissed: DiagnosticCode = "activity-dismissed"
    /// An activity passed its `stale_date`.
    public static let activityStale: DiagnosticCode = "activity-stale"
}

extension DiagnosticCode {
    /// The module table was full: a module with no live connection (in its grace period, or
    /// kept only for detached activities) was ended to make room for the one registering.
    public static let moduleEvicted: DiagnosticCode = "module-evicted"
}
