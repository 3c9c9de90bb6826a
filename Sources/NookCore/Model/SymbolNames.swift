/// The SF-Symbols-style icon names Nook resolves on Linux, each to a freedesktop icon-theme
/// name that draws what the name says (Adwaita has all of them), or, where no freedesktop icon
/// does (a cup, a hammer, a stopwatch, an arrow in a circle), to one of nook-renderer's own
/// drawn symbols (`builtIn`, named `nook-*-symbolic`). The one table: renderers draw from it
/// and the broker checks `image` nodes against it at publish time (`unknown-symbol`).
///
/// A name without a dot is taken as a freedesktop icon name as it is
/// (`media-playback-start-symbolic`); a dotted name must be in the table.
public enum SymbolNames {
    public static let freedesktop: [String: String] = [
        "music.note": "audio-x-generic-symbolic",
        "timer": "nook-timer-symbolic",
        "alarm": "alarm-symbolic",
        "cup": "nook-cup-symbolic",
        "play.fill": "media-playback-start-symbolic",
        "pause.fill": "media-playback-pause-symbolic",
        "stop.fill": "media-playback-stop-symbolic",
        "forward.fill": "media-skip-forward-symbolic",
        "backward.fill": "media-skip-backward-symbolic",
        "speaker.wave.2.fill": "audio-volume-high-symbolic",
        "speaker.slash.fill": "audio-volume-muted-symbolic",
        "mic.fill": "audio-input-microphone-symbolic",
        "video.fill": "camera-web-symbolic",
        "rectangle.on.rectangle": "screen-shared-symbolic",
        "phone.fill": "call-start-symbolic",
        "bell.fill": "preferences-system-notifications-symbolic",
        "bell.slash.fill": "notifications-disabled-symbolic",
        "checkmark": "object-select-symbolic",
        "xmark": "window-close-symbolic",
        "exclamationmark.triangle.fill": "dialog-warning-symbolic",
        "info.circle": "help-about-symbolic",
        "battery.100": "battery-full-symbolic",
        "wifi": "network-wireless-symbolic",
        "calendar": "x-office-calendar-symbolic",
        "clock": "preferences-system-time-symbolic",
        "arrow.down.circle": "nook-arrow-down-circle-symbolic",
        "hammer.fill": "nook-hammer-symbolic",
    ]

    /// The symbols nook-renderer draws itself (no freedesktop icon theme has them): a
    /// stopwatch, a cup with a handle, a hammer, an arrow pointing down in a circle.
    public static let builtIn: Set<String> = [
        "nook-timer-symbolic", "nook-cup-symbolic", "nook-hammer-symbolic", "nook-arrow-down-circle-symbolic",
    ]

    /// The icon-theme name to load for `name`; nil for a dotted name the table lacks.
    public static func iconName(for name: String) -> String? {
        if let mapped = freedesktop[name] { return mapped }
        return name.contains(".") ? nil : name
    }
}

extension DiagnosticCode {
    /// An `image` node's `symbol` is a dotted (SF-Symbols-style) name Nook does not map.
    public static let unknownSymbol: DiagnosticCode = "unknown-symbol"
}
