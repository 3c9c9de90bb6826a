import CSystemd
import NookCore

/// An exported object: dispatches the method calls sd-bus hands it for one path.
/// Lives on the bus thread only; sd-bus holds it as unretained userdata for its slot.
final class ExportRegistration {
    let path: ObjectPath
    let interfaces: [String: DBusInterface]
    let orderedInterfaces: [DBusInterface]
    weak var connection: BusConnection?
    var slot: OpaquePointer?

    init(path: ObjectPath, interfaces: [DBusInterface], connection: BusConnection) {
        self.path = path
        self.orderedInterfaces = interfaces
        self.interfaces = Dictionary(interfaces.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.connection = connection
    }

    func unregister() {
        if let slot { sd_bus_slot_unref(slot) }
        slot = nil
    }

    /// Returns 1 when the call was answered here, 0 to let sd-bus answer it (Peer, unknown).
    func handle(_ message: OpaquePointer) -> Int32 {
        var type: UInt8 = 0
        guard sd_bus_message_get_type(message, &type) >= 0, Int(type) == Int(SD_BUS_MESSAGE_METHOD_CALL) else { return 0 }
        let interface = sd_bus_message_get_interface(message).map { String(cString: $0) } ?? ""
        let member = sd_bus_message_get_member(message).map { String(cString: $0) } ?? ""
        let signature = sd_bus_message_get_signature(message, 1).map { String(cString: $0) } ?? ""
        switch interface {
        case "org.freedesktop.DBus.Peer":
            return 0  // sd-bus answers Ping and GetMachineId itself
        case "org.freedesktop.DBus.Introspectable":
            guard member == "Introspect", signature.isEmpty else { return replyUnknownMethod(message, interface, member, signature) }
            Self.reply(to: message, [.string(Introspection.xml(for: orderedInterfaces))])
        case "org.freedesktop.DBus.Properties":
            handleProperties(message, member: member, signature: signature)
        default:
            guard let target = interfaces[interface] ?? (interface.isEmpty ? firstInterface(with: member) : nil) else {
                Self.replyError(to: message, DBusError(.unknownInterface, "no interface '\(interface)' at \(path)"))
                return 1
            }
            guard let method = target.method(named: member) else { return replyUnknownMethod(message, interface, member, signature) }
            guard signature == method.inputSignature else {
                Self.replyError(to: message, DBusError(.invalidArgs,
                    "\(target.name).\(member) expects arguments of signature '\(method.inputSignature)', got '\(signature)'"))
                return 1
            }
            dispatch(method, of: target, message: message)
        }
        return 1
    }

    private func firstInterface(with member: String) -> DBusInterface? {
        orderedInterfaces.first { $0.method(named: member) != nil }
    }

    private func replyUnknownMethod(_ message: OpaquePointer, _ interface: String, _ member: String, _ signature: String) -> Int32 {
        Self.replyError(to: message, DBusError(.unknownMethod, "no method '\(member)' with signature '\(signature)' in interface '\(interface)' at \(path)"))
        return 1
    }

    private func dispatch(_ method: DBusMethod, of interface: DBusInterface, message: OpaquePointer) {
        var call: MethodCall
        do {
            let sender = sd_bus_message_get_sender(message).map { String(cString: $0) } ?? ""
            if let read = Self.readStraight(message, method) {
                call = MethodCall(sender: sender, path: path, interface: interface.name, member: method.name, arguments: read.arguments)
                call.props = read.props
                call.views = read.views
                call.viewArguments = read.viewArguments
            } else {
                var budget = ByteArrayBudget(maxCount: method.maxByteArrayCount)
                call = MethodCall(
                    sender: sender, path: path, interface: interface.name, member: method.name,
                    arguments: try DBusValue.readAll(from: message, budget: &budget))
                call.skippedByteArrays = budget.skippedCounts
            }
        } catch {
            Self.replyError(to: message, DBusError(.invalidArgs, "\(method.name): unreadable arguments: \(error)"))
            return
        }
        call.expectsReply = sd_bus_message_get_expect_reply(message) > 0
        switch method.handler {
        case .immediate(let handler):
            Self.complete(message, method: method, result: Result { try handler(call) })
        case .replyFirst(let handler):
            var afterReply: (() -> Void)?
            let result = Result { () throws -> [DBusValue] in
                let (reply, after) = try handler(call)
                afterReply = after
                return reply
            }
            Self.complete(message, method: method, result: result)
            afterReply?()
        case .deferred(let handler):
            let pending = RetainedMessage(message)
            Task { [weak connection] in
                let result: Result<[DBusValue], any Error>
                do { result = .success(try await handler(call)) } catch { result = .failure(error) }
                // Without the connection its thread is gone too, and the message with it.
                await connection?.completeDeferred(pending, method: method, result: result)
            }
        }
    }

    /// What `readStraight` read: the arguments, with an empty placeholder where a record or a
    /// view was read straight into `props`, `views` and `viewArguments`.
    private struct StraightReading {
        var arguments: [DBusValue] = []
        var props: [Int: [String: PropValue]] = [:]
        var views: [Int: [String: ReadView]] = [:]
        var viewArguments: [Int: ReadView] = [:]
    }

    /// Reads a call's arguments with its `propsArguments` straight into props (and the views
    /// `viewsInProps` names in them), and its `viewArguments` straight into validated views.
    /// Nil when it has none of those, or one is not in the forms `PropReader` reads (or a view
    /// does not pass the one-pass checks): the message is then rewound, to be read the general way.
    private static func readStraight(_ message: OpaquePointer, _ method: DBusMethod) -> StraightReading? {
        guard !method.propsArguments.isEmpty || !method.viewArguments.isEmpty else { return nil }
        var read = StraightReading()
        var budget = ByteArrayBudget(maxCount: 0)
        while true {
            let index = read.arguments.count
            if method.propsArguments.contains(index) {
                if let reading = method.viewsInProps[index] {
                    guard let (record, views) = PropReader.record(from: message, views: reading) else { break }
                    read.props[index] = record
                    if !views.isEmpty { read.views[index] = views }
                } else {
                    guard let record = PropReader.record(from: message) else { break }
                    read.props[index] = record
                }
                read.arguments.append(.dictionary(key: "s", value: "v", []))
            } else if let limits = method.viewArguments[index] {
                guard let view = PropReader.view(from: message, limits: limits) else { break }
                read.viewArguments[index] = view
                read.arguments.append(.structure([.string(""), .dictionary(key: "s", value: "v", []), .array(element: "v", [])]))
            } else {
                // Only byte arrays would read differently under the method's own budget; with
                // none allowed, any is noticed here.
                let value: DBusValue?
                do { value = try DBusValue.read(from: message, budget: &budget) } catch { break }
                guard budget.skippedCounts.isEmpty else { break }
                guard let value else { return read }
                read.arguments.append(value)
            }
        }
        // Read again from the start: descriptors read so far would be duplicated twice.
        for argument in read.arguments { argument.closeUnixFDs() }
        sd_bus_message_rewind(message, 1)
        return nil
    }

    static func complete(_ message: OpaquePointer, method: DBusMethod, result: Result<[DBusValue], any Error>) {
        switch result {
        case .success(let values):
            let produced = values.map(\.signatureText).joined()
            guard produced == method.outputSignature else {
                replyError(to: message, DBusError(.failed, "\(method.name) produced '\(produced)' instead of '\(method.outputSignature)'"))
                return
            }
            reply(to: message, values)
        case .failure(let error):
            replyError(to: message, DBusError(mapping: error))
        }
    }

    // MARK: org.freedesktop.DBus.Properties

    private func handleProperties(_ message: OpaquePointer, member: String, signature: String) {
        let arguments: [DBusValue]
        do { arguments = try DBusValue.readAll(from: message) } catch {
            Self.replyError(to: message, DBusError(.invalidArgs, "unreadable arguments: \(error)"))
            return
        }
        func lookup(_ name: DBusValue) -> DBusInterface? {
            guard case .string(let name) = name else { return nil }
            return interfaces[name]
        }
        switch (member, signature) {
        case ("Get", "ss"):
            guard let interface = lookup(arguments[0]) else { return Self.replyError(to: message, unknownInterface(arguments[0])) }
            guard case .string(let name) = arguments[1], let property = interface.property(named: name) else {
                return Self.replyError(to: message, DBusError(.unknownProperty, "no property \(arguments[1].displayKey) in \(interface.name)"))
            }
            Self.reply(to: message, [.variant(property.get())])
        case ("GetAll", "s"):
            guard let interface = lookup(arguments[0]) else { return Self.replyError(to: message, unknownInterface(arguments[0])) }
            let entries = interface.properties.map { DBusValue.DictEntry(.string($0.name), .variant($0.get())) }
            Self.reply(to: message, [.dictionary(key: "s", value: "v", entries)])
        case ("Set", "ssv"):
            guard let interface = lookup(arguments[0]) else { return Self.replyError(to: message, unknownInterface(arguments[0])) }
            guard case .string(let name) = arguments[1], let property = interface.property(named: name) else {
                return Self.replyError(to: message, DBusError(.unknownProperty, "no property \(arguments[1].displayKey) in \(interface.name)"))
            }
            guard let set = property.set else {
                return Self.replyError(to: message, DBusError(.propertyReadOnly, "property \(name) of \(interface.name) is read-only"))
            }
            guard case .variant(let value) = arguments[2], value.signature == property.signature else {
                return Self.replyError(to: message, DBusError(.invalidArgs,
                    "property \(name) has type '\(property.signature)', got '\(arguments[2].unwrappingVariants.signature)'"))
            }
            do { try set(value) } catch {
                return Self.replyError(to: message, DBusError(mapping: error))
            }
            Self.reply(to: message, [])
            if property.emitsChanged && property.emitsOnSet {
                try? Self.emitPropertiesChanged(bus: sd_bus_message_get_bus(message), path: path, interface: interface.name,
                                                changed: [name: property.get()], invalidated: [])
            }
        default:
            Self.replyError(to: message, DBusError(.unknownMethod, "no method '\(member)' with signature '\(signature)' in org.freedesktop.DBus.Properties"))
        }
    }

    private func unknownInterface(_ name: DBusValue) -> DBusError {
        DBusError(.unknownInterface, "no interface \(name.displayKey) at \(path)")
    }

    // MARK: Replies (bus thread)

    static func reply(to call: OpaquePointer, _ values: [DBusValue]) {
        guard sd_bus_message_get_expect_reply(call) > 0 else { return }
        var reply: OpaquePointer?
        guard sd_bus_message_new_method_return(call, &reply) >= 0 else { return }
        defer { sd_bus_message_unref(reply) }
        do { try DBusValue.appendAll(values, to: reply!) } catch {
            return replyError(to: call, DBusError(.failed, "could not encode the reply: \(error)"))
        }
        _ = sd_bus_send(nil, reply, nil)
    }

    static func replyError(to call: OpaquePointer, _ error: DBusError) {
        var cError = sd_bus_error()
        defer { sd_bus_error_free(&cError) }
        _ = sd_bus_error_set(&cError, error.name, error.message)
        _ = sd_bus_reply_method_error(call, &cError)
    }

    static func emitPropertiesChanged(
        bus: OpaquePointer?, path: ObjectPath, interface: String, changed: [String: DBusValue], invalidated: [String]
    ) throws(BusError) {
        var message: OpaquePointer?
        try check(sd_bus_message_new_signal(bus, &message, path.rawValue, "org.freedesktop.DBus.Properties", "PropertiesChanged"), "sd_bus_message_new_signal")
        defer { sd_bus_message_unref(message) }
        try DBusValue.appendAll([.string(interface), .vardict(changed), invalidated.dbusValue], to: message!)
        try check(sd_bus_send(bus, message, nil), "sd_bus_send")
    }
}

/// A method call kept alive for a deferred reply. It is only dereferenced and released on
/// the bus thread (`completeDeferred` is isolated to the connection), hence unchecked.
final class RetainedMessage: @unchecked Sendable {
    let message: OpaquePointer
    init(_ message: OpaquePointer) { self.message = sd_bus_message_ref(message) }
    func release() { sd_bus_message_unref(message) }
}

extension DBusError {
    /// Errors thrown by handlers: D-Bus errors travel as they are, decoding errors become
    /// `InvalidArgs`, anything else `Failed`; the message always says what went wrong.
    init(mapping error: any Error) {
        switch error {
        case let error as DBusError: self = error
        case let error as VardictError: self.init(.invalidArgs, error.description)
        case let error as DBusTypeError: self.init(.invalidArgs, error.description)
        default: self.init(.failed, String(describing: error))
        }
    }
}

private let exportedObjectCalled: sd_bus_message_handler_t = { message, userdata, _ in
    guard let message else { return 0 }
    return Unmanaged<ExportRegistration>.fromOpaque(userdata!).takeUnretainedValue().handle(message)
}

/// Identifies an exported object, to remove it.
public struct ExportToken: Hashable, Sendable {
    public let path: ObjectPath
}

extension BusConnection {
    /// Exports an object at `path` with the given interfaces, plus `Introspectable`,
    /// `Properties` and `Peer`. One export per path.
    @discardableResult
    public func export(_ interfaces: [DBusInterface], at path: ObjectPath) throws -> ExportToken {
        try ensureOpen()
        guard exports[path.rawValue] == nil else {
            throw DBusError(.failed, "an object is already exported at \(path)")
        }
        let registration = ExportRegistration(path: path, interfaces: interfaces, connection: self)
        var slot: OpaquePointer?
        try check(sd_bus_add_object(bus, &slot, path.rawValue, exportedObjectCalled, Unmanaged.passUnretained(registration).toOpaque()), "sd_bus_add_object")
        registration.slot = slot
        exports[path.rawValue] = registration
        return ExportToken(path: path)
    }

    public func unexport(_ token: ExportToken) {
        exports.removeValue(forKey: token.path.rawValue)?.unregister()
    }

    /// Emits `org.freedesktop.DBus.Properties.PropertiesChanged` for `interface` at `path`.
    public func emitPropertiesChanged(path: ObjectPath, interface: String, changed: [String: DBusValue], invalidated: [String] = []) throws {
        try ensureOpen()
        try ExportRegistration.emitPropertiesChanged(bus: bus, path: path, interface: interface, changed: changed, invalidated: invalidated)
    }

    func completeDeferred(_ pending: RetainedMessage, method: DBusMethod, result: Result<[DBusValue], any Error>) {
        defer { pending.release() }
        guard !isClosed else { return }
        ExportRegistration.complete(pending.message, method: method, result: result)
    }
}
