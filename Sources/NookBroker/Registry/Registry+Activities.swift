import NookCore

extension Registry {
    // The keys of each call, from data/contract.json.
    static let startKeys = ContractKeys.startKeys
    static let updateKeys = ContractKeys.updateKeys
    /// What `UpdateActivity`'s `remove` may take away (contract 1.1).
    static let removableKeys: Set<String> = ["peek", "expanded", "stale_date", "dismiss_date"]
    static let endKeys = ContractKeys.endKeys
    /// The view keys, in the order their views are validated (`ActivitySlot.allCases`).
    static let slotKeys: [CallKey] = [.compactLeading, .compactTrailing, .minimal, .peek, .expanded]

    /// `StartActivity(s activity, a{sv} spec)`.
    ///
    /// Requires `accessibility_label`, `compact_leading`, `compact_trailing`, `minimal`; takes
    /// `peek`, `expanded`, `relevance` (default 0), `stale_date`, `sequence`. An id already live
    /// is `ActivityExists`, except one the module just got back (restart): that is replaced.
    /// `views`: slot views NookBus already read and validated (`MethodCall.views`), their keys
    /// not in `spec`.
    public mutating func startActivity(
        _ id: String, spec: [String: PropValue], views read: [String: ReadView] = [:], caller: String, now: BrokerTime
    ) throws(RegistryError) -> [RegistryAction] {
        let (reader, given, moduleId) = try openCall("StartActivity", id, spec, views: read, record: "spec", caller: caller)
        try reader.checkPayload(bytes: given.payloadBytes, limit: limits.maxPayloadBytes)
        let module = modules[moduleId]!
        if module.dismissed.contains(id) {
            throw RegistryError(
                .activityDismissed,
                "activity \"\(id)\" of module \"\(moduleId)\" was dismissed by the user; start a new activity with another id")
        }
        let existing = module.activities[id]
        if let existing, !existing.adoptable {
            throw RegistryError(.activityExists, "activity \"\(id)\" of module \"\(moduleId)\" is already live (use UpdateActivity)")
        }
        if existing == nil, module.activities.count >= limits.maxActivitiesPerModule {
            throw RegistryError(
                .limitsExceeded,
                "activity \"\(id)\": module \"\(moduleId)\" already has \(module.activities.count) activities (maxActivitiesPerModule \(limits.maxActivitiesPerModule))")
        }
        guard let label = try reader.optionalString("accessibility_label", given: given[.accessibilityLabel], maxBytes: limits.maxLabelBytes) else {
            throw RegistryError(.invalidArgs, "StartActivity \"\(id)\" spec: missing required key 'accessibility_label'")
        }
        try Self.checkLabel(label, context: reader.context)
        var diagnostics: [Diagnostic] = []
        var views: [ActivitySlot: ViewNode] = [:]
        let rules = module.rules
        for key in Self.slotKeys {
            let slot = key.slot!
            guard let view = try view(key, read, reader, given, activity: id, module: moduleId, rules: rules, diagnostics: &diagnostics) else {
                if slot.isRequired {
                    throw RegistryError(.invalidArgs, "StartActivity \"\(id)\" spec: missing required key '\(slot.rawValue)'")
                }
                continue
            }
            views[slot] = view
        }
        let relevance = try reader.number("relevance", given: given[.relevance], in: .relevance) ?? 0
        let staleDate = try reader.date("stale_date", given: given[.staleDate])
        let sequence = try reader.optionalUInt64("sequence", given: given[.sequence])
        let lifetime = try reader.optionalChoice("lifetime", given: given[.lifetime], ActivityLifetime.self) ?? .connection
        let dismissDate = try reader.date("dismiss_date", given: given[.dismissDate])
        try checkLifetime(lifetime, dismissDate: dismissDate, context: reader.context)
        let dismissible = try reader.optionalBool("dismissible", given: given[.dismissible]) ?? true
        // `animate`, `animation` and `remove` are UpdateActivity's only.
        let unknown = given.unknownKeys { $0 != .animate && $0 != .animation && $0 != .remove }
        diagnostics += reader.unknownKeyDiagnostics(unknown, module: moduleId)

        let before = modules[moduleId]!.marks.suffixingDiagnostics
        var record = ActivityRecord(
            id: id, accessibilityLabel: label, views: views, relevance: relevance, staleDate: staleDate,
            lastSequence: sequence, startOrder: existing?.startOrder ?? nextOrder())
        record.lifetime = lifetime
        record.dismissDate = dismissDate
        record.dismissible = dismissible
        modules[moduleId]!.activities[id] = record
        diagnostics += newSuffixing(module: moduleId, before: before)

        var actions: [RegistryAction] = []
        actions.reserveCapacity(3)
        actions += deliver(diagnostics, module: moduleId)
        let cause: SceneCause = existing == nil ? .activityStarted : .activityUpdated
        actions.append(.sceneChanged(SceneChange(cause: cause, module: moduleId, activity: id)))
        actions.append(.persist)
        return actions
    }

