import NookCore

// `CallKey`, the keys `StartActivity`'s spec and `UpdateActivity`'s changes may carry, with its
// name lookup, is generated from data/contract.json.
extension CallKey {
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
    /// Keys that are none of `CallKey`'s, in no particular order.
    private(set) var unknown: [String] = []
    /// `FieldReader.checkPayload`'s sum.
    private(set) var payloadBytes = 0

    /// `views` are the call's views NookBus read straight into validated views (their keys are
    /// not in `fields`): they count towards the payload as they would as nodes.
    init(_ fields: [String: PropValue], views: [String: ReadView] = [:]) {
        for (name, value) in fields {
            payloadBytes += 9 + name.utf8.count + value.estimatedWireBytes
            if let key = CallKey.named(name) { self[key] = value } else { unknown.append(name) }
        }
        for (name, view) in views { payloadBytes += 9 + name.utf8.count + view.wireBytes }
    }

    subscript(key: CallKey) -> PropValue? {
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
    func unknownKeys(keeping known: (CallKey) -> Bool) -> [String] {
        var names = unknown
        var raw = 0
        while let key = CallKey(rawValue: raw) {
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

    /// Only the peek or expanded views change, if anything the nook draws: the `dismiss_date`
    /// and `sequence` beside them are the broker's alone.
    var touchesOnlyPanels: Bool {
        label == nil && relevance == nil && staleDate == nil && lifetime == nil && dismissible == nil && views.touchesOnlyPanels
    }

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

    /// No view of the pill or a capsule changes (only `peek` and `expanded`, or none).
    var touchesOnlyPanels: Bool { touched & (Self.bit(.compactLeading) | Self.bit(.compactTrailing) | Self.bit(.minimal)) == 0 }

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
