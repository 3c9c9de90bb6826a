import NookCore
/// A live activity as a module publishes it: its views, label, relevance and stale date.
///
/// A value: build it, change it, and hand it to the module connection (which sends
/// `StartActivity`, then `UpdateActivity` with what changed). `startSpec` and `changes` give
/// the contract's dictionaries directly.
///
/// ```swift
/// var song = NookLiveActivity(id: "song", accessibilityLabel: "Now playing") {
///     CoverArt(track: track).frame(width: 20, height: 20).nookSharedElement("cover")
/// } compactTrailing: {
///     EqualizerBars(level: level)
/// } minimal: {
///     Image(systemName: "music.note")
/// }
/// song.setExpanded { SongDetail(track: track) }
/// ```
public struct NookLiveActivity: Hashable, Sendable {
    /// Unique within the module; ASCII letters, digits, `-`, `_`, `.`.
    public let id: String
    /// Required: what assistive technology reads for the activity.
    public var accessibilityLabel: String
    // Setting a view node directly drops the closures the view had (a node carries none).
    public var compactLeading: ViewNode { didSet { actions[CallKey.compactLeading.name] = nil } }
    public var compactTrailing: ViewNode { didSet { actions[CallKey.compactTrailing.name] = nil } }
    /// Shown in a capsule beside the pill when another activity is primary.
    public var minimal: ViewNode { didSet { actions[CallKey.minimal.name] = nil } }
    public var peek: ViewNode? { didSet { actions[CallKey.peek.name] = nil } }
    public var expanded: ViewNode? { didSet { actions[CallKey.expanded.name] = nil } }
    /// Higher shows first; nil leaves it to the broker (ties: the one started first).
    public var relevance: Double?
    /// When the content stops being current.
    public var staleDate: NookInstant?
    /// When the broker ends the activity by itself (contract 1.1 `dismiss_date`); setting it
    /// back to nil sends `remove: ["dismiss_date"]`, so the activity stays.
    public var dismissDate: NookInstant?
    /// Whether a person may end the activity by hand: the renderer's close control, a middle
    /// click, Delete with the keyboard (an addition, `dismissible`; default true). False for
    /// something that must stay until the module ends it (a call in progress, a running
    /// recording); `nookctl end` still ends it.
    public var isDismissible = true
    /// The closures of the controls in each view, by view key (`expanded`, ...), under the
    /// action ids the views carry. Compared by id only (see `ViewActions`).
    var actions: [String: ViewActions] = [:]

    /// - Parameters:
    ///   - id: the activity's id within the module.
    ///   - accessibilityLabel: required; read for the activity as a whole.
    ///   - compactLeading: the pill's view left of the notch.
    ///   - compactTrailing: the pill's view right of the notch.
    ///   - minimal: the capsule view.
    public init<Leading: NookView, Trailing: NookView, Minimal: NookView>(
        id: String, accessibilityLabel: String, relevance: Double? = nil, staleDate: NookInstant? = nil,
        @NookViewBuilder compactLeading: () -> Leading,
        @NookViewBuilder compactTrailing: () -> Trailing,
        @NookViewBuilder minimal: () -> Minimal
    ) {
        self.id = id
        self.accessibilityLabel = accessibilityLabel
        self.relevance = relevance
        self.staleDate = staleDate
        var actions: [String: ViewActions] = [:]
        (self.compactLeading, actions[CallKey.compactLeading.name]) = compactLeading()._encode().finalizedRoot(key: CallKey.compactLeading.name)
        (self.compactTrailing, actions[CallKey.compactTrailing.name]) = compactTrailing()._encode().finalizedRoot(key: CallKey.compactTrailing.name)
        (self.minimal, actions[CallKey.minimal.name]) = minimal()._encode().finalizedRoot(key: CallKey.minimal.name)
        self.actions = actions.filter { !$0.value.isEmpty }
    }

    public mutating func setCompactLeading(@NookViewBuilder _ content: () -> some NookView) {
        let (node, table) = content()._encode().finalizedRoot(key: CallKey.compactLeading.name)
        compactLeading = node
        keep(table, for: CallKey.compactLeading.name)
    }

    public mutating func setCompactTrailing(@NookViewBuilder _ content: () -> some NookView) {
        let (node, table) = content()._encode().finalizedRoot(key: CallKey.compactTrailing.name)
        compactTrailing = node
        keep(table, for: CallKey.compactTrailing.name)
    }

    public mutating func setMinimal(@NookViewBuilder _ content: () -> some NookView) {
        let (node, table) = content()._encode().finalizedRoot(key: CallKey.minimal.name)
        minimal = node
        keep(table, for: CallKey.minimal.name)
    }

    /// The view the pill grows into while it peeks at this activity.
    public mutating func setPeek(@NookViewBuilder _ content: () -> some NookView) {
        let (node, table) = content()._encode().finalizedRoot(key: CallKey.peek.name)
        peek = node
        keep(table, for: CallKey.peek.name)
    }

    /// The view of the expanded panel for this activity.
    public mutating func setExpanded(@NookViewBuilder _ content: () -> some NookView) {
        let (node, table) = content()._encode().finalizedRoot(key: CallKey.expanded.name)
        expanded = node
        keep(table, for: CallKey.expanded.name)
    }

    private mutating func keep(_ table: ViewActions, for key: String) {
        actions[key] = table.isEmpty ? nil : table
    }

    /// The closure of the control `id`, looked up in the view `key` first (where it was
    /// pressed), then in the others.
    func action(_ id: String, preferring key: String) -> NookAction? {
        actions[key]?[id] ?? actions.keys.sorted().lazy.compactMap { self.actions[$0]?[id] }.first
    }

