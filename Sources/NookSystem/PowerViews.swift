import NookModuleAPI

/// How a power event looks: the battery's icon (the shared `icon`) and its percentage beside
/// the notch, growing into the peek with what happened in words and a level bar; a low battery
/// in orange, a critical one in red.
public enum PowerViews {
    public static let activityID = "battery"

    public static func title(_ event: PowerEvent) -> String {
        switch event {
        case .pluggedIn: "Charging"
        case .unplugged: "On battery"
        case .low: "Battery low"
        case .critical: "Battery critical"
        }
    }

    /// The freedesktop icon for the event and level.
    public static func symbol(_ event: PowerEvent) -> String {
        let level = event.percentage
        let band = level < 10 ? "empty" : level < 30 ? "caution" : level < 60 ? "low" : level < 90 ? "good" : "full"
        if case .pluggedIn = event { return "battery-\(band)-charging-symbolic" }
        return "battery-\(band)-symbolic"
    }

    static func tint(_ event: PowerEvent) -> NookColor? {
        switch event {
        case .low: "#FF9F0A"
        case .critical: "#FF453A"
        case .pluggedIn, .unplugged: nil
        }
    }

    /// The event as a level display.
    public static func display(_ event: PowerEvent) -> LevelDisplay {
        // A warning ranks above the rest of the nook while it lasts; a plug event is news for a moment.
        let relevance: Double = switch event {
        case .critical: 900
        case .low: 800
        case .pluggedIn, .unplugged: 700
        }
        return LevelDisplay(id: activityID, symbol: symbol(event), title: title(event), level: event.percentage / 100, tint: tint(event), relevance: relevance)
    }

    public static func activity(_ event: PowerEvent) -> NookLiveActivity { display(event).activity }
}
