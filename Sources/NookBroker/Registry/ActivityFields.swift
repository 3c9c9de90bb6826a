import NookCore

/// The keys `StartActivity`'s spec and `UpdateActivity`'s changes may carry
/// (`Registry.updateKeys`; `ActivityFieldsTests` holds them equal).
enum ActivityKey: Int, CaseIterable {
    case accessibilityLabel, compactLeading, compactTrailing, minimal, peek, expanded
    case relevance, staleDate, sequence, module, dismissDate, lifetime, dismissible
    case animate, animation, remove

    var name: String {
        switch self {
        case .accessibilityLabel: "accessibility_label"
        case .compactLeading: "compact_leading"
        case .compactTrailing: "compact_trailing"
        case .minimal: "minimal"
        case .peek: "peek"
        case .expanded: "expanded"
        case .relevance: "relevance"
        case .staleDate: "stale_date"
        case .sequence: "sequence"
        case .module: "module"
        case .dismissDate: "dismiss_date"
        case .lifetime: "lifetime"
        case .dismissible: "dismissible"
        case .animate: "animate"
        case .animation: "animation"
        case .remove: "remove"
        }
    }

    /// The key named `name`, found by its length and first byte and one comparison (no hashing).
    static func named(_ name: String) -> ActivityKey? {
        let utf8 = name.utf8
        guard let first = utf8.first else { return nil }
        let key: ActivityKey
        switch utf8.count {
        case 4: key = .peek
        case 6: key = first == UInt8(ascii: "m") ? .module : .remove
        case 7:
            if name == "minimal" { return .minimal }
            key = .animate
        case 8:
            switch first {
            case UInt8(ascii: "e"): key = .expanded
            case UInt8(ascii: "s"): key = .sequence
            default: key = .lifetime
            }
        case 9:
            if name == "relevance" { return .relevance }
            key = .animation
        case 10: key = .staleDate
        case 11: key = .dismissible
        case 12: key = .dismissDate
        case 15: key = .compactLeading
        case 16: key = .compactTrailing
        case 19: key = .accessibilityLabel
        default: return nil
        }
        return name == key.name ? key : nil
    }

    /// The slot this key carries the view of.
    var slot: ActivitySlot? {
        switch self {
        case .compactLeading: .compactLeading
        case .compactTrailing: .compactTrailing
        case .minimal: .minimal
        case .peek: .peek
        case .expanded: .expanded
        default: nil
        }
    }
}

/// A call's `a{sv}` read in one pass: the value of each key it knows (no lookup per key read,
/// none at all for the keys it does not carry), the keys it does not know, and its payload
/// size as `checkPayload` charges it. The values sit inline (a `PropValue` is one reference),
/// so reading a call allocates nothing.
struct ActivityFields {
    private var accessibilityLabel, compactLeading, compactTrailing, minimal, peek, expanded: PropValue?
    private var relevance, staleDate, sequence, module, dismissDate, lifetime, dismissible: PropValue?
    private var animate, animation, remove: PropValue?
    /// Keys that are none of `ActivityKey`'s, in no particular order.
    private(set) var unknown: [String] = []
    /// `FieldReader.checkPayload`'s sum.
    private(set) var payloadBytes = 0

    init(_ fields: [String: PropValue]) {
        for (name, value) in fields {
            payloadBytes += 9 + name.utf8.count + value.estimatedWireBytes
            if let key = ActivityKey.named(name) { self[key] = value } else { unknown.append(name) }
        }
    }

