/// The D-Bus error names of the Nook contract (CONTRACT.md, "Errors"): the project's own
/// `org.nook.Nook1.Error.*` and the standard ones it uses where they fit.
public enum NookErrorName: String, Hashable, Sendable, CaseIterable {
    case invalidId = "org.nook.Nook1.Error.InvalidId"
    case notRegistered = "org.nook.Nook1.Error.NotRegistered"
    case moduleTaken = "org.nook.Nook1.Error.ModuleTaken"
    case unknownActivity = "org.nook.Nook1.Error.UnknownActivity"
    case activityExists = "org.nook.Nook1.Error.ActivityExists"
    case unknownModule = "org.nook.Nook1.Error.UnknownModule"
    case invalidView = "org.nook.Nook1.Error.InvalidView"
    case invalidTheme = "org.nook.Nook1.Error.InvalidTheme"
    /// An addition to contract v1: `StartActivity` of an id a person dismissed.
    case activityDismissed = "org.nook.Nook1.Error.ActivityDismissed"
    /// Contract 1.1 (Touch): `Activate`/`Invoke` name no node, or one that carries no action.
    case unknownTarget = "org.nook.Nook1.Error.UnknownTarget"
    case invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    case accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
    case limitsExceeded = "org.freedesktop.DBus.Error.LimitsExceeded"
    case unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
}

extension DBusError {
    /// The longest message a contract error carries. Messages quote client input at most
    /// `InputQuote.maxCharacters` at a time; this bounds whatever a message puts together.
    public static let maxMessageCharacters = 1000

    /// An error of the contract, by name; its message is cut to `maxMessageCharacters`.
    public init(nook name: NookErrorName, _ message: String) {
        self.init(name: name.rawValue, message: Self.bounded(message))
    }

    static func bounded(_ message: String) -> String {
        guard message.utf8.count > maxMessageCharacters else { return message }
        let scalars = message.unicodeScalars
        let end = scalars.index(scalars.startIndex, offsetBy: maxMessageCharacters, limitedBy: scalars.endIndex) ?? scalars.endIndex
        if end == scalars.endIndex { return message }
        return String(scalars[..<end]) + "… (\(message.utf8.count) bytes)"
    }
}
