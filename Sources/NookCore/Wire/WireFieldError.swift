/// A contract record that cannot be read: names the key's path from the record's top
/// (`chrome.to_rect`, `scene.nodes.3.kind`) and says what was wrong, both types included
/// when the type was ("expected type (dddd), found s").
public struct WireFieldError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of wrong, so each caller can map it to its own error code.
    public enum Kind: Hashable, Sendable {
        case wrongType, missing, tooLong, invalidValue
    }

    /// The offending key, as a dotted path (`elements.0.curve.type`).
    public var key: String
    public var message: String
    public var kind: Kind
    /// What the record is, for callers whose messages start with it (`StartActivity "x" spec`).
    public var context: String

    public init(key: String, message: String, kind: Kind = .invalidValue, context: String = "") {
        self.key = key
        self.message = message
        self.kind = kind
        self.context = context
    }

    public var description: String { "\(key): \(message)" }
}

/// An error a `FieldReader` can throw: each domain (plans, views, registry calls) keeps its own
/// error type and wording around the reader's one message.
public protocol FieldReadFailure: Error {
    init(field: WireFieldError)
}

extension WireFieldError: FieldReadFailure {
    public init(field: WireFieldError) { self = field }
}
