import NookModuleAPI

/// Several notifications live at once (issue 40, part 5): they stack instead of replacing
/// each other. Pure: built from the live requests by id, no bus and no clock.
///
/// - The order is urgency, highest first, then the newest first (the higher id; ids only
///   grow). `relevance(_:id:)` gives the broker the same order, so the newest notification
///   of the highest urgency is the primary activity: its views are in the pill.
/// - That top notification carries the stack (`Summary`): a count badge beside its summary
///   in the pill and in its peek, and in its expanded view (a hover or click on the pill or
///   the peek away) the others, newest first, grouped by app.
public struct NotificationStack: Hashable, Sendable {
    /// The live notifications, top first.
    public let order: [UInt32]
    /// What the top notification shows of the others (nil when it is alone).
    public let summary: Summary?

    /// What the top notification shows of the stack.
    public struct Summary: Hashable, Sendable {
        /// Every live notification, the top one included (at least 2).
        public var count: Int
        /// The others, grouped by app: each app once, in the order of its newest one.
        public var rows: [Row]
        /// Apps beyond `maxRows`, and how many notifications they hold between them.
        public var moreApps: Int
        public var moreNotifications: Int
    }

    /// One app's live notifications, other than the top one.
    public struct Row: Hashable, Sendable {
        public var appName: String
        /// The summary of its newest one.
        public var summary: String
        public var count: Int
    }

    /// The most rows listed in the top notification's expanded view; more apps are counted.
    public static let maxRows = 6

    /// How often one app's new notifications peek: `burst` in a row, then one a second (a
    /// token bucket). What comes faster still joins the stack (the pill's count) and the
    /// history, unpeeked: a flood from one app interrupts the nook a few times, not a hundred.
    /// Critical notifications always peek.
    public struct PeekAllowance: Hashable, Sendable {
        public static let burst = 3.0
        public static let perSecond = 1.0
        var tokens = burst
        /// When `tokens` was counted (unix µs).
        var at: Int64 = 0

        public init() {}

        /// Takes one peek at `now` (unix µs) if one is left.
        public mutating func take(at now: Int64) -> Bool {
            refill(now)
            guard tokens >= 1 else { return false }
            tokens -= 1
            return true
        }

        public func isFull(at now: Int64) -> Bool {
            var copy = self
            copy.refill(now)
            return copy.tokens >= Self.burst
        }

        mutating func refill(_ now: Int64) {
            // A clock that went back refills nothing (and is not taken as the new start); a
            // long gap fills the bucket. Both times are unix µs, so the difference cannot trap.
            guard now > at else { return }
            tokens = min(Self.burst, tokens + Double(now - at) / 1e6 * Self.perSecond)
            at = now
        }
    }

    public init(live: [UInt32: NotificationRequest]) {
        let order = live.keys.sorted { a, b in
            let (ua, ub) = (live[a]!.urgency.rawValue, live[b]!.urgency.rawValue)
            return ua != ub ? ua > ub : a > b
        }
        self.order = order
        guard order.count > 1 else {
            summary = nil
            return
        }
        var rows: [Row] = []
        var index: [String: Int] = [:]
        for id in order.dropFirst() {
            let request = live[id]!
            let title = request.summary.isEmpty ? request.body.prefixBytes(NotificationViews.pillSummaryBytes, ellipsis: true) : request.summary
            if let at = index[request.appName] {
                rows[at].count += 1
            } else {
                index[request.appName] = rows.count
                rows.append(Row(appName: request.appName, summary: title, count: 1))
            }
        }
        let shown = Array(rows.prefix(Self.maxRows))
        let hidden = rows.dropFirst(Self.maxRows)
        summary = Summary(count: order.count, rows: shown, moreApps: hidden.count, moreNotifications: hidden.reduce(0) { $0 + $1.count })
    }

    /// The notification whose views are in the pill; nil when none is live.
    public var top: UInt32? { order.first }

    /// The stack as notification `id` shows it: the summary for the top one, else nil.
    public func summary(for id: UInt32) -> Summary? { id == top ? summary : nil }

    /// The activity's relevance: critical 100, normal -0.5, low -100.5, plus a fraction that
    /// grows with the id (below 0.43 for every id), so within an urgency the newest sorts first
    /// (the broker's own tie-break, the first started, would keep the oldest in the pill).
    /// Critical stays at 100 or more (what the renderer lets peek over a fullscreen window,
    /// `RendererConfig.criticalRelevance`); normal stays below 0, the default, so a notification
    /// does not take the pill from another module's activity at the default (a playing song, a
    /// timer), as before, when those had started first.
    public static func relevance(_ urgency: Urgency, id: UInt32) -> Double {
        let base: Double = switch urgency {
        case .critical: 100
        case .normal: -0.5
        case .low: -100.5
        }
        return base + Double(id) * 1e-10
    }
}

/// The number of live notifications, a small light capsule beside a summary.
struct StackBadge: NookView {
    var count: Int
    var size: Double

    var body: some NookView {
        ZStack {
            Capsule().fill("#FFFFFF33")
            Text("\(count)").font(size: size, weight: .bold).monospacedDigit()
        }
        // A fixed box: a shape takes all it is offered.
        .frame(width: size * 0.65 * Double(String(count).count) + 10, height: size + 5)
    }
}

/// The other live notifications, under the top one's own content in its expanded view.
struct StackList: NookView {
    var summary: NotificationStack.Summary

    var body: some NookView {
        VStack(alignment: .leading, spacing: 4) {
            Text("\(summary.count - 1) more").font(size: 11, weight: .semibold).opacity(0.6)
            ForEach(Array(summary.rows.enumerated()), id: \.offset) { _, row in
                HStack(spacing: 6) {
                    if !row.appName.isEmpty { Text(row.appName).font(size: 12).opacity(0.6) }
                    Text(row.summary).font(size: 12)
                    if row.count > 1 { Text("×\(row.count)").font(size: 11, weight: .semibold).opacity(0.6) }
                }
            }
            if summary.moreApps > 0 {
                Text("and \(summary.moreNotifications) from \(summary.moreApps) more \(summary.moreApps == 1 ? "app" : "apps")").font(size: 11).opacity(0.6)
            }
        }
    }
}
