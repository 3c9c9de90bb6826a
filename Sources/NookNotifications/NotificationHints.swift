import NookBus

/// The spec's hints beyond urgency, progress and images, read and bounded
/// (docs/notifications.md, "Hints"). A hint of the wrong type or out of its bounds is ignored
/// and said in the request's `problems`.
public struct NotificationHints: Hashable, Sendable {
    public static let maxCategoryBytes = 64
    public static let maxDesktopEntryBytes = 255
    public static let maxSynchronousBytes = 256
    public static let maxSoundNameBytes = 128

    /// The names that replace a live notification of the same app in place: what volume and
    /// brightness scripts send (`x-canonical-private-synchronous`, and dunst's `x-dunst-stack-tag`).
    public static let synchronousNames = ["x-canonical-private-synchronous", "x-dunst-stack-tag"]

    /// `category` (`email.arrived`, `device`): printable ASCII.
    public var category: String?
    /// `desktop-entry`: the app's `.desktop` file name without the suffix (`org.gnome.Nautilus`).
    public var desktopEntry: String?
    /// `transient`: not kept in the history.
    public var transient = false
    /// `x-canonical-private-synchronous` (or `x-dunst-stack-tag`): replaces the live
    /// notification of the same app with the same value, in place.
    public var synchronous: String?
    /// `sound-file`: an absolute path (or `file://` URI).
    public var soundFile: String?
    /// `sound-name`: a freedesktop sound theme name (`message-new-instant`).
    public var soundName: String?
    /// `suppress-sound`: play no sound.
    public var suppressSound = false

    public init() {}

    init(_ hints: [String: DBusValue], problems: inout [String]) {
        func text(_ name: String, maxBytes: Int, allowed: (UInt8) -> Bool) -> String? {
            guard let value = hints[name] else { return nil }
            guard case .string(let string) = value else {
                problems.append("hint \(name): \(value.signature), not a string; ignored")
                return nil
            }
            guard !string.isEmpty, string.utf8.count <= maxBytes, string.utf8.allSatisfy(allowed) else {
                problems.append("hint \(name): empty, over \(maxBytes) bytes or with characters it may not hold; ignored")
                return nil
            }
            return string
        }
        category = text("category", maxBytes: Self.maxCategoryBytes) { $0 > 0x20 && $0 < 0x7F }
        desktopEntry = text("desktop-entry", maxBytes: Self.maxDesktopEntryBytes, allowed: Self.isEntryByte)
        transient = hints["transient"].flatMap(\.boolean) ?? false
        for name in Self.synchronousNames where synchronous == nil {
            synchronous = text(name, maxBytes: Self.maxSynchronousBytes) { $0 >= 0x20 }
        }
        soundFile = text("sound-file", maxBytes: NotificationRequest.maxPathBytes) { $0 >= 0x20 }
        soundName = text("sound-name", maxBytes: Self.maxSoundNameBytes, allowed: Self.isEntryByte)
        suppressSound = hints["suppress-sound"].flatMap(\.boolean) ?? false
    }

    /// Letters, digits, `.`, `-` and `_`: a desktop entry's or a sound's name (never a path).
    static func isEntryByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }

    /// The synchronous hint's value in `Notify`'s hints, read before the reply (it decides
    /// the id): a look at the keys only, nothing else is read.
    static func synchronousValue(in hints: DBusValue) -> String? {
        guard case .dictionary(_, _, let entries) = hints else { return nil }
        for entry in entries {
            guard case .string(let key) = entry.key, synchronousNames.contains(key),
                  case .string(let value) = entry.value.unwrappingVariants,
                  !value.isEmpty, value.utf8.count <= maxSynchronousBytes else { continue }
            return value
        }
        return nil
    }
}
