/// The SF-Symbols-style icon names Nook resolves on Linux, each to a freedesktop icon-theme
/// name (Adwaita has all of them). The one table: renderers draw from it and the broker checks
/// `image` nodes against it at publish time (`unknown-symbol`).
///
/// A name without a dot is taken as a freedesktop icon name as it is
/// (`media-playback-start-symbolic`); a dotted name must be in the table.
public enum SymbolNames {
    public static let freedesktop: [String: String] = [
        "music.note": "audio-x-generic-symbolic",
        "timer": "alarm-symbolic",
        "alarm": "alarm-symbolic",
        "cup": "emoji-food-symbolic",
        "play.fill": "media-playback-start-symbolic",
        "pause.fill": "media-playback-pause-symbolic",
        "stop.fill": "media-playback-stop-symbolic",
        "forward.fill": "media-skip-forward-symbolic",
        "backward.fill": "media-skip-backward-symbolic",
        "speaker.wave.2.fill": "audio-volume-high-symbolic",
        "speaker.slash.fill": "audio-volume-muted-symbolic",
        "mic.fill": "audio-input-microphone-symbolic",
        "phone.fill": "call-start-symbolic",
        "bell.fill": "preferences-system-notifications-symbolic",
        "checkmark": "object-select-symbolic",
        "xmark": "window-close-symbolic",
        "exclamationmark.triangle.fill": "dialog-warning-symbolic",
        "info.circle": "dialog-information-symbolic",
        "battery.100": "battery-full-symbolic",
        "wifi": "network-wireless-symbolic",
        "calendar": "x-office-calendar-symbolic",
        "clock": "preferences-system-time-symbolic",
        "arrow.down.circle": "folder-download-symbolic",
        "hammer.fill": "applications-engineering-symbolic",
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
