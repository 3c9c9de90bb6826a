import NookCore

/// What the expanded panel shows.
public enum ExpandedTarget: Hashable, Sendable {
    case activity(ActivityRef)
    case home(module: String)
    case board
}

/// The nook's presentation with exactly what each case needs (SPEC "Presentations").
public enum NookState: Hashable, Sendable {
    case hidden
    case pill
    case peek(ActivityRef)
    case expanded(ExpandedTarget, via: OpenVia)
    /// A separate window for one module; the nook itself stays a pill.
    case companion(module: String)

    /// The contract's presentation string (`GetState`'s `presentation`, a plan's `from`/`to`).
    public var presentation: Presentation {
        switch self {
        case .hidden: .hidden
        case .pill: .pill
        case .peek: .peek
        case .expanded: .expanded
        case .companion: .companion
        }
    }

    /// The module and activity `GetState` reports: what the nook is showing, if one thing.
    public var focus: (module: String, activity: String) {
        switch self {
        case .hidden, .pill, .expanded(.board, _): ("", "")
        case .peek(let ref), .expanded(.activity(let ref), _): (ref.module, ref.activity)
        case .expanded(.home(let module), _), .companion(let module): (module, "")
        }
    }
}

/// What `Control` and renderers ask of the presentation.
public enum ControlAction: Hashable, Sendable {
    case show
    case hide
    /// `Open`: `onto` nil means the default content.
    case open(onto: OpenTarget, via: OpenVia)
    case close
    case peek(ActivityRef)
    case endPeek
    case openCompanion(module: String)
    case closeCompanion
    /// A renderer's `Pointer("enter")` over the pill: open by hover onto the default content.
    case pointerEnter
    /// A renderer's `Pointer("exit")`: close what hovering opened.
    case pointerExit
    /// A renderer's `OpenSlot` with `via: hover` (an addition): the pointer came over a slot
    /// (a capsule, a pill slot): open by hover onto what it shows, from the pill or a peek.
    case pointerEnterOnto(OpenTarget)
}

/// `Open`'s `onto` with its `module` / `activity` options.
public enum OpenTarget: Hashable, Sendable {
    /// An activity's expanded view; nil: the primary activity's (or its module's home).
    case activity(ActivityRef?)
    /// A module's home; nil: the primary activity's module.
    case home(module: String?)
    case board
    /// What a module-owned slot opens (a board tile, module compact content): the module's
    /// home, else its first activity in display order that opens (an addition).
    case module(String)
}
