import NookModuleAPI

/// A level in the nook, the way the system bridges show one (a battery, a backlight): the
/// icon (the shared `icon`) and the value beside the notch, growing into the peek with a title
/// and a level bar; a tint for a warning.
public struct LevelDisplay: Hashable, Sendable {
    public var id: String
    public var symbol: String
    public var title: String
    /// 0...1.
    public var level: Double
    public var tint: NookColor?
    public var relevance: Double
    /// Whether opening the nook onto it shows the same view (apps' progress); a passing level
    /// (power, brightness) only peeks.
    public var opens = false
    /// Whether the pill shows the level as a ring (apps' progress, as on a phone) rather than
    /// its percentage (a passing level); the percentage stays in the label and the peek.
    public var ring = false
    /// Whether the expanded view offers "Cancel" (action id `cancel`: the bridge dispatches it
    /// from the module's action events), for a job its app lets a person stop.
    public var cancellable = false

    public init(id: String, symbol: String, title: String, level: Double, tint: NookColor?, relevance: Double,
                opens: Bool = false, ring: Bool = false, cancellable: Bool = false) {
        self.id = id
        self.symbol = symbol
        self.title = title
        self.level = level
        self.tint = tint
        self.relevance = relevance
        self.opens = opens
        self.ring = ring
        self.cancellable = cancellable
    }

    public static let cancelAction = "cancel"

    public var valueText: String { "\(Int((min(max(level, 0), 1) * 100).rounded()))%" }

    public var activity: NookLiveActivity {
        let tint = self.tint, symbol = self.symbol, title = self.title, level = self.level, value = valueText, ring = self.ring
        func tinted(_ text: Text) -> Text { tint.map { text.foregroundStyle($0) } ?? text }
        var activity = NookLiveActivity(id: id, accessibilityLabel: "\(title), \(value)", relevance: relevance) {
            Image(systemName: symbol).frame(width: 16, height: 16).nookSharedElement("icon")
        } compactTrailing: {
            if ring {
                ProgressView(value: level).progressViewStyle(.circular).frame(width: 16, height: 16)
            } else {
                tinted(Text(value).font(size: 12, weight: .semibold).monospacedDigit())
            }
        } minimal: {
            Image(systemName: symbol).frame(width: 16, height: 16)
        }
        let detail = HStack(spacing: 12) {
                Image(systemName: symbol).frame(width: 28, height: 28).nookSharedElement("icon")
                VStack(alignment: .leading, spacing: 6) {
                    tinted(Text(title).font(size: 13, weight: .semibold))
                    ProgressView(value: level).frame(width: 160, height: 4)
                }
                tinted(Text(value).font(size: 13).monospacedDigit())
            }
        activity.setPeek { detail }
        if opens && cancellable {
            activity.setExpanded {
                VStack(alignment: .leading, spacing: 8) {
                    detail
                    Button("Cancel") {}.actionID(LevelDisplay.cancelAction)
                }
            }
        } else if opens {
            activity.setExpanded { detail }
        }
        return activity
    }
}

/// One activity a bridge shows now and then: started, or updated in place while it shows,
/// peeked at, and ended `after` the last showing unless shown again meanwhile (nil: it stays).
actor ShownActivity {
    let module: NookModule
    let log: @Sendable (String) -> Void
    /// Each activity's latest showing (by id): an end waits for the last one of its own.
    private var shown: [String: Int] = [:]

    init(module: NookModule, log: @escaping @Sendable (String) -> Void) {
        self.module = module
        self.log = log
    }

    func show(_ activity: NookLiveActivity, peekFor: Duration, endAfter: Duration?) async {
        let number = shown[activity.id, default: 0] &+ 1
        shown[activity.id] = number
        do {
            if await module.activities.contains(where: { $0.id == activity.id }) {
                try await module.update(activity)
            } else {
                try await module.start(activity)
            }
            try await module.alert(activityID: activity.id, NookAlert(sound: nil, peekDuration: peekFor), playsSound: false)
        } catch {
            log("cannot show \(activity.accessibilityLabel): \(error)")
            return
        }
        guard let endAfter else { return }
        Task {
            try? await Task.sleep(for: endAfter)
            await self.end(activity.id, ifStill: number)
        }
    }

    private func end(_ id: String, ifStill number: Int) async {
        guard shown[id] == number else { return }
        shown[id] = nil
        _ = try? await module.end(activityID: id, dismissal: .immediate)
    }
}
