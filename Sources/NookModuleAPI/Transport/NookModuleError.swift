import NookBus
import NookCore

/// A call the broker (or the SDK on its behalf) refused: the contract's error name and a
/// message naming the offending key, path or id.
///
/// ```swift
/// do {
///     try await module.start(song)
/// } catch let error as NookModuleError where error.code == .invalidView {
///     print(error.message)  // "compact_leading/0.shared.id: ..."
/// }
/// ```
public struct NookModuleError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The D-Bus error name, e.g. `org.nook.Nook1.Error.InvalidView`.
    public let name: String
    /// What went wrong, naming the key, path or id.
    public let message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// The contract's error, when `name` is one of them.
    public var code: Code? { Code(rawValue: name) }

    public var description: String { "\(name): \(message)" }

    /// The errors of the contract (CONTRACT.md, "Errors"), plus `disconnected`, which the SDK
    /// raises when it cannot reach a bus at all; declared once in NookCore.
    public typealias Code = NookErrorName

    init(_ code: Code, _ message: String) { self.init(name: code.rawValue, message: message) }

    init(_ error: DBusError) { self.init(name: error.name, message: error.message) }

    /// A view refused by the SDK's own check, named as the broker would name it.
    init(_ error: ViewValidationError, context: String) {
        self.init(name: WireCodec.errorName(for: error.code).rawValue, message: "\(context): \(error.description)")
    }
}
