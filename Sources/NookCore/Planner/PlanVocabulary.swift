/// Why a plan was made; raw values are the contract's `cause` strings.
public enum PlanCause: String, Hashable, Sendable, CaseIterable {
    case subscribe, show, hide, open, close, peek
    case endPeek = "end_peek"
    case activityStarted = "activity_started"
    case activityUpdated = "activity_updated"
    case activityEnded = "activity_ended"
    case contentChanged = "content_changed"
    case displayChanged = "display_changed"
    case companion
    case moduleVanished = "module_vanished"
    /// The theme changed (`SetTokens`, `ReloadTheme`, SIGHUP, the theme file rewritten): an
    /// addition. The scene is restyled in place at once (`animate: false`): nothing moves.
    case themeChanged = "theme_changed"
}

/// How the chrome gets from one presentation to the other (rule 13).
public enum Conversion: String, Hashable, Sendable, CaseIterable {
    /// The chrome morphs straight into its new shape.
    case direct
    /// The chrome shrinks to nothing for `motion.hideDip`, then grows into its new shape.
    case viaHidden = "via_hidden"
}

/// How an `Open` was asked for (rule 13): a host or surface claim, or the pointer hovering.
public enum OpenVia: String, Hashable, Sendable, CaseIterable {
    case claim, hover
}

/// What a moving element is clipped to while it travels.
public enum ElementClip: String, Hashable, Sendable, CaseIterable {
    /// The chrome's outline, interpolated between its two shapes (surface transitions).
    case chrome
    /// Nothing (content transitions inside a slot).
    case none
}

/// What happens to a node in a content transition (rule 17).
public enum LayoutChangeKind: String, Hashable, Sendable, CaseIterable {
    case move, insert, remove, style
}

/// What happens to a slot across a plan.
public enum SlotChangeKind: String, Hashable, Sendable, CaseIterable {
    /// Only in the destination: it fades in.
    case appear
    /// Only in the origin: it fades out.
    case disappear
    /// On both sides with a different view (a content transition).
    case update
    /// On both sides with the same view.
    case stay
}

/// A programmatic replacement for one shared-element curve (rule 14), the equivalent of
/// `sharedElementAnimation` / `sharedElementPeekAnimation`, as `SetSharedElementAnimation` sets it.
public enum CurveOverride: Hashable, Sendable {
    /// Use the theme token (`motion.sharedElement.convert` / `.peek`).
    case theme
    /// Ride the chrome's own curve for the move.
    case chrome
    /// This curve; its `source` becomes `override`.
    case curve(Curve)
}

extension DiagnosticCode {
    /// A marked element with no counterpart on the other side: it comes and goes with its slot.
    public static let noCounterpart: DiagnosticCode = "no-counterpart"
    /// Two sources for one key on one side (rule 9): that key does not move.
    public static let duplicateSource: DiagnosticCode = "duplicate-source"
    /// A capsule beside the pill took part in a transition (rule 12): it cross-fades.
    public static let capsuleNotShared: DiagnosticCode = "capsule-not-shared"
    /// A destination that lands before its staggered row or header appears (rule 11).
    public static let sharedInDelayedRow: DiagnosticCode = "shared-in-delayed-row"
    /// Reduce Motion kept an element still (rule 18).
    public static let reduceMotion: DiagnosticCode = "reduce-motion"
    /// A rebuilt window: elements arrive with their slots (rule 19).
    public static let freshWindow: DiagnosticCode = "fresh-window"
    /// A mark inside a companion window, where marks do nothing (rule 20).
    public static let companion: DiagnosticCode = "companion"
    /// A compact copy while the pill peeks: the peek's copy stands for it (rule 10).
    public static let shownInPeek: DiagnosticCode = "shown-in-peek"
    /// A follower (`is_source: false`, `shared-follower`): only the source of a key moves (rule 9, 16).
    public static let follower: DiagnosticCode = "follower"
    /// A content change outside any animation scope whose value changed (rule 17).
    public static let valueUnchanged: DiagnosticCode = "value-unchanged"
    /// A content change with no animation scope and no caller animation (rule 17).
    public static let noAnimationScope: DiagnosticCode = "no-animation-scope"
    /// An update sent with `animate: false` (rule 17).
    public static let animationDisabled: DiagnosticCode = "animation-disabled"
    /// Two elements of different activities share a key; an activity's pill only reaches its own views (rule 7).
    public static let otherActivity: DiagnosticCode = "other-activity"
    /// Curves longer than `motion.maxDuration` were shortened (rule 22).
    public static let durationCapped: DiagnosticCode = "duration-capped"
}

/// How to follow `duplicate-source`'s advice, in each way a module writes a mark: the SDK's
/// modifiers, the class DSL, the wire (issue 45: the advice named only the wire's key).
enum DuplicateSourceAdvice {
    static let text = ".nookSharedElement(id, isSource: false) or .twShared(id, in: namespace, isSource: false) in the SDK, "
        + "shared-follower beside a shared-[id] class, is_source: false in a raw shared mark"
}