    /// `UpdateActivity(s activity, a{sv} changes)`: each key given replaces its value.
    ///
    /// `animate` (default true) and `animation` travel with the scene change. A `sequence`
    /// older than the last one applied makes the whole update a no-op with a `stale-update`
    /// warning to the module (the call itself succeeds).
    /// `views`: slot views NookBus already read and validated (`MethodCall.views`), their keys
    /// not in `changes`.
    public mutating func updateActivity(
        _ id: String, changes: [String: PropValue], views read: [String: ReadView] = [:], caller: String, now: BrokerTime
    ) throws(RegistryError) -> [RegistryAction] {
        let (reader, given, moduleId) = try openCall("UpdateActivity", id, changes, views: read, record: "changes", caller: caller)
        // What the reads need of the record; the record itself is changed in place at the end.
        guard let current = modules[moduleId]!.activities[id].map({ ($0.lastSequence, $0.lifetime, $0.dismissDate) }) else {
            throw RegistryError(.unknownActivity, "module \"\(moduleId)\" has no activity \"\(id)\"")
        }
        let (lastSequence, currentLifetime, currentDismissDate) = current
        try reader.checkPayload(bytes: given.payloadBytes, limit: limits.maxPayloadBytes)
        let sequence = try reader.optionalUInt64("sequence", given: given[.sequence])
        if let sequence, let last = lastSequence, sequence < last {
            let warning = Diagnostic(
                .staleUpdate, .warning,
                "UpdateActivity \"\(id)\": sequence \(sequence) is older than the last applied (\(last)); the update was ignored",
                path: "sequence", module: moduleId, id: id)
            return deliver([warning], module: moduleId)
        }
        // Read everything first: a bad key refuses the whole update and changes nothing.
        var diagnostics: [Diagnostic] = []
        var change = ActivityChange()
        if let label = try reader.optionalString("accessibility_label", given: given[.accessibilityLabel], maxBytes: limits.maxLabelBytes) {
            try Self.checkLabel(label, context: reader.context)
            change.label = label
        }
        let rules = modules[moduleId]!.rules
        for key in Self.slotKeys {
            guard let view = try view(key, read, reader, given, activity: id, module: moduleId, rules: rules, diagnostics: &diagnostics) else { continue }
            change.views.set(key.slot!, view)
        }
        change.relevance = try reader.number("relevance", given: given[.relevance], in: .relevance)
        // A new stale date makes the activity fresh again until the broker's clock passes it.
        change.staleDate = try reader.date("stale_date", given: given[.staleDate]).map { .some($0) }
        change.sequence = sequence
        change.lifetime = try reader.optionalChoice("lifetime", given: given[.lifetime], ActivityLifetime.self)
        change.dismissDate = try reader.date("dismiss_date", given: given[.dismissDate]).map { .some($0) }
        change.dismissible = try reader.optionalBool("dismissible", given: given[.dismissible])
        for key in try reader.removals(given: given[.remove], allowed: Self.removableKeys) {
            switch key {
            case "peek": change.views.set(.peek, nil)
            case "expanded": change.views.set(.expanded, nil)
            case "stale_date": change.staleDate = .some(nil)
            default: change.dismissDate = .some(nil)
            }
        }
        try checkLifetime(
            change.lifetime ?? currentLifetime, dismissDate: change.dismissDate ?? currentDismissDate, context: reader.context)
        let animate = try reader.optionalBool("animate", given: given[.animate]) ?? true
        let animation = try reader.optionalString("animation", given: given[.animation], maxBytes: 256)
        diagnostics += reader.unknownKeyDiagnostics(given.unknownKeys { _ in true }, module: moduleId)

        let idsBefore = change.apply(to: &modules[moduleId]!.activities[id]!)
        // Rule 8's diagnostics depend on the module's activities' nook ids only: when this
        // update left them as they were, no diagnostic can have appeared.
        if let idsBefore {
            var marks = modules[moduleId]!.marks
            marks.activities[id] = idsBefore
            diagnostics += newSuffixing(module: moduleId, before: marks.suffixingDiagnostics)
        }

        var actions: [RegistryAction] = []
        actions.reserveCapacity(3)
        actions += deliver(diagnostics, module: moduleId)
        actions.append(.sceneChanged(SceneChange(
            cause: .activityUpdated, module: moduleId, activity: id, animate: animate, animation: animation, panelsOnly: change.touchesOnlyPanels)))
        actions.append(.persist)
        return actions
    }

