import NookCore

/// A method of the contract with its signature, as data/org.nook.Nook1.xml declares it
/// (`NookContract` holds every one, generated). nookd exports it, the proxies call it.
public struct ContractMethod: Hashable, Sendable, CustomStringConvertible {
    public let interface: String
    public let name: String
    public let inputs: [DBusArgument]
    public let outputs: [DBusArgument]

    public init(_ interface: String, _ name: String, in inputs: [DBusArgument], out outputs: [DBusArgument]) {
        self.interface = interface
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
    }

    public var inputSignature: String { inputs.map(\.signature.rawValue).joined() }
    public var outputSignature: String { outputs.map(\.signature.rawValue).joined() }

    /// `org.nook.Nook1.Control.Open(a{sv}) -> t`.
    public var description: String {
        interface + "." + name + "(" + inputSignature + ")" + (outputs.isEmpty ? "" : " -> " + outputSignature)
    }

    /// Output `index` of `reply` as `T`, or `InvalidArgs` naming the method and what came.
    public func output<T: DBusConvertible>(_ index: Int, of reply: [DBusValue], as type: T.Type = T.self) throws -> T {
        guard reply.count == outputs.count else {
            throw DBusError(.invalidArgs, "\(name) replied (\(reply.map(\.signatureText).joined())); the contract says (\(outputSignature))")
        }
        let value = reply[index]
        // A value of no plain Swift type (a view) is handed over as it came, once its
        // signature is the declared one.
        if T.self == DBusValue.self, outputs[index].signature.rawValue != "v" {
            guard value.signatureText == outputs[index].signature.rawValue else {
                throw DBusError(.invalidArgs, "\(name) replied \(outputs[index].name) as '\(value.signatureText)'; the contract says '\(outputs[index].signature)'")
            }
            return value as! T
        }
        do { return try T(dbusValue: value) } catch {
            throw DBusError(.invalidArgs, "\(name) replied \(outputs[index].name) as '\(value.signatureText)'; the contract says '\(outputs[index].signature)'")
        }
    }
}

/// A signal of the contract with its arguments, sent from `path`.
public struct ContractSignal: Hashable, Sendable {
    public let interface: String
    public let name: String
    public let path: ObjectPath
    public let arguments: [DBusArgument]

    public init(_ interface: String, _ name: String, at path: ObjectPath, _ arguments: [DBusArgument]) {
        self.interface = interface
        self.name = name
        self.path = path
        self.arguments = arguments
    }

    /// What an interface declares for introspection.
    public var declaration: DBusSignal { DBusSignal(name, arguments) }

    /// The match rule for this signal from its object.
    public var matchRule: MatchRule { MatchRule(path: path, interface: interface, member: name) }
}

/// A property of the contract with its type.
public struct ContractProperty: Hashable, Sendable {
    public let interface: String
    public let name: String
    public let signature: Signature

    public init(_ interface: String, _ name: String, _ signature: Signature) {
        self.interface = interface
        self.name = name
        self.signature = signature
    }
}

extension DBusMethod {
    /// The contract's method `method`, answered by `handler` at once on the bus thread.
    public init(_ method: ContractMethod, _ handler: @escaping @Sendable (MethodCall) throws -> [DBusValue]) {
        self.init(method.name, in: method.inputs, out: method.outputs, handler)
    }

    /// The contract's method `method`, answered when `handler` returns.
    public init(_ method: ContractMethod, deferred handler: @escaping @Sendable (MethodCall) async throws -> [DBusValue]) {
        self.init(method.name, in: method.inputs, out: method.outputs, deferred: handler)
    }

    /// The contract's method `method`, replying at once and then doing the work `handler` returned.
    public static func replyingFirst(
        _ method: ContractMethod, _ handler: @escaping @Sendable (MethodCall) throws -> (reply: [DBusValue], afterReply: () -> Void)
    ) -> DBusMethod {
        replyingFirst(method.name, in: method.inputs, out: method.outputs, handler)
    }
}

extension DBusProperty {
    /// The contract's property `property`.
    public init(
        _ property: ContractProperty, emitsChanged: Bool = true, emitsOnSet: Bool = true,
        get: @escaping @Sendable () -> DBusValue, set: (@Sendable (DBusValue) throws -> Void)? = nil
    ) {
        self.init(property.name, property.signature, emitsChanged: emitsChanged, emitsOnSet: emitsOnSet, get: get, set: set)
    }
}

extension ContractMethod {
    /// `org.freedesktop.DBus.Properties.Set(ssv)`, how a contract property is written.
    public static let propertiesSet = ContractMethod(
        NookNames.propertiesInterface, "Set",
        in: [DBusArgument("interface_name", "s"), DBusArgument("property_name", "s"), DBusArgument("value", "v")], out: [])
}

extension BusConnection {
    /// Emits the contract's `signal` with `arguments` (in the declared order), from its object
    /// or `path`, to everyone listening or to `destination` alone (unicast).
    public func emit(_ signal: ContractSignal, _ arguments: [DBusValue], from path: ObjectPath? = nil, to destination: String? = nil) throws {
        try emitSignal(path: path ?? signal.path, interface: signal.interface, member: signal.name, arguments: arguments, destination: destination)
    }
}

extension ContractMethod {
    /// `Control.Open(a{sv}) -> t`: the interface by its last name, as help texts say it.
    public var brief: String {
        String(interface.split(separator: ".").last ?? "") + "." + name + "(" + inputSignature + ")" + (outputs.isEmpty ? "" : " -> " + outputSignature)
    }
}

extension ContractSignal {
    /// `signal Control.StateChanged(a{sv})`.
    public var brief: String {
        "signal " + String(interface.split(separator: ".").last ?? "") + "." + name + "(" + arguments.map(\.signature.rawValue).joined() + ")"
    }
}
