import NookCore

/// The presentation state machine: Control actions and registry changes move the nook between
/// hidden, pill, peek, expanded and companion.
///
/// Contract: pure. It reads the registry (never changes it), throws a `RegistryError` naming
/// the module or activity when an action cannot apply (leaving the state untouched), and
/// returns the change it made, which the broker turns into a plan; nil when nothing changed.
///
/// Rules:
/// 1. With nothing to show (no activity, no module compact content) the nook is hidden; as
///    soon as something arrives it shows a pill, unless the user hid it (`Hide`), which holds
///    until `Show`.
/// 2. `Open` defaults to the primary activity's expanded view, or its module's home when the
///    activity has none; with no activity at all, the board when any module has a widget.
/// 3. Content that goes away takes its presentation with it: a peeked or expanded activity
///    that ends, a home or companion whose module leaves, returns the nook to the pill.
/// 4. Hovering opens by hover; leaving closes only what hovering opened. Hovering a slot
///    (`OpenSlot` via hover: a capsule, a pill slot) opens by hover onto what that slot shows.
/// 5. The board has a tile for every module with a widget, a home or an activity that opens.
/// 6. What a person opened is theirs: a `Peek` (a module's, a notification arriving) while an
///    expanded view or a companion is up changes nothing; it peeks from the pill or a peek.
public struct PresentationMachine: Hashable, Sendable {
    public private(set) var state: NookState = .hidden
    /// Set by `Hide`, cleared by `Show`.
    public private(set) var hiddenByUser = false

    /// One change of presentation, for the planner.
    public struct Change: Hashable, Sendable {
        public var from: NookState
        public var to: NookState
        public var cause: PlanCause
        public var via: OpenVia
    }

    /// Applies a Control or Pointer action.
    public mutating func apply(_ action: ControlAction, registry: Registry) throws(RegistryError) -> Change? {
        let before = state
        var cause: PlanCause
        var via = OpenVia.claim
        switch action {
        case .show:
            hiddenByUser = false
            cause = .show
            if state == .hidden && Self.hasSomethingToShow(registry) { state = .pill }
        case .hide:
            hiddenByUser = true
            cause = .hide
            state = .hidden
        case .open(let target, let openVia):
            cause = .open
            via = openVia
            state = .expanded(try Self.resolve(target, registry: registry), via: openVia)
            hiddenByUser = false
        case .pointerEnter:
            cause = .open
            via = .hover
            guard state == .pill || Self.isPeek(state) else { return nil }
            state = .expanded(try Self.resolve(.activity(nil), registry: registry), via: .hover)
        case .pointerEnterOnto(let target):
            cause = .open
            via = .hover
            guard state == .pill || Self.isPeek(state) else { return nil }
            state = .expanded(try Self.resolve(target, registry: registry), via: .hover)
        case .pointerExit:
            cause = .close
            guard case .expanded(_, .hover) = state else { return nil }
            state = Self.resting(registry, hiddenByUser: hiddenByUser)
        case .close:
            cause = .close
            state = Self.resting(registry, hiddenByUser: hiddenByUser)
        case .peek(let ref):
            cause = .peek
            guard let activity = registry.activity(ref) else { throw Self.unknown(ref, registry) }
            guard activity.views[.peek] != nil else {
                throw RegistryError(.invalidArgs, "activity \"\(ref)\" has no peek view to show")
            }
            switch state {
            case .expanded, .companion: return nil
            default: break
            }
            state = .peek(ref)
            hiddenByUser = false
        case .endPeek:
            cause = .endPeek
            guard Self.isPeek(state) else { return nil }
            state = Self.resting(registry, hiddenByUser: hiddenByUser)
        case .openCompanion(let module):
            cause = .companion
            guard let record = registry.modules[module] else { throw RegistryError(.unknownModule, "no module \"\(module)\"") }
            guard record.content[.home] != nil else {
                throw RegistryError(.invalidArgs, "module \"\(module)\" has no home view for a companion")
            }
            state = .companion(module: module)
        case .closeCompanion:
            cause = .companion
            guard case .companion = state else { return nil }
            state = Self.resting(registry, hiddenByUser: hiddenByUser)
        }
        return before == state && action != .show && action != .hide ? nil : Change(from: before, to: state, cause: cause, via: via)
    }

