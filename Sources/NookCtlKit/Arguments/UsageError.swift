/// A command line nookctl cannot run: exit status 2, the message, then the verb's usage.
public struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    /// The table name of the verb whose help applies (`open`, `theme set`), or nil for the overview.
    public var verb: String?

    public init(_ message: String, verb: String? = nil) {
        self.message = message
        self.verb = verb
    }

    public var description: String { message }
}
