import NookCore
import NookBus

// Presses of the module's controls: the broker's `ActionInvoked` signal, read on the bus
// thread, is queued in arrival order; one task takes each press, finds the closure the
// current view holds under its id, and runs it to the end before the next.

/// The presses waiting for the module's action task, in arrival order.
final class ActionQueue: Sendable {
    let stream: AsyncStream<NookActionEvent>
    private let continuation: AsyncStream<NookActionEvent>.Continuation

    init() {
        // Presses come at human speed (the broker bounds them per connection); a backlog
        // beyond this is dropped oldest first rather than kept without bound.
        (stream, continuation) = AsyncStream<NookActionEvent>.makeStream(bufferingPolicy: .bufferingNewest(256))
    }

    func enqueue(_ event: NookActionEvent) { continuation.yield(event) }
    func finish() { continuation.finish() }
}

extension DiagnosticCode {
    /// Raised by the SDK itself: a press arrived for an action id the module's current view
    /// no longer has (the view was replaced, or the activity ended); nothing ran.
    public static let unknownAction: DiagnosticCode = "unknown-action"
}

extension NookModule {
    /// Every press of this module's controls from the moment of the call, closures or not
    /// (for logging, or for a module that dispatches presses itself).
    public nonisolated func actionEvents() -> AsyncStream<NookActionEvent> { actionsHub.subscribe() }

    /// Listens for `ActionInvoked` from the broker on the current connection.
    func listenForActions(on connection: BusConnection) async throws {
        let cell = brokerCell, queue = actionQueue, hub = actionsHub
        actionsMatch = try await connection.addMatch(
            NookContract.Modules.actionInvoked.matchRule
        ) { signal in
            // Only the broker we follow; and it unicasts, so another module's presses never come here.
            guard cell.isOwner(signal.sender), let event = NookActionEvent(signal: signal) else { return }
            hub.yield(event)
            queue.enqueue(event)
        }
    }

    /// Starts the task that runs closures, once per module.
    func startActionTask() {
        guard actionTask == nil else { return }
        let presses = actionQueue.stream
        actionTask = Task { [weak self] in
            for await press in presses {
                guard let action = await self?.closure(for: press) else {
                    if self == nil { return }
                    continue
                }
                await action.run()
            }
        }
    }

    /// The closure the current view holds for `press`; nil (and an `unknown-action`
    /// diagnostic on `diagnostics()`) when it holds none.
    func closure(for press: NookActionEvent) -> NookAction? {
        let found: NookAction?
        if press.activity.isEmpty {
            let slot = ModuleSlot(rawValue: press.slot)
            found = slot.flatMap { configuration.content[$0]?.actions[press.action] }
                ?? ModuleSlot.allCases.lazy.compactMap { self.configuration.content[$0]?.actions[press.action] }.first
        } else if let entry = entries[press.activity], entry.ending == nil {
            found = entry.activity.action(press.action, preferring: press.slot)
        } else {
            found = nil
        }
        if found == nil {
            let whose = press.activity.isEmpty ? "the module's own views" : "activity \"\(press.activity)\""
            diagnosticsHub.yield(
                Diagnostic(
                    .unknownAction, .warning,
                    "a press of \"\(press.action)\" (\(press.source.rawValue), \(press.slot)) found no control with that id in \(whose): the view was replaced or the activity ended; nothing ran",
                    module: id, id: press.activity))
        }
        return found
    }
}
