/// A view with the owner that supplied it: `<module>` for module-level content,
/// `<module>/<activity>` for an activity's views.
public struct OwnedView: Hashable, Sendable {
    public var owner: String
    public var view: ViewNode

    public init(owner: String, view: ViewNode) {
        self.owner = owner
        self.view = view
    }

    public init(module: String, activity: String? = nil, view: ViewNode) {
        self.init(owner: activity.map { module + "/" + $0 } ?? module, view: view)
    }
}

/// What the expanded panel shows.
public enum ExpandedContent: Hashable, Sendable {
    /// An activity's `expanded` view (slot `expanded`).
    case activity(OwnedView)
    /// A module's `home` view (slot `home`).
    case home(OwnedView)
    /// Every module's `widget` view, in board order (slot `widget` each).
    case board([OwnedView])
}

/// Everything the scene might show; the broker fills in what it has and the presentation
/// decides what is used (a pill ignores `expanded`, and so on).
public struct SceneContent: Hashable, Sendable {
    /// Beside the notch: the primary activity's compact views, or a module's compact content.
    public var compactLeading: OwnedView?
    public var compactTrailing: OwnedView?
    /// The other live activities' `minimal` views, in display order, one capsule each.
    public var minimal: [OwnedView]
    /// The peeking activity's `peek` view.
    public var peek: OwnedView?
    public var expanded: ExpandedContent?
    /// The companion module's `home` view.
    public var companion: OwnedView?
    /// Owners (`<module>/<activity>`) of the activities shown whose module said a person may
    /// not end them by hand (spec key `dismissible` false), sorted; the plan carries them as
    /// `undismissible`.
    public var undismissible: [String] = []

    public init(
        compactLeading: OwnedView? = nil, compactTrailing: OwnedView? = nil, minimal: [OwnedView] = [],
        peek: OwnedView? = nil, expanded: ExpandedContent? = nil, companion: OwnedView? = nil
    ) {
        self.compactLeading = compactLeading
        self.compactTrailing = compactTrailing
        self.minimal = minimal
        self.peek = peek
        self.expanded = expanded
        self.companion = companion
    }
}
