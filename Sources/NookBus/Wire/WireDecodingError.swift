import NookCore

/// A D-Bus value that cannot become what the contract expects here: names the key path.
///
/// Paths use the project's format (`NodePath`): a node's children append `/<index>`, props and
/// nested keys append `.<key>`, so a bad value deep inside a view reads
/// `compact_leading/0.params.colors.2`.
public struct WireDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the value sat, e.g. `spec.relevance` or `expanded/1.shared`.
    public var path: String
    /// What was wrong, in a sentence.
    public var message: String

    /// The path is client input (keys are any string): quoted at most `InputQuote.maxCharacters`.
    public var description: String { "\(InputQuote.text(path)): \(message)" }
}