    /// `EndActivity(s activity, a{sv} options)`: `dismissal` `default` (the default) or `immediate`.
    public mutating func endActivity(_ id: String, options: [String: PropValue], caller: String, now: BrokerTime)
        throws(RegistryError) -> [RegistryAction]
    {
        let reader = FieldReader<RegistryError>(fields: options, context: "EndActivity \"\(InputQuote.text(id))\" options")
        let moduleId = try ownModule(caller: caller, named: try reader.optionalString("module", maxBytes: 256))
        try checkIdentifier(id, what: "activity id")
        guard modules[moduleId]!.activities[id] != nil else {
            throw RegistryError(.unknownActivity, "module \"\(moduleId)\" has no activity \"\(id)\"")
        }
        let dismissal = try reader.optionalChoice("dismissal", Dismissal.self) ?? .default
        let diagnostics = reader.unknownKeys(known: Self.endKeys, module: moduleId)
        modules[moduleId]!.activities[id] = nil
        var actions = deliver(diagnostics, module: moduleId)
        actions.append(.sceneChanged(SceneChange(cause: .activityEnded, module: moduleId, activity: id, dismissal: dismissal)))
        actions.append(.persist)
        return actions
    }

    /// `Control.EndActivity(s module, s activity, a{sv} options)`: the user (not the module)
    /// ends an activity, as when a person dismisses it. The module learns of it through an
    /// `activity-dismissed` diagnostic, so it can stop updating it.
    public mutating func dismiss(_ ref: ActivityRef, options: [String: PropValue], now: BrokerTime) throws(RegistryError) -> [RegistryAction] {
        let reader = FieldReader<RegistryError>(fields: options, context: "EndActivity \"\(ref)\" options")
        guard modules[ref.module] != nil else { throw RegistryError(.unknownModule, "no module \"\(ref.module)\"") }
        guard modules[ref.module]!.activities[ref.activity] != nil else {
            throw RegistryError(.unknownActivity, "module \"\(ref.module)\" has no activity \"\(ref.activity)\"")
        }
        let dismissal = try reader.optionalChoice("dismissal", Dismissal.self) ?? .default
        var diagnostics = reader.unknownKeys(known: ["dismissal"], module: ref.module)
        diagnostics.append(Diagnostic(.activityDismissed, .info, "activity \"\(ref.activity)\" was ended from Control (dismissed by the user)",
                                      module: ref.module, id: ref.activity))
        var actions = deliver(diagnostics, module: ref.module)
        modules[ref.module]!.activities[ref.activity] = nil
        modules[ref.module]!.rememberDismissal(of: ref.activity)
        actions.append(.sceneChanged(SceneChange(cause: .activityEnded, module: ref.module, activity: ref.activity, dismissal: dismissal)))
        actions.append(.persist)
        return actions
    }

    /// A detached activity must carry a `dismiss_date`, at most 24 h ahead (contract 1.1).
    func checkLifetime(_ lifetime: ActivityLifetime, dismissDate: Int64?, context: @autoclosure () -> String) throws(RegistryError) {
        guard lifetime == .detached else { return }
        guard let dismissDate else {
            throw RegistryError(.invalidArgs, "\(context()): key 'lifetime': a detached activity needs a 'dismiss_date'")
        }
        if let unixNow, dismissDate > unixNow &+ Self.maxDetachedMicroseconds {
            throw RegistryError(.invalidArgs, "\(context()): key 'dismiss_date': a detached activity ends at most 24 h from now")
        }
    }

    static func checkLabel(_ label: String, context: @autoclosure () -> String) throws(RegistryError) {
        if label.isEmpty {
            throw RegistryError(.invalidArgs, "\(context()): key 'accessibility_label' must not be empty")
        }
    }

    /// The start of `StartActivity` and `UpdateActivity`: a reader of the call's record, its
    /// fields read in one pass (each read after takes its value from them), the caller's own
    /// module, and the activity id checked.
    private func openCall(
        _ call: StaticString, _ id: String, _ fields: [String: PropValue], views: [String: ReadView], record: StaticString, caller: String
    ) throws(RegistryError) -> (FieldReader<RegistryError>, ActivityFields, String) {
        let reader = FieldReader<RegistryError>(fields: fields, call: call, subject: id, record: record)
        let given = ActivityFields(fields, views: views)
        let moduleId = try ownModule(caller: caller, named: try reader.optionalString("module", given: given[.module], maxBytes: 256))
        try checkIdentifier(id, what: "activity id")
        return (reader, given, moduleId)
    }

