import NookCore

/// The named limits the registry enforces; a call that would pass one is refused with
/// `org.freedesktop.DBus.Error.LimitsExceeded` naming the limit and the offending id or key.
///
/// | limit | default | charged when |
/// |---|---|---|
/// | `maxModules` | 512 | `Register` of a new id (modules in their grace period count) |
/// | `maxActivitiesPerModule` | 32 | `StartActivity` of a new id |
/// | `maxPayloadBytes` | 1 MiB | each call's decoded argument (a spec, changes, a view) |
/// | `maxInfoStringBytes` | 256 | `display_name`, `version` |
/// | `maxLabelBytes` | 4096 | `accessibility_label` |
/// | `view` | `ViewLimits.standard` | each view: 4096 nodes, depth 32, string sizes, params |
public struct RegistryLimits: Hashable, Sendable {
    public var maxModules: Int = 512
    public var maxActivitiesPerModule: Int = 32
    public var maxPayloadBytes: Int = 1 << 20
    public var maxInfoStringBytes: Int = 256
    public var maxLabelBytes: Int = 4096
    public var view: ViewLimits = .standard 

    public static let standard = RegistryLimits()
}