    /// Follows the registry after modules or activities changed (rules 1 and 3).
    public mutating func reconcile(with registry: Registry, cause: PlanCause) -> Change? {
        let before = state
        switch state {
        case .hidden:
            if !hiddenByUser && Self.hasSomethingToShow(registry) { state = .pill }
        case .pill:
            if !Self.hasSomethingToShow(registry) { state = .hidden }
        case .peek(let ref), .expanded(.activity(let ref), _):
            if registry.activity(ref) == nil { state = Self.resting(registry, hiddenByUser: hiddenByUser) }
        case .expanded(.home(let module), _), .companion(let module):
            if registry.modules[module]?.content[.home] == nil { state = Self.resting(registry, hiddenByUser: hiddenByUser) }
        case .expanded(.board, _):
            if !Self.hasBoard(registry) { state = Self.resting(registry, hiddenByUser: hiddenByUser) }
        }
        return before == state ? nil : Change(from: before, to: state, cause: cause, via: .claim)
    }

    // MARK: Helpers

    static func hasSomethingToShow(_ registry: Registry) -> Bool {
        registry.primaryActivity != nil || registry.compactContentModule != nil
    }

    /// The board has a tile: some module has a widget, a home, or an activity that opens.
    static func hasBoard(_ registry: Registry) -> Bool {
        registry.modules.values.contains { SceneAssembler.hasTile($0) }
    }

    static func resting(_ registry: Registry, hiddenByUser: Bool) -> NookState {
        !hiddenByUser && hasSomethingToShow(registry) ? .pill : .hidden
    }

    static func isPeek(_ state: NookState) -> Bool {
        if case .peek = state { return true }
        return false
    }

    static func unknown(_ ref: ActivityRef, _ registry: Registry) -> RegistryError {
        registry.modules[ref.module] == nil
            ? RegistryError(.unknownModule, "no module \"\(ref.module)\"")
            : RegistryError(.unknownActivity, "module \"\(ref.module)\" has no activity \"\(ref.activity)\"")
    }

    /// Rule 2: what `Open` shows.
    static func resolve(_ target: OpenTarget, registry: Registry) throws(RegistryError) -> ExpandedTarget {
        switch target {
        case .activity(let ref?):
            guard let activity = registry.activity(ref) else { throw unknown(ref, registry) }
            if activity.views[.expanded] != nil { return .activity(ref) }
            if registry.modules[ref.module]?.content[.home] != nil { return .home(module: ref.module) }
            throw RegistryError(.invalidArgs, "activity \"\(ref)\" has no expanded view and its module no home")
        case .activity(nil):
            if let primary = registry.primaryActivity { return try resolve(.activity(primary), registry: registry) }
            if hasBoard(registry) { return .board }
            throw RegistryError(.invalidArgs, "nothing to open: no live activity and no module with a home or widget")
        case .home(let module?):
            guard let record = registry.modules[module] else { throw RegistryError(.unknownModule, "no module \"\(module)\"") }
            guard record.content[.home] != nil else { throw RegistryError(.invalidArgs, "module \"\(module)\" has no home view") }
            return .home(module: module)
        case .home(nil):
            guard let primary = registry.primaryActivity else {
                throw RegistryError(.invalidArgs, "Open onto home needs a module: no live activity to take it from")
            }
            return try resolve(.home(module: primary.module), registry: registry)
        case .board:
            guard hasBoard(registry) else {
                throw RegistryError(.invalidArgs, "the board is empty: no module has a home, a widget or an activity that opens")
            }
            return .board
        case .module(let module):
            guard let record = registry.modules[module] else { throw RegistryError(.unknownModule, "no module \"\(module)\"") }
            if record.content[.home] != nil { return .home(module: module) }
            for ref in registry.displayOrder where ref.module == module {
                if registry.activity(ref)?.views[.expanded] != nil { return .activity(ref) }
            }
            throw RegistryError(.invalidArgs, "module \"\(module)\" has nothing to open: no home and no activity with an expanded view")
        }
    }
}
