/// A contract record that cannot be read: names the key's path from the record's top
/// (`chrome.to_rect`, `scene.nodes.3.kind`) and says what was wrong, both types included
/// when the type was ("expected a rect (dddd), found s").
public struct WireFieldError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The offending key, as a dotted path (`elements.0.curve.type`).
    public var key: String
    public var message: String

    public init(key: String, message: String) {
        self.key = key
        self.message = message
    }

    public var description: String { "\(key): \(message)" }
}