    /// The view of the slot `key` a call carries, validated and settled: one NookBus read and
    /// validated as the call arrived (`read`), else the node in the record, validated here. Nil
    /// when the call does not carry one.
    private func view(
        _ key: CallKey, _ read: [String: ReadView], _ reader: FieldReader<RegistryError>, _ given: ActivityFields,
        activity id: String, module: String, rules: ModuleRules, diagnostics: inout [Diagnostic]
    ) throws(RegistryError) -> ViewNode? {
        let slot = key.slot!.rawValue
        let owner = SlotOwner(module: module, activity: id)
        if let view = read[key.name] {
            return settle(view.root, slot: slot, context: "activity \"\(id)\"", owner: owner, rules: rules, diagnostics: &diagnostics)
        }
        guard let raw = try reader.optionalNode(key.name, given: given[key]) else { return nil }
        return try validate(raw, slot: slot, context: "activity \"\(id)\"", owner: owner, rules: rules, diagnostics: &diagnostics)
    }

    /// Validates one view; its diagnostics join `diagnostics`: the validator's, then the class
    /// and group problems its namespaces have (`missing-group`, `unknown-class`, ...), which
    /// the module hears about when it publishes, shown or not (SPEC rules 15, 23, 24).
    ///
    /// `context` (`activity "song"`) is written only when an error or a diagnostic needs it;
    /// `rules` are the owner's (`ModuleRules.none` when it has none).
    func validate(
        _ raw: RawNode, slot: String, context: @autoclosure () -> String, owner: SlotOwner, rules: ModuleRules,
        diagnostics: inout [Diagnostic]
    ) throws(RegistryError) -> ViewNode {
        let view: (root: ViewNode, diagnostics: [Diagnostic])
        do {
            view = try validator.validate(raw, slot: slot)
        } catch {
            throw RegistryError.view(error, context: context())
        }
        return settle(view.root, slot: slot, context: context(), owner: owner, rules: rules, validation: view.diagnostics, diagnostics: &diagnostics)
    }

    /// A validated view (by `validate`, or by NookBus as it read the call: `ReadView`) made
    /// ready to store: the module's rules resolved, and the diagnostics of its classes, groups
    /// and scope names (and `validation`'s) joined to `diagnostics`.
    func settle(
        _ view: ViewNode, slot: String, context: @autoclosure () -> String, owner: SlotOwner, rules: ModuleRules,
        validation: [Diagnostic] = [], diagnostics: inout [Diagnostic]
    ) -> ViewNode {
        // The module's own rules are resolved here, before anything stores or reads the view.
        let root = rules.scoping(view)
        // Both find their problems in `classes` and `group` props only (class lists, shared
        // classes and variants without their group, group conflicts and identities, scope
        // names): a view with neither prop, as most are, has none to find and is not walked.
        // `NamespaceDiagnosticsShortcutTests` holds this to their code.
        let classes: [Diagnostic]
        let unresolved: [Diagnostic]
        if root.carriesClassesOrGroups {
            classes = SlotNamespaces(resolving: root, slot: slot, owner: owner, namedRules: namedRules).diagnostics
            unresolved = ModuleRules.unresolvedScopeNames(in: root, slot: slot, themeRules: namedRules)
        } else {
            classes = []
            unresolved = []
        }
        if validation.isEmpty && classes.isEmpty && unresolved.isEmpty { return root }
        let context = context()
        for diagnostic in [validation, classes, unresolved].joined() {
            var copy = diagnostic
            copy.message = "\(context): \(diagnostic.message)"
            diagnostics.append(copy)
        }
        return root
    }

    /// Rule 8 diagnostics that hold now and did not before the change.
    func newSuffixing(module: String, before: [Diagnostic]) -> [Diagnostic] {
        let old = Set(before)
        return modules[module]!.marks.suffixingDiagnostics.filter { !old.contains($0) }
    }
}

extension ViewNode {
    /// Whether any node of the tree sets `classes` or `group`.
    var carriesClassesOrGroups: Bool {
        if props.classes != nil || props.group != nil { return true }
        for child in children where child.carriesClassesOrGroups { return true }
        return false
    }
}
