import NookCore

/// A named, typed argument, as it appears in introspection.
public struct DBusArgument: Hashable, Sendable {
    public let name: String
    public let signature: Signature
    public init(_ name: String, _ signature: Signature) {
        self.name = name
        self.signature = signature
    }
}

/// An incoming method call, decoded.
public struct MethodCall: Sendable {
    /// The caller's unique name.
    public let sender: String
    public let path: ObjectPath
    public let interface: String
    public let member: String
    public let arguments: [DBusValue]
    /// The arguments the method reads straight into props (`DBusMethod.propsArguments`), by
    /// index, when they were in the plain forms `PropReader` reads; such an argument's place
    /// in `arguments` holds an empty `a{sv}`. An index missing here was read the general way:
    /// decode `arguments[index]` (`WireCodec.dictionary`), which also names what is wrong.
    public var props: [Int: [String: PropValue]] = [:]
    /// The views of such an argument read straight into validated `ReadView`s
    /// (`DBusMethod.viewsInProps`), by index and key; a key here is not in `props`. A view
    /// that needs the validator's words (an error or a diagnostic) is in `props` as a node.
    public var views: [Int: [String: ReadView]] = [:]
    /// The view arguments (`(sa{sv}av)`) read straight into validated views
    /// (`DBusMethod.viewArguments`), by index, when they passed the one-pass checks; such an
    /// argument's place in `arguments` holds an empty node. An index missing here was read the
    /// general way: decode `arguments[index]`, and the validator names what is wrong.
    public var viewArguments: [Int: ReadView] = [:]
    /// The lengths of the byte arrays skipped unread, in reading order: each was longer than
    /// the method's `maxByteArrayCount` and reads as an empty array in `arguments`.
    public var skippedByteArrays: [Int] = []
    /// False when the caller asked for no reply (`NO_REPLY_EXPECTED`): none is sent.
    public var expectsReply = true

    /// Decodes argument `index`, or throws `InvalidArgs` naming it.
    public func argument<T: DBusConvertible>(_ index: Int, as type: T.Type = T.self) throws -> T {
        guard arguments.indices.contains(index) else {
            throw DBusError(.invalidArgs, "\(member): missing argument \(index)")
        }
        do { return try T(dbusValue: arguments[index]) } catch {
            throw DBusError(.invalidArgs, "\(member): argument \(index): expected '\(T.dbusSignature)', found '\(arguments[index].signature)'")
        }
    }
}

/// One exported method: its signature and its handler.
///
/// The handler's input is checked against `inputs` before it runs (a mismatch replies
/// `InvalidArgs` naming both signatures) and its output against `outputs`.
public struct DBusMethod: Sendable {
    public enum Handler: Sendable {
        /// Runs on the connection's thread and replies at once: the fast path.
        case immediate(@Sendable (MethodCall) throws -> [DBusValue])
        /// Runs in a task; the reply is sent when it returns.
        case deferred(@Sendable (MethodCall) async throws -> [DBusValue])
        /// Runs on the connection's thread and replies at once, then runs the work it returned,
        /// still there and before any other message: work the caller need not wait for.
        case replyFirst(@Sendable (MethodCall) throws -> (reply: [DBusValue], afterReply: () -> Void))
    }

    public let name: String
    public let inputs: [DBusArgument]
    public let outputs: [DBusArgument]
    /// The signatures, joined once here rather than on every call the method dispatches.
    let inputSignature: String
    let outputSignature: String
    public let handler: Handler
    /// The longest byte array (`ay`) read into `MethodCall.arguments`; a longer one is skipped
    /// unread (see `MethodCall.skippedByteArrays`), so its cost is the message's bytes alone.
    public var maxByteArrayCount: Int = .max
    /// The `a{sv}` arguments to read straight into props (`MethodCall.props`), by index.
    public var propsArguments: Set<Int> = []
    /// Of those, the ones whose view keys are read straight into `MethodCall.views`.
    public var viewsInProps: [Int: ViewReading] = [:]
    /// The view arguments (`(sa{sv}av)`) to read straight into `MethodCall.viewArguments`, by
    /// index, with the limits they are read under.
    public var viewArguments: [Int: ViewLimits] = [:]

