import NookCore

/// Where an activity stands: ActivityKit's `ActivityState`.
public enum NookActivityState: Hashable, Sendable {
    case active
    /// The module ended it.
    case ended
    /// A person ended it (`nookctl end`, the close control): it cannot be updated again.
    case dismissed
}

/// One live activity of an attributes type: ActivityKit's `Activity`. Request it with its
/// attributes and first content, then give it new states; its views are built again from
/// each (`NookActivityAttributes`). It runs on a `NookModule`, alongside activities published
/// the other way (`NookLiveActivity`).
public actor NookActivity<Attributes: NookActivityAttributes> {
    public typealias State = Attributes.ContentState

    /// The activity's id within the module.
    public nonisolated let id: String
    public nonisolated let attributes: Attributes
    /// The content last given.
    public private(set) var content: NookActivityContent<State>
    public private(set) var activityState: NookActivityState = .active
    private let module: NookModule
    private var watchers: [AsyncStream<NookActivityState>.Continuation] = []
    private var dismissalTask: Task<Void, Never>?

    private init(id: String, attributes: Attributes, content: NookActivityContent<State>, module: NookModule) {
        self.id = id
        self.attributes = attributes
        self.content = content
        self.module = module
    }

    deinit {
        // Dropped while active: stop listening for its dismissal (the activity itself lives on
        // in the module until it ends).
        dismissalTask?.cancel()
        for watcher in watchers { watcher.finish() }
    }

    /// Starts an activity (`StartActivity`) with `content`'s state.
    /// - Parameter id: unique within the module; ASCII letters, digits, `-`, `_`, `.`.
    /// - Throws: `NookModuleError`, as `NookModule.start` does (`ActivityExists`, `InvalidView`, ...).
    public static func request(
        attributes: Attributes, content: NookActivityContent<State>, id: String, on module: NookModule
    ) async throws -> NookActivity {
        let activity = NookActivity(id: id, attributes: attributes, content: content, module: module)
        // Listening before the start: a dismissal right after it is not missed.
        let events = module.events()
        try await module.start(attributes.liveActivity(id: id, content: content))
        await activity.watchForDismissal(events)
        return activity
    }

    /// Shows a new state, keeping the stale date and relevance (`UpdateActivity` with what changed).
    public func update(_ state: State, animate: Bool = true) async throws {
        var next = content
        next.state = state
        try await update(next, animate: animate)
    }

    /// Shows new content: state, stale date and relevance.
    /// - Throws: `NookModuleError` `UnknownActivity` once it ended, `ActivityDismissed` once a person ended it.
    public func update(_ content: NookActivityContent<State>, animate: Bool = true) async throws {
        try checkActive()
        try await module.update(attributes.liveActivity(id: id, content: content), animate: animate)
        self.content = content
    }

    /// Ends the activity, showing `content` first when given (ActivityKit's final content).
    public func end(_ content: NookActivityContent<State>? = nil, dismissalPolicy: NookDismissal = .default) async throws {
        try checkActive()
        if let content, content != self.content { try await update(content) }
        try await module.end(activityID: id, dismissal: dismissalPolicy)
        settle(.ended)
    }

    /// Where the activity stands, from now on: the current state first, then each change,
    /// finishing once it ended or was dismissed.
    public func activityStateUpdates() -> AsyncStream<NookActivityState> {
        let (stream, continuation) = AsyncStream<NookActivityState>.makeStream()
        continuation.yield(activityState)
        if activityState == .active { watchers.append(continuation) } else { continuation.finish() }
        return stream
    }

    /// Waits while the activity is active, at most `duration`: returns `.active` when the time
    /// ran out first, else how it stopped (`.ended`, `.dismissed`). A module's main wait, so
    /// that a person's dismissal cuts it short.
    /// - Throws: `CancellationError` when the task is cancelled (`NookModule.run` on a signal).
    public func waitWhileActive(for duration: Duration) async throws -> NookActivityState {
        let states = activityStateUpdates()
        let state = await withTaskGroup(of: NookActivityState?.self) { group in
            group.addTask {
                do { try await Task.sleep(for: duration) } catch { return nil }
                return .active
            }
            group.addTask {
                for await state in states where state != .active { return state }
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        try Task.checkCancellation()
        return state ?? activityState
    }

    private func checkActive() throws {
        switch activityState {
        case .active: return
        case .ended: throw NookModuleError(.unknownActivity, "activity \"\(id)\" has ended")
        case .dismissed: throw NookModuleError(.activityDismissed, "activity \"\(id)\" was dismissed by the user")
        }
    }

    private func settle(_ state: NookActivityState) {
        guard activityState == .active else { return }
        activityState = state
        for watcher in watchers {
            watcher.yield(state)
            watcher.finish()
        }
        watchers = []
        dismissalTask?.cancel()
        dismissalTask = nil
    }

    private func watchForDismissal(_ events: AsyncStream<NookModuleEvent>) {
        let id = self.id
        dismissalTask = Task { [weak self] in
            for await event in events {
                guard case .activityDismissed(id, _) = event else { continue }
                await self?.settle(.dismissed)
                return
            }
        }
    }
}
