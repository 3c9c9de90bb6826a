import NookModuleAPI

/// What an app is capturing, as a phone marks it: the microphone (orange), a camera (green)
/// or the screen (purple).
public enum PrivacyKind: String, Hashable, Sendable, CaseIterable {
    case microphone, camera, screen

    public var tint: NookColor {
        switch self {
        case .microphone: .orange
        case .camera: .green
        case .screen: .purple
        }
    }

    var symbol: String {
        switch self {
        case .microphone: "mic.fill"
        case .camera: "video.fill"
        case .screen: "rectangle.on.rectangle"
        }
    }

    public var title: String {
        switch self {
        case .microphone: "Microphone"
        case .camera: "Camera"
        case .screen: "Screen"
        }
    }

    /// Above the other system activities; a camera or the screen above the microphone.
    var relevance: Double {
        switch self {
        case .microphone: 900
        case .camera: 920
        case .screen: 910
        }
    }

    var verb: String { self == .screen ? "shared with" : "in use by" }
}

/// The microphone, a camera or the screen in use, one activity each (id: the kind's name). While
/// any app captures one (the microphone from the sound server, `PulseWatch`; a camera or the
/// screen from PipeWire, `PipeWireWatch`), a coloured mark stays in the nook, the nook peeks
/// naming the app when capture starts or another app starts, and opened onto, it names the
/// apps. The mark goes when the last one stops.
public actor PrivacyBridge {
    let module: NookModule
    let log: @Sendable (String) -> Void
    private var shown: [PrivacyKind: [String]] = [:]
    private var live: [PrivacyKind: NookLiveActivity] = [:]

    public init(module: NookModule, log: @escaping @Sendable (String) -> Void) {
        self.module = module
        self.log = log
    }

    /// The activity naming `apps` (at least one) capturing `kind`.
    public static func activity(_ kind: PrivacyKind, apps: [String]) -> NookLiveActivity {
        let names = Array(Set(apps)).sorted()
        let who = names.count == 1 ? names[0] : "\(names[0]) and \(names.count - 1) more"
        let tint = kind.tint
        var activity = NookLiveActivity(
            id: kind.rawValue, accessibilityLabel: "\(kind.title) \(kind.verb) \(names.joined(separator: ", "))", relevance: kind.relevance
        ) {
            Circle().fill(tint).frame(width: 8, height: 8).nookSharedElement("mark")
        } compactTrailing: {
            Image(systemName: kind.symbol).foregroundStyle(tint).frame(width: 14, height: 14)
        } minimal: {
            Circle().fill(tint).frame(width: 8, height: 8).nookSharedElement("mark")
        }
        let verb = kind.verb.prefix(1).uppercased() + kind.verb.dropFirst()
        let detail = HStack(spacing: 10) {
            Circle().fill(tint).frame(width: 10, height: 10).nookSharedElement("mark")
            Image(systemName: kind.symbol).foregroundStyle(tint).frame(width: 20, height: 20)
            VStack(alignment: .leading, spacing: 2) {
                Text(kind.title).font(size: 13, weight: .semibold)
                Text("\(verb) \(who)").font(size: 12)
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

    /// The apps recording from a microphone now (`PulseWatch`).
    func microphone(_ apps: [PulseCapture]) async {
        await changed(.microphone, apps: apps.map(\.application))
    }

    /// The apps capturing a camera or the screen now (`PipeWireWatch`).
    func video(_ captures: [VideoCapture]) async {
        await changed(.camera, apps: captures.filter { $0.kind == .camera }.map(\.application))
        await changed(.screen, apps: captures.filter { $0.kind == .screen }.map(\.application))
    }

    func changed(_ kind: PrivacyKind, apps: [String]) async {
        let apps = Array(Set(apps)).sorted()
        guard apps != shown[kind, default: []] else { return }
        let before = shown[kind, default: []]
        shown[kind] = apps
        let name = kind.title.lowercased()
        do {
            if apps.isEmpty {
                guard let activity = live.removeValue(forKey: kind) else { return }
                log(kind == .screen ? "the screen is no longer shared" : "the \(name) is free")
                _ = try await module.end(activity, dismissal: .immediate)
                return
            }
            let activity = Self.activity(kind, apps: apps)
            if live[kind] == nil {
                _ = try await module.start(activity)
            } else {
                _ = try await module.update(activity)
            }
            live[kind] = activity
            if !Set(apps).isSubset(of: Set(before)) {
                log("the \(name) is \(kind.verb) \(apps.joined(separator: ", "))")
                try await module.alert(activityID: activity.id, NookAlert(sound: nil, peekDuration: .seconds(3)), playsSound: false)
            }
        } catch {
            log("cannot show the \(name) \(kind.verb) apps: \(error)")
        }
    }
}
