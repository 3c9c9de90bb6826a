import NookCore

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

extension ObjectPath {
    /// `/org/nook/Nook1` (`NookNames.objectPath`).
    public static let nook = ObjectPath(stringLiteral: NookNames.objectPath)
}
