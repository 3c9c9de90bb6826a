import CSystemd
import NookCore

/// A signal as received.
public struct BusSignal: Hashable, Sendable {
    public let sender: String
    public let path: String
    public let interface: String
    public let member: String
    public let arguments: [DBusValue]
}

/// A D-Bus match rule, built from its parts so quoting is always right.
public struct MatchRule: Hashable, Sendable, CustomStringConvertible {
    public var sender: String?
    public var path: ObjectPath?
    public var interface: String?
    public var member: String?
    public var destination: String?
    /// `argN` string matches, by index.
    public var arguments: [Int: String]

    public init(
        sender: String? = nil, path: ObjectPath? = nil, interface: String? = nil, member: String? = nil,
        destination: String? = nil, arguments: [Int: String] = [:]
    ) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.destination = destination
        self.arguments = arguments
    }

    /// The rule text dbus-daemon understands.
    public var description: String {
        var parts = ["type='signal'"]
        func add(_ key: String, _ value: String?) {
            // Match rule values are single-quoted; a quote inside is written '\''.
            if let value { parts.append("\(key)='" + value.replacingQuote() + "'") }
        }
        add("sender", sender)
        add("path", path?.rawValue)
        add("interface", interface)
        add("member", member)
        add("destination", destination)
        for (index, value) in arguments.sorted(by: { $0.key < $1.key }) { add("arg\(index)", value) }
        return parts.joined(separator: ",")
    }

    public static func nameOwnerChanged(name: String? = nil) -> MatchRule {
        MatchRule(
            sender: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
            member: "NameOwnerChanged", arguments: name.map { [0: $0] } ?? [:])
    }
}

extension String {
    fileprivate func replacingQuote() -> String {
        var out = ""
        for character in self { out += character == "'" ? "'\\''" : String(character) }
        return out
    }
}

/// Removes a match when cancelled or released.
public struct MatchToken: Hashable, Sendable {
    let id: UInt64
}

extension BusConnection {
    /// Emits a signal: broadcast, or unicast to one connection when `destination` is set.
    public func emitSignal(
        path: ObjectPath, interface: String, member: String, arguments: [DBusValue] = [], destination: String? = nil
    ) throws {
        try ensureOpen()
        var message: OpaquePointer?
        try check(sd_bus_message_new_signal(bus, &message, path.rawValue, interface, member), "sd_bus_message_new_signal")
        defer { sd_bus_message_unref(message) }
        if let destination {
            try check(sd_bus_message_set_destination(message, destination), "sd_bus_message_set_destination")
        }
        try DBusValue.appendAll(arguments, to: message!)
        try check(sd_bus_send(bus, message, nil), "sd_bus_send")
    }

    /// Installs a match and returns once the bus has confirmed it, so no signal sent after
    /// this returns can be missed. `deliver` runs on this connection's thread.
    public func addMatch(_ rule: MatchRule, deliver: @escaping @Sendable (BusSignal) -> Void) async throws -> MatchToken {
        try await addMatch(rule, reading: { message in
            // From its first argument, whatever another match on this connection read of it.
            sd_bus_message_rewind(message, 1)
            if let signal = try? BusSignal(message: message) { deliver(signal) }
        })
    }

    /// `addMatch(_:deliver:)` for signals whose one argument is the contract's `a{sv}` (a
    /// renderer's `Plan`): `deliver` gets it read straight into props (`PropReader`, as nookd
    /// reads a module's record), with no `DBusValue` tree built, converted and freed on the way.
    /// An argument in another form is read the general way and converted (`PropValue(wire:)`),
    /// so it reads as it always did, or fails with the same error; a signal without arguments
    /// is dropped.
    public func addMatchReadingProps(_ rule: MatchRule, deliver: @escaping @Sendable (Result<PropValue, WireDecodingError>) -> Void) async throws -> MatchToken {
        try await addMatch(rule, reading: { message in
            sd_bus_message_rewind(message, 1)
            if let signature = sd_bus_message_get_signature(message, 1), strcmp(signature, "a{sv}") == 0,
               let record = PropReader.record(from: message) {
                return deliver(.success(.dictionary(record)))
            }
            sd_bus_message_rewind(message, 1)
            guard let arguments = try? DBusValue.readAll(from: message), let first = arguments.first else { return }
            deliver(Result { () throws(WireDecodingError) in try PropValue(wire: first, at: "") })
        })
    }

