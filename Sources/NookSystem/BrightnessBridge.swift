import NookModuleAPI

/// The screen's brightness in the nook, as an on-screen display: whenever a backlight's level
/// changes (`BacklightWatch`), the nook peeks at its icon, "Brightness", a level bar and the
/// percentage, replaced in place while it keeps changing and gone `showFor` after the last
/// change (what swayosd and avizo show in a window of their own).
public actor BrightnessBridge {
    public static let activityID = "brightness"
    let showFor: Duration
    let log: @Sendable (String) -> Void
    private let display: ShownActivity
    private var watch: BacklightWatch?

    init(module: NookModule, showFor: Duration, log: @escaping @Sendable (String) -> Void) {
        self.display = ShownActivity(module: module, log: log)
        self.showFor = showFor
        self.log = log
    }

    /// Follows the backlights under `directory` for `module`; nil (said once in the log) when
    /// there is none.
    public static func start(directory: String = "/sys/class/backlight", module: NookModule, showFor: Duration = .milliseconds(1500),
                             log: @escaping @Sendable (String) -> Void) async -> BrightnessBridge? {
        let bridge = BrightnessBridge(module: module, showFor: showFor, log: log)
        guard let watch = BacklightWatch(directory: directory, onChange: { level in Task { await bridge.changed(level) } }) else {
            log("no backlight under \(directory)")
            return nil
        }
        await bridge.keep(watch)
        log("following the backlight of \(watch.devices.joined(separator: ", "))")
        return bridge
    }

    private func keep(_ watch: BacklightWatch) { self.watch = watch }

    public static func display(level: Double) -> LevelDisplay {
        // The latest display ranks above everything, as `nookctl osd` does.
        LevelDisplay(id: activityID, symbol: "display-brightness-symbolic", title: "Brightness", level: level, tint: nil, relevance: 1000)
    }

    func changed(_ level: BacklightWatch.Level) async {
        await display.show(Self.display(level: level.level).activity, peekFor: showFor, endAfter: showFor)
    }

    public func stop() {
        watch?.stop()
        watch = nil
    }
}
