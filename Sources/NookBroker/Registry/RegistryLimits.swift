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
    public var maxModules: Int
    public var maxActivitiesPerModule: Int
    public var maxPayloadBytes: Int
    public var maxInfoStringBytes: Int
    public var maxLabelBytes: Int
    public var view: ViewLimits

    public init(
        maxModules: Int = 512, maxActivitiesPerModule: Int = 32, maxPayloadBytes: Int = 1 << 20,
        maxInfoStringBytes: Int = 256, maxLabelBytes: Int = 4096, view: ViewLimits = .standard
    ) {
        self.maxModules = maxModules
        self.maxActivitiesPerModule = maxActivitiesPerModule
        self.maxPayloadBytes = maxPayloadBytes
        self.maxInfoStringBytes = maxInfoStringBytes
        self.maxLabelBytes = maxLabelBytes
        self.view = view
    }

    public static let standard = RegistryLimits()
}

extension PropValue {
    /// About how many bytes this value takes on the wire (D-Bus marshalling, ignoring
    /// alignment): what `maxPayloadBytes` is charged with.
    public var estimatedWireBytes: Int {
        switch self {
        case .bool: return 4
        case .int, .uint, .double: return 8
        case .string(let text): return 5 + text.utf8.count
        case .array(let items), .structure(let items):
            return items.reduce(8) { $0 + $1.estimatedWireBytes + 4 }
        case .dictionary(let entries):
            return entries.reduce(8) { $0 + 9 + $1.key.utf8.count + $1.value.estimatedWireBytes }
        case .node(let node):
            return node.estimatedWireBytes
        }
    }
}

extension RawNode {
    public var estimatedWireBytes: Int {
        var total = 16 + kind.utf8.count
        for (key, value) in props { total += 9 + key.utf8.count + value.estimatedWireBytes }
        for child in children { total += 4 + child.estimatedWireBytes }
        return total
    }
}