    /// The views by contract key, the optional ones only when set.
    public var views: [(key: String, node: ViewNode)] {
        var out: [(String, ViewNode)] = [
            (CallKey.compactLeading.name, compactLeading), (CallKey.compactTrailing.name, compactTrailing),
            (CallKey.minimal.name, minimal),
        ]
        if let peek { out.append((CallKey.peek.name, peek)) }
        if let expanded { out.append((CallKey.expanded.name, expanded)) }
        return out.map { (key: $0.0, node: $0.1) }
    }

    /// The `spec` of `StartActivity(s activity, a{sv} spec)`: every key that has a value.
    /// - Parameter sequence: this call's place among the activity's calls (`sequence` t); the
    ///   broker ignores a call older than the last one it applied.
    public func startSpec(sequence: UInt64) -> [String: PropValue] {
        wireStartSpec(sequence: sequence).merged
    }

    /// `startSpec` with its views kept as nodes, for the connection to write straight into
    /// the message (`BusConnection.call(…, vardict:views:)`).
    func wireStartSpec(sequence: UInt64) -> WireRecord {
        var spec = WireRecord(fields: scalarFields, views: viewsByKey)
        spec.fields[CallKey.sequence.name] = .uint(sequence)
        return spec
    }

    /// The `changes` of `UpdateActivity(s activity, a{sv} changes)`: the keys whose value
    /// differs from `previous` (all of them when `previous` is nil), plus `sequence` and the
    /// options.
    ///
    /// A key set in `previous` and unset now (a peek taken away) cannot be expressed by the
    /// contract's "each replaces" update; it is left out, and the broker keeps the old value.
    /// - Parameters:
    ///   - previous: what the broker last received.
    ///   - sequence: greater than every earlier call's.
    ///   - options: `animate` (false: show the new views without animation) and `animation`
    ///     (the caller's preset, used by scopes that name none).
    public func changes(
        since previous: NookLiveActivity?, sequence: UInt64, options: UpdateOptions = UpdateOptions()
    ) -> [String: PropValue] {
        wireChanges(since: previous, sequence: sequence, options: options).merged
    }

    /// `changes` with its views kept as nodes, for the connection to write straight into the
    /// message (`BusConnection.call(…, vardict:views:)`).
    func wireChanges(since previous: NookLiveActivity?, sequence: UInt64, options: UpdateOptions = UpdateOptions()) -> WireRecord {
        guard let previous else {
            var changes = WireRecord(fields: scalarFields, views: viewsByKey)
            changes.fields.merge(options.wireOptions) { _, option in option }
            changes.fields[CallKey.sequence.name] = .uint(sequence)
            return changes
        }
        // Views are compared as nodes: only a changed one is sent.
        var changes = WireRecord(fields: scalarFields.filter { key, value in previous.scalarFields[key] != value }, views: [:])
        let before = previous.viewsByKey
        for (key, node) in views where before[key] != node { changes.views[key] = node }
        changes.fields.merge(options.wireOptions) { _, option in option }
        if previous.dismissDate != nil && dismissDate == nil {
            changes.fields[CallKey.remove.name] = .array([.string(CallKey.dismissDate.name)])
        }
        // Sent only when false; back to true it must be said.
        if !previous.isDismissible && isDismissible { changes.fields[CallKey.dismissible.name] = .bool(true) }
        changes.fields[CallKey.sequence.name] = .uint(sequence)
        return changes
    }

    /// Checks every view as the broker will, so a mistake shows up in the module with its
    /// path (`expanded/0/1.shared.id`).
    /// - Returns: the validator's info diagnostics (unknown keys), usually none.
    /// - Throws: the first `ViewValidationError`.
    @discardableResult
    public func validate(limits: ViewLimits = .standard) throws(ViewValidationError) -> [Diagnostic] {
        try validate(changedSince: nil, limits: limits)
    }

    /// `validate`, skipping the views that are the same as in `previous` (checked when it was).
    @discardableResult
    func validate(changedSince previous: NookLiveActivity?, limits: ViewLimits = .standard) throws(ViewValidationError) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        let before = previous?.viewsByKey ?? [:]
        for (key, node) in views where before[key] != node {
            // Most views pass the checks as they are; only one that does not is turned into its
            // wire form, for the validator to name the problem.
            var check = OnePassView(limits: limits)
            if check.passes(node) { continue }
            diagnostics += try ViewValidator(limits: limits).validate(node.rawNode, slot: key).diagnostics
        }
        return diagnostics
    }

    private var viewsByKey: [String: ViewNode] {
        var out: [String: ViewNode] = [:]
        for (key, node) in views { out[key] = node }
        return out
    }

    /// The fields that are not views.
    private var scalarFields: [String: PropValue] {
        var out: [String: PropValue] = [CallKey.accessibilityLabel.name: .string(accessibilityLabel)]
        if let relevance { out[CallKey.relevance.name] = .double(relevance) }
        if let staleDate { out[CallKey.staleDate.name] = .int(staleDate.unixMicroseconds) }
        if let dismissDate { out[CallKey.dismissDate.name] = .int(dismissDate.unixMicroseconds) }
        if !isDismissible { out[CallKey.dismissible.name] = .bool(false) }
        return out
    }
}

/// A call's `a{sv}` as the SDK sends it: the fields in contract keys and types, and the views
/// as nodes, which the connection writes into the message straight from their props
/// (`BusConnection.call(…, vardict:views:)`), so no `RawNode` is built for them.
struct WireRecord: Equatable {
    var fields: [String: PropValue]
    var views: [String: ViewNode]

    /// The record as one dictionary, each view as its `RawNode`: what the public `startSpec`
    /// and `changes` give, and what the message holds.
    var merged: [String: PropValue] {
        var out = fields
        for (key, node) in views { out[key] = .node(node.rawNode) }
        return out
    }
}
