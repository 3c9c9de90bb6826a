import NookCore

/// What an activity built from flags shows: the values `activity start` and `update` take.
/// nookctl keeps the last one per activity (`ActivityRecordStore`), so an update that gives
/// only `--progress` keeps the title.
public struct ActivityContent: Hashable, Sendable, Codable {
    public var title: String
    public var subtitle: String?
    /// An icon name (`hammer.fill`, `network-wireless-symbolic`).
    public var symbol: String?
    /// An image file as a `file://` URI.
    public var imageURI: String?
    /// 0...1.
    public var progress: Double?
    /// The countdown, unix microseconds: from `timerStart` (for the minimal view's ring) to `timerEnd`.
    public var timerStart: Int64?
    public var timerEnd: Int64?
    /// True once the countdown ran out and `activity finish` made it say "Done".
    public var done: Bool?
    /// A countdown's colour (`#RRGGBB`, from `TimerColors`): its icon, countdown and ring.
    public var color: String?

    /// True when the countdown ran out and the views say "Done".
    public var isDone: Bool { done == true }

    public var hasTimer: Bool { timerEnd != nil }

    /// The accessibility label, which status bars show too: `Building, linking, 60%`.
    public var label: String {
        var parts = [title]
        if let subtitle, !subtitle.isEmpty { parts.append(subtitle) }
        if let progress { parts.append("\(Int(saturating: (progress * 100).rounded()))%") }
        if hasTimer { parts.append(isDone ? "done" : "counting down") }
        return parts.joined(separator: ", ")
    }
}

/// One flag's effect on an update: leave the value, set it, or (an empty value) clear it.
public enum FieldChange<Value: Hashable & Sendable>: Hashable, Sendable {
    case keep
    case set(Value)
    case clear

    func applied(to old: Value?) -> Value? {
        switch self {
        case .keep: old
        case .set(let value): value
        case .clear: nil
        }
    }

    var isKeep: Bool { self == .keep }
}

/// The content flags of one `activity start` or `update` command line.
public struct ContentChanges: Hashable, Sendable {
    public var title: FieldChange<String> = .keep
    public var subtitle: FieldChange<String> = .keep
    public var symbol: FieldChange<String> = .keep
    /// The file as given; it becomes a `file://` URI when the command runs.
    public var image: FieldChange<String> = .keep
    public var progress: FieldChange<Double> = .keep
    /// Seconds from when the command runs.
    public var timer: FieldChange<Double> = .keep

    public init() {}

    /// True when no content flag was given (only `--expires` or `--relevance`, say).
    public var isEmpty: Bool {
        title.isKeep && subtitle.isKeep && symbol.isKeep && image.isKeep && progress.isKeep && timer.isKeep
    }

    /// `base` (nil: nothing known) with these changes, at `now` (unix µs); nil when the result
    /// has no title. `imageURI` is the image file's URI, resolved by the caller.
    public func applied(to base: ActivityContent?, imageURI: String?, now: Int64) -> ActivityContent? {
        guard let title = title.applied(to: base?.title), !title.isEmpty else { return nil }
        var content = base ?? ActivityContent(title: title)
        content.title = title
        content.subtitle = subtitle.applied(to: content.subtitle)
        content.symbol = symbol.applied(to: content.symbol)
        switch image {
        case .keep: break
        case .set: content.imageURI = imageURI
        case .clear: content.imageURI = nil
        }
        content.progress = progress.applied(to: content.progress)
        switch timer {
        case .keep: break
        case .set(let seconds):
            content.timerStart = now
            content.timerEnd = now.saturatingAdd(Microseconds.of(seconds))
            content.done = nil
        case .clear:
            content.timerStart = nil
            content.timerEnd = nil
            content.done = nil
        }
        return content
    }
}

/// Colours that tell countdowns apart on the black chrome, in the order new ones take them
/// (the same as TimerModule's): a new countdown takes the first that no other countdown
/// nookctl remembers has.
public enum TimerColors {
    public static let palette = ["#FF9F0A", "#64D2FF", "#FF6482", "#30D158", "#BF5AF2", "#FFD60A", "#5E8BFF", "#AC8E68"]

    /// The first colour of the palette not in `used`; once all are used, they repeat in turn.
    public static func next(notIn used: [String]) -> String {
        palette.first { !used.contains($0) } ?? palette[used.count % palette.count]
    }
}

/// Seconds as microseconds, saturating (durations from `DurationArgument` are at most 10⁹ s anyway).
enum Microseconds {
    static func of(_ seconds: Double) -> Int64 { Int64(saturating: (seconds * 1_000_000).rounded()) }
}