    public init(
        _ name: String, in inputs: [DBusArgument] = [], out outputs: [DBusArgument] = [],
        _ handler: @escaping @Sendable (MethodCall) throws -> [DBusValue]
    ) {
        self.init(name, inputs, outputs, .immediate(handler))
    }

    public init(
        _ name: String, in inputs: [DBusArgument] = [], out outputs: [DBusArgument] = [],
        deferred handler: @escaping @Sendable (MethodCall) async throws -> [DBusValue]
    ) {
        self.init(name, inputs, outputs, .deferred(handler))
    }

    private init(_ name: String, _ inputs: [DBusArgument], _ outputs: [DBusArgument], _ handler: Handler) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        inputSignature = inputs.map(\.signature.rawValue).joined()
        outputSignature = outputs.map(\.signature.rawValue).joined()
        self.handler = handler
    }

    /// A method that replies at once and then does the work `handler` returned with the reply
    /// (a named constructor: as an `init`, a plain trailing closure would be ambiguous).
    public static func replyingFirst(
        _ name: String, in inputs: [DBusArgument] = [], out outputs: [DBusArgument] = [],
        _ handler: @escaping @Sendable (MethodCall) throws -> (reply: [DBusValue], afterReply: () -> Void)
    ) -> DBusMethod {
        DBusMethod(name, inputs, outputs, .replyFirst(handler))
    }

    /// The same method, reading argument `index` (an `a{sv}`) straight into props.
    public func readingProps(at index: Int) -> DBusMethod {
        var method = self
        method.propsArguments.insert(index)
        return method
    }

    /// The same method, reading argument `index` straight into props and the views of its
    /// `views.keys` straight into validated views (`MethodCall.views`).
    public func readingProps(at index: Int, views: ViewReading) -> DBusMethod {
        var method = readingProps(at: index)
        method.viewsInProps[index] = views
        return method
    }

    /// The same method, reading argument `index` (a view, `(sa{sv}av)`) straight into a
    /// validated view (`MethodCall.viewArguments`) when it passes the one-pass checks.
    public func readingView(at index: Int, limits: ViewLimits) -> DBusMethod {
        var method = self
        method.viewArguments[index] = limits
        return method
    }

}

/// A signal an interface declares (for introspection; emit with `emitSignal`).
public struct DBusSignal: Hashable, Sendable {
    public let name: String
    public let arguments: [DBusArgument]
    public init(_ name: String, _ arguments: [DBusArgument] = []) {
        self.name = name
        self.arguments = arguments
    }
}

/// A property: read through `get`, written through `set` when present.
public struct DBusProperty: Sendable {
    public let name: String
    public let signature: Signature
    public let get: @Sendable () -> DBusValue
    public let set: (@Sendable (DBusValue) throws -> Void)?
    /// Whether the property's changes are announced with `PropertiesChanged` (introspection
    /// says so).
    public let emitsChanged: Bool
    /// Whether a successful `Set` emits `PropertiesChanged` with the new value at once; false
    /// when the owner emits it itself (after coalescing changes, say).
    public let emitsOnSet: Bool

    public init(
        _ name: String, _ signature: Signature, emitsChanged: Bool = true, emitsOnSet: Bool = true,
        get: @escaping @Sendable () -> DBusValue, set: (@Sendable (DBusValue) throws -> Void)? = nil
    ) {
        self.name = name
        self.signature = signature
        self.get = get
        self.set = set
        self.emitsChanged = emitsChanged
        self.emitsOnSet = emitsOnSet
    }

    public var isWritable: Bool { self.set != nil }
}

/// An interface to export: its methods, signals and properties.
public struct DBusInterface: Sendable {
    public let name: String
    public let methods: [DBusMethod]
    public let signals: [DBusSignal]
    public let properties: [DBusProperty]

    public init(_ name: String, methods: [DBusMethod] = [], signals: [DBusSignal] = [], properties: [DBusProperty] = []) {
        precondition(BusNames.isValidInterfaceName(name), "invalid interface name '\(name)'")
        self.name = name
        self.methods = methods
        self.signals = signals
        self.properties = properties
    }

    func method(named member: String) -> DBusMethod? { methods.first { $0.name == member } }
    func property(named member: String) -> DBusProperty? { properties.first { $0.name == member } }
}
