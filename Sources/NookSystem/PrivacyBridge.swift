import NookModuleAPI

/// The microphone in use, as a phone shows it: while any app records from a microphone (a
/// source that is not a sink's monitor, `PulseWatch`), an orange mark stays in the nook, the
/// nook peeks when recording starts or another app starts, and opened onto, it names the apps.
/// It goes when the last one stops.
public actor PrivacyBridge {
    public static let activityID = "microphone"
    /// Orange, as on a phone.
    public static let tint: NookColor = .orange
    let module: NookModule
    let log: @Sendable (String) -> Void
    private var shown: [PulseCapture] = []
    private var live: NookLiveActivity?

    public init(module: NookModule, log: @escaping @Sendable (String) -> Void) {
        self.module = module
        self.log = log
    }

    /// The activity naming `apps` (at least one).
    public static func activity(_ apps: [PulseCapture]) -> NookLiveActivity {
        let names = Array(Set(apps.map(\.application))).sorted()
        let who = names.count == 1 ? names[0] : "\(names[0]) and \(names.count - 1) more"
        var activity = NookLiveActivity(id: activityID, accessibilityLabel: "Microphone in use by \(names.joined(separator: ", "))", relevance: 900) {
            Circle().fill(tint).frame(width: 8, height: 8).nookSharedElement("mark")
        } compactTrailing: {
            Image(systemName: "mic.fill").foregroundStyle(tint).frame(width: 14, height: 14)
        } minimal: {
            Circle().fill(tint).frame(width: 8, height: 8).nookSharedElement("mark")
        }
        let detail = HStack(spacing: 10) {
            Circle().fill(tint).frame(width: 10, height: 10).nookSharedElement("mark")
            Image(systemName: "mic.fill").foregroundStyle(tint).frame(width: 20, height: 20)
            VStack(alignment: .leading, spacing: 2) {
                Text("Microphone").font(size: 13, weight: .semibold)
                Text("In use by \(who)").font(size: 12)
            }
        }
        activity.setPeek { detail }
        activity.setExpanded {
            VStack(alignment: .leading, spacing: 6) {
                detail
                ForEach(names, id: \.self) { name in Text(name).font(size: 12) }
            }
        }
        return activity
    }

    func changed(_ apps: [PulseCapture]) async {
        defer { shown = apps }
        do {
            if apps.isEmpty {
                guard let live else { return }
                self.live = nil
                log("the microphone is free")
                _ = try await module.end(live, dismissal: .immediate)
                return
            }
            let activity = Self.activity(apps)
            let newApp = !Set(apps).isSubset(of: Set(shown))
            if live == nil {
                _ = try await module.start(activity)
            } else {
                _ = try await module.update(activity)
            }
            live = activity
            if newApp {
                log("the microphone is in use by \(apps.map(\.application).joined(separator: ", "))")
                try await module.alert(activityID: activity.id, NookAlert(sound: nil, peekDuration: .seconds(3)), playsSound: false)
            }
        } catch {
            log("cannot show the microphone in use: \(error)")
        }
    }
}