    subscript(key: ActivityKey) -> PropValue? {
        get {
            switch key {
            case .accessibilityLabel: accessibilityLabel
            case .compactLeading: compactLeading
            case .compactTrailing: compactTrailing
            case .minimal: minimal
            case .peek: peek
            case .expanded: expanded
            case .relevance: relevance
            case .staleDate: staleDate
            case .sequence: sequence
            case .module: module
            case .dismissDate: dismissDate
            case .lifetime: lifetime
            case .dismissible: dismissible
            case .animate: animate
            case .animation: animation
            case .remove: remove
            }
        }
        set {
            switch key {
            case .accessibilityLabel: accessibilityLabel = newValue
            case .compactLeading: compactLeading = newValue
            case .compactTrailing: compactTrailing = newValue
            case .minimal: minimal = newValue
            case .peek: peek = newValue
            case .expanded: expanded = newValue
            case .relevance: relevance = newValue
            case .staleDate: staleDate = newValue
            case .sequence: sequence = newValue
            case .module: module = newValue
            case .dismissDate: dismissDate = newValue
            case .lifetime: lifetime = newValue
            case .dismissible: dismissible = newValue
            case .animate: animate = newValue
            case .animation: animation = newValue
            case .remove: remove = newValue
            }
        }
    }

    /// The keys present and outside `known`, sorted (`FieldReader.unknownKeys`' order).
    func unknownKeys(keeping known: (ActivityKey) -> Bool) -> [String] {
        var names = unknown
        var raw = 0
        while let key = ActivityKey(rawValue: raw) {
            if self[key] != nil && !known(key) { names.append(key.name) }
            raw += 1
        }
        return names.count > 1 ? names.sorted() : names
    }
}

/// What one `UpdateActivity` changes, read whole before any of it is applied; then applied to
/// the stored record in place (no copy of the record or of its views).
struct ActivityChange {
    var label: String?
    var views = SlotChanges()
    var relevance: Double?
    /// `.some(nil)`: `remove`d.
    var staleDate: Int64??
    var sequence: UInt64?
    var lifetime: ActivityLifetime?
    /// `.some(nil)`: `remove`d.
    var dismissDate: Int64??
    var dismissible: Bool?

    /// Applies the change; returns the record's nook ids from before when the change changed them.
    func apply(to record: inout ActivityRecord) -> Set<String>? {
        record.adoptable = false
        if let label { record.accessibilityLabel = label }
        if let relevance { record.relevance = relevance }
        if let staleDate {
            record.staleDate = staleDate
            record.isStale = false
        }
        if let sequence { record.lastSequence = sequence }
        if let lifetime { record.lifetime = lifetime }
        if let dismissDate { record.dismissDate = dismissDate }
        if let dismissible { record.dismissible = dismissible }
        guard !views.isEmpty else { return nil }
        let idsBefore = record.nookIds
        // One access to `views`: its nook ids are gathered once.
        views.apply(to: &record.views)
        return record.nookIds == idsBefore ? nil : idsBefore
    }
}

/// The views an update sets or removes (nil), by slot, inline; `touched` says which slots change.
struct SlotChanges {
    private var touched: UInt8 = 0
    private var compactLeading, compactTrailing, minimal, peek, expanded: ViewNode?

    var isEmpty: Bool { touched == 0 }

    private static func bit(_ slot: ActivitySlot) -> UInt8 {
        switch slot {
        case .compactLeading: 1
        case .compactTrailing: 2
        case .minimal: 4
        case .peek: 8
        case .expanded: 16
        }
    }

    /// Sets `slot`'s view, or removes it (nil).
    mutating func set(_ slot: ActivitySlot, _ view: ViewNode?) {
        touched |= Self.bit(slot)
        switch slot {
        case .compactLeading: compactLeading = view
        case .compactTrailing: compactTrailing = view
        case .minimal: minimal = view
        case .peek: peek = view
        case .expanded: expanded = view
        }
    }

    func apply(to views: inout [ActivitySlot: ViewNode]) {
        if touched & 1 != 0 { views[.compactLeading] = compactLeading }
        if touched & 2 != 0 { views[.compactTrailing] = compactTrailing }
        if touched & 4 != 0 { views[.minimal] = minimal }
        if touched & 8 != 0 { views[.peek] = peek }
        if touched & 16 != 0 { views[.expanded] = expanded }
    }
}