    /// Installs a match whose messages `read` takes on the bus thread (`addMatch(_:deliver:)`).
    private func addMatch(_ rule: MatchRule, reading read: @escaping (MessagePointer) -> Void) async throws -> MatchToken {
        try ensureOpen()
        let id = makeToken()
        let registration = MatchRegistration(read: read)
        matches[id] = registration
        let userdata = Unmanaged.passUnretained(registration).toOpaque()
        do {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                registration.installed = continuation
                var slot: OpaquePointer?
                let result = sd_bus_add_match_async(bus, &slot, rule.description, matchDelivered, matchInstalled, userdata)
                if result < 0 {
                    registration.installed = nil
                    continuation.resume(throwing: BusError.system(function: "sd_bus_add_match_async", errno: -result))
                } else {
                    registration.slot = slot
                }
            }
        } catch {
            matches.removeValue(forKey: id)?.finish()
            throw error
        }
        return MatchToken(id: id)
    }

    /// Removes a match; its stream (if any) finishes.
    public func removeMatch(_ token: MatchToken) {
        matches.removeValue(forKey: token.id)?.finish()
    }

    /// Subscribes to signals matching `rule`. The subscription is active when this returns and
    /// ends when the stream is dropped or the connection closes.
    public func signals(matching rule: MatchRule) async throws -> AsyncStream<BusSignal> {
        try await stream(matching: rule) { $0 }
    }

    /// Like `signals(matching:)`, transforming each signal on the bus thread (nil drops it).
    public func stream<Element: Sendable>(
        matching rule: MatchRule, transform: @escaping @Sendable (BusSignal) -> Element?
    ) async throws -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream()
        let token = try await addMatch(rule) { signal in
            if let element = transform(signal) { continuation.yield(element) }
        }
        matches[token.id]?.onFinish = { continuation.finish() }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            Task { await self.removeMatch(token) }
        }
        return stream
    }
}

/// One installed match; touched only on the bus thread.
final class MatchRegistration {
    /// Reads each matched message and hands on what it read.
    let read: (MessagePointer) -> Void
    var slot: OpaquePointer?
    var installed: CheckedContinuation<Void, any Error>?
    var onFinish: (() -> Void)?

    init(read: @escaping (MessagePointer) -> Void) { self.read = read }

    func finish() {
        if let slot { sd_bus_slot_unref(slot) }
        slot = nil
        installed?.resume(throwing: BusError.disconnected)
        installed = nil
        onFinish?()
        onFinish = nil
    }
}

private let matchDelivered: sd_bus_message_handler_t = { message, userdata, _ in
    let registration = Unmanaged<MatchRegistration>.fromOpaque(userdata!).takeUnretainedValue()
    guard let message else { return 0 }
    registration.read(message)
    return 0  // let other matches see it too
}

private let matchInstalled: sd_bus_message_handler_t = { message, userdata, _ in
    let registration = Unmanaged<MatchRegistration>.fromOpaque(userdata!).takeUnretainedValue()
    guard let continuation = registration.installed else { return 0 }
    registration.installed = nil
    if let message, let error = sd_bus_message_get_error(message) {
        continuation.resume(throwing: DBusError(cError: error.pointee))
    } else {
        continuation.resume()
    }
    return 0
}

extension BusSignal {
    init(message: OpaquePointer) throws(BusError) {
        func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
        sender = text(sd_bus_message_get_sender(message))
        path = text(sd_bus_message_get_path(message))
        interface = text(sd_bus_message_get_interface(message))
        member = text(sd_bus_message_get_member(message))
        arguments = try DBusValue.readAll(from: message)
    }
}
