import NookModuleAPI

/// The sound's volume in the nook, as an on-screen display: whenever the default output's
/// volume or mute changes (`PulseWatch`), from any source, the nook peeks at its icon,
/// "Volume" (or "Muted"), a level bar and the percentage, replaced in place while it keeps
/// changing and gone `showFor` after the last change.
public actor VolumeBridge {
    public static let activityID = "volume"
    let showFor: Duration
    private let display: ShownActivity

    public init(module: NookModule, showFor: Duration = .milliseconds(1500), log: @escaping @Sendable (String) -> Void) {
        display = ShownActivity(module: module, log: log)
        self.showFor = showFor
    }

    /// The display for a reading: the icon by level (or muted), the title, the level.
    public static func display(_ reading: PulseVolume) -> LevelDisplay {
        let symbol =
            if reading.muted || reading.level == 0 { "audio-volume-muted-symbolic" }
            else if reading.level < 0.34 { "audio-volume-low-symbolic" }
            else if reading.level < 0.67 { "audio-volume-medium-symbolic" }
            else { "audio-volume-high-symbolic" }
        // The latest display ranks above everything, as `nookctl osd` does.
        return LevelDisplay(id: activityID, symbol: symbol, title: reading.muted ? "Muted" : "Volume", level: reading.level,
                            tint: reading.muted ? .gray : nil, relevance: 1000)
    }

    func changed(_ reading: PulseVolume) async {
        await display.show(Self.display(reading).activity, peekFor: showFor, endAfter: showFor)
    }
}
