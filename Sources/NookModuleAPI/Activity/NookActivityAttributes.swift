import NookCore

/// ActivityKit's shape: what an activity is (its attributes, fixed while it lives), what
/// changes (its `ContentState`), and its views as functions of both.
///
/// ```swift
/// struct BuildAttributes: NookActivityAttributes {
///     struct ContentState: Hashable, Sendable {
///         var step: String
///         var progress: Double
///     }
///     var project: String
///
///     func accessibilityLabel(_ context: Context) -> String { "Building \(project)" }
///     func compactLeading(_ context: Context) -> some NookView {
///         Image(systemName: "hammer").nookSharedElement("icon")
///     }
///     func compactTrailing(_ context: Context) -> some NookView {
///         ProgressView(value: context.state.progress)
///     }
///     func minimal(_ context: Context) -> some NookView { Image(systemName: "hammer") }
///     func expanded(_ context: Context) -> some NookView {
///         VStack {
///             Label(project, systemImage: "hammer").nookSharedElement("icon")
///             Text(context.state.step)
///         }
///     }
/// }
///
/// let build = try await NookActivity.request(
///     attributes: BuildAttributes(project: "nook"), content: .init(state: .init(step: "compile", progress: 0)), on: module)
/// try await build.update(.init(step: "link", progress: 0.8))
/// try await build.end(dismissalPolicy: .immediate)
/// ```
///
/// The views are built again from the context for every update, closures of buttons
/// included, so an update is a new state and nothing else. `peek` and `expanded` are optional:
/// an activity without them has none.
public protocol NookActivityAttributes: Sendable {
    /// What changes while the activity lives.
    associatedtype ContentState: Hashable & Sendable
    associatedtype CompactLeading: NookView
    associatedtype CompactTrailing: NookView
    associatedtype Minimal: NookView
    associatedtype Peek: NookView = EmptyView
    associatedtype Expanded: NookView = EmptyView
    typealias Context = NookActivityContext<Self>

    /// Required: what assistive technology reads for the activity.
    func accessibilityLabel(_ context: Context) -> String
    /// The pill's view left of the notch.
    @NookViewBuilder func compactLeading(_ context: Context) -> CompactLeading
    /// The pill's view right of the notch.
    @NookViewBuilder func compactTrailing(_ context: Context) -> CompactTrailing
    /// The capsule beside the pill when another activity is primary.
    @NookViewBuilder func minimal(_ context: Context) -> Minimal
    /// What the nook shows when it peeks at the activity.
    @NookViewBuilder func peek(_ context: Context) -> Peek
    /// The nook opened onto the activity.
    @NookViewBuilder func expanded(_ context: Context) -> Expanded
}

extension NookActivityAttributes where Peek == EmptyView {
    public func peek(_ context: Context) -> EmptyView { EmptyView() }
}

extension NookActivityAttributes where Expanded == EmptyView {
    public func expanded(_ context: Context) -> EmptyView { EmptyView() }
}

/// What an activity's views are built from: ActivityKit's `ActivityViewContext`.
public struct NookActivityContext<Attributes: NookActivityAttributes>: Sendable {
    public let activityID: String
    public let attributes: Attributes
    public let state: Attributes.ContentState
    /// Whether the content's stale date had passed when the views were built.
    public let isStale: Bool
}

/// A state with when it goes stale and how relevant it is: ActivityKit's `ActivityContent`.
public struct NookActivityContent<State: Hashable & Sendable>: Hashable, Sendable {
    public var state: State
    /// When the content stops being current: the broker demotes the activity then.
    public var staleDate: NookInstant?
    /// Higher shows first; nil leaves the order to the broker (the one started first).
    public var relevanceScore: Double?

    public init(state: State, staleDate: NookInstant? = nil, relevanceScore: Double? = nil) {
        self.state = state
        self.staleDate = staleDate
        self.relevanceScore = relevanceScore
    }
}

extension NookActivityAttributes {
    /// The activity as the module publishes it, built from `content`.
    public func liveActivity(id: String, content: NookActivityContent<ContentState>, now: NookInstant = .now()) -> NookLiveActivity {
        let context = Context(activityID: id, attributes: self, state: content.state, isStale: content.staleDate.map { $0 <= now } ?? false)
        var activity = NookLiveActivity(id: id, accessibilityLabel: accessibilityLabel(context), relevance: content.relevanceScore,
                                        staleDate: content.staleDate) {
            compactLeading(context)
        } compactTrailing: {
            compactTrailing(context)
        } minimal: {
            minimal(context)
        }
        if Peek.self != EmptyView.self { activity.setPeek { peek(context) } }
        if Expanded.self != EmptyView.self { activity.setExpanded { expanded(context) } }
        return activity
    }
}
