import FoundationEssentials
import Glibc
import NookModuleAPI

/// Do not disturb where a person sees it: while it is on, the notifications module shows the
/// activity `dnd`, a bell with a slash (`bell.slash.fill`) and the count of notifications held
/// from peeking since it was turned on. Its relevance is the lowest of the module's, so any
/// notification comes first: the bell is in the pill when nothing else is, else in a capsule
/// beside it. It ends when do not disturb does.
public enum DoNotDisturbViews {
    /// The indicator's activity id (notifications are `n<id>`, so it is never one of theirs).
    public static let activityID = "dnd"
    public static let symbol = "bell.slash.fill"
    /// Below low urgency's -100: a notification is always the primary activity before it.
    static let relevance: Double = -1000

    public static func activity(arrived: Int) -> NookLiveActivity {
        let count = "\(arrived)"
        let label = "Do not disturb: \(arrived) notification\(arrived == 1 ? "" : "s") held"
        return NookLiveActivity(id: activityID, accessibilityLabel: label, relevance: relevance) {
            Image(systemName: symbol).frame(width: 16, height: 16)
        } compactTrailing: {
            Text(count).font(size: 12).monospacedDigit()
        } minimal: {
            HStack(spacing: 3) {
                Image(systemName: symbol).frame(width: 14, height: 14)
                if arrived > 0 { Text(count).font(size: 11).monospacedDigit() }
            }
        }
    }
}

/// Keeps the `dnd` activity in step with do not disturb, one change at a time: each call says
/// "it may have changed", and the latest state is read from the publisher, so calls arriving
/// out of order never leave an old count on screen.
actor DoNotDisturbIndicator {
    /// What the broker shows: nil when no indicator.
    private var shown: Int?
    private var dirty = false
    private var running = false

    func refresh(_ publisher: Publisher) async {
        dirty = true
        guard !running else { return }
        running = true
        while dirty {
            dirty = false
            let state = await publisher.doNotDisturb()
            await show(state.on ? state.arrived : nil, module: publisher.module, log: publisher.log)
        }
        running = false
    }

    private func show(_ arrived: Int?, module: NookModule, log: @Sendable (String) -> Void) async {
        guard arrived != shown else { return }
        do {
            if let arrived {
                let activity = DoNotDisturbViews.activity(arrived: arrived)
                if shown == nil {
                    try await module.start(activity)
                } else {
                    // A person may have ended it (it comes back with the next change).
                    do { try await module.update(activity) } catch { try await module.start(activity) }
                }
            } else {
                _ = try? await module.end(activityID: DoNotDisturbViews.activityID, dismissal: .immediate)
            }
            shown = arrived
        } catch {
            log("cannot show do not disturb in the nook: \(error)")
        }
    }
}

extension Publisher {
    /// Shows do not disturb's state in the nook (after every change, and when the bridge starts).
    func showDNDIndicator() {
        Task { await dndIndicator.refresh(self) }
    }
}
