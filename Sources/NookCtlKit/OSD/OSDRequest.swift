import NookCore

/// `nookctl osd volume|brightness|caps-lock [VALUE]` as parsed: what a key binding shows when
/// the volume, the brightness or Caps Lock changes (what swayosd-client and avizo-client do).
public struct OSDRequest: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case volume
        case brightness
        case capsLock = "caps-lock"

        /// What the peek says.
        var title: String {
            switch self {
            case .volume: "Volume"
            case .brightness: "Brightness"
            case .capsLock: "Caps Lock"
            }
        }
    }

    /// A level (volume, brightness), or a state (muted; Caps Lock on or off).
    public enum Value: Hashable, Sendable {
        /// 0 to 1.
        case level(Double)
        case muted
        case on(Bool)
    }

    public var kind: Kind
    public var value: Value

    /// The module every on-screen display is an activity of (`osd/volume`, ...).
    public static let module = "osd"
    /// How long the display stays after its last change: it ends by itself, as an OSD does.
    public static let seconds = 1.5
    /// Above every other activity while it shows, the latest display above the others (so
    /// it is the one in the pill and peeking, not in a capsule): 1000 and the fraction of
    /// the day at `now` (unix µs).
    static func relevance(now: Int64) -> Double {
        let day: Int64 = 86_400_000_000
        return 1000 + Double(((now % day) + day) % day) / Double(day)
    }

    /// `VALUE` for `kind`: a level `0` to `100` (or `40%`) for volume and brightness, `mute`
    /// for volume, `on` or `off` for Caps Lock.
    static func parse(kind text: String, value: String?, verb: String) throws(UsageError) -> OSDRequest {
        guard let kind = Kind(rawValue: text) else {
            throw UsageError("expected volume, brightness or caps-lock, found '\(text.prefix(40))'", verb: verb)
        }
        guard let value else { throw UsageError("\(kind.rawValue) needs a value (\(kind == .capsLock ? "on or off" : "0 to 100"))", verb: verb) }
        switch kind {
        case .capsLock:
            switch value {
            case "on": return OSDRequest(kind: kind, value: .on(true))
            case "off": return OSDRequest(kind: kind, value: .on(false))
            default: throw UsageError("caps-lock: expected on or off, found '\(value.prefix(40))'", verb: verb)
            }
        case .volume, .brightness:
            if kind == .volume, value == "mute" || value == "muted" { return OSDRequest(kind: kind, value: .muted) }
            let digits = value.hasSuffix("%") ? String(value.dropLast()) : value
            guard let number = Double(digits), number.isFinite, (0...100).contains(number) else {
                throw UsageError("\(kind.rawValue): expected a level from 0 to 100\(kind == .volume ? " or mute" : ""), found '\(value.prefix(40))'", verb: verb)
            }
            return OSDRequest(kind: kind, value: .level(number / 100))
        }
    }

    /// The accessible label: `Volume 40%`, `Volume muted`, `Caps Lock on`.
    var label: String {
        switch value {
        case .level(let level): "\(kind.title) \(Int((level * 100).rounded()))%"
        case .muted: "\(kind.title) muted"
        case .on(let on): "\(kind.title) \(on ? "on" : "off")"
        }
    }

    /// The freedesktop icon name for the kind and value.
    var symbol: String {
        switch (kind, value) {
        case (.volume, .muted): "audio-volume-muted-symbolic"
        case (.volume, .level(let level)):
            level == 0 ? "audio-volume-muted-symbolic" : level < 0.34 ? "audio-volume-low-symbolic"
                : level < 0.67 ? "audio-volume-medium-symbolic" : "audio-volume-high-symbolic"
        case (.brightness, _): "display-brightness-symbolic"
        case (.capsLock, _): "input-keyboard-symbolic"
        default: "info.circle"
        }
    }
}
