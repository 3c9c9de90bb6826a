import CSystemd

/// A change of a name's owner on the bus; an empty owner means none.
public struct NameOwnerChange: Hashable, Sendable {
    public let name: String
    public let oldOwner: String
    public let newOwner: String
}

/// A peer's Unix credentials, as the bus daemon vouches for them.
public struct PeerCredentials: Hashable, Sendable {
    public let uid: UInt32
    public let pid: UInt32
}

extension BusConnection {
    static let daemon = "org.freedesktop.DBus"
    static let daemonPath: ObjectPath = "/org/freedesktop/DBus"

    func callDaemon(_ member: String, _ arguments: [DBusValue] = []) async throws -> [DBusValue] {
        try await call(destination: Self.daemon, path: Self.daemonPath, interface: Self.daemon, member: member, arguments: arguments)
    }

    /// Takes ownership of a well-known name, never queueing behind another owner.
    /// - Throws: `BusError.nameTaken` when another connection owns it.
    public func requestName(_ name: String) async throws {
        guard BusNames.isValidBusName(name), !name.hasPrefix(":") else {
            throw BusError.invalidName(BusNameError(kind: "well-known bus name", value: name))
        }
        let doNotQueue: UInt32 = 4
        let reply = try await callDaemon("RequestName", [.string(name), .uint32(doNotQueue)])
        // 1: primary owner, 4: already the owner; 3: exists (and we asked not to queue).
        switch reply.first {
        case .uint32(1), .uint32(4): return
        default: throw BusError.nameTaken(name)
        }
    }

    public func releaseName(_ name: String) async throws {
        _ = try await callDaemon("ReleaseName", [.string(name)])
    }

    /// The unique name owning `name`, or nil when nobody does.
    public func nameOwner(of name: String) async throws -> String? {
        do {
            let reply = try await callDaemon("GetNameOwner", [.string(name)])
            return try decode(reply.first ?? .string(""), as: String.self)
        } catch let error as DBusError where error.standardError == .nameHasNoOwner {
            return nil
        }
    }

    /// Owner changes of `name` (or of every name), from the moment this returns.
    public func nameOwnerChanges(of name: String? = nil) async throws -> AsyncStream<NameOwnerChange> {
        try await stream(matching: .nameOwnerChanged(name: name)) { NameOwnerChange(signal: $0) }
    }

    /// Calls `onLeave` (on this connection's thread) once, when the connection `uniqueName`
    /// leaves the bus, or at once if it is already gone. Cancel with `removeMatch`.
    public func trackPeer(_ uniqueName: String, onLeave: @escaping @Sendable () -> Void) async throws -> MatchToken {
        let once = FireOnce(onLeave)
        let token = try await addMatch(.nameOwnerChanged(name: uniqueName)) { signal in
            if let change = NameOwnerChange(signal: signal), change.newOwner.isEmpty { once.fire() }
        }
        // The peer may have left before the match was in place.
        if try await nameOwner(of: uniqueName) == nil { once.fire() }
        return token
    }

    /// The uid and pid of the connection `name`, from the bus daemon.
    public func credentials(of name: String) async throws -> PeerCredentials {
        let reply = try await callDaemon("GetConnectionCredentials", [.string(name)])
        let record = try Vardict(reply.first ?? .vardict([:]), at: "GetConnectionCredentials reply")
        return PeerCredentials(uid: try record.required("UnixUserID"), pid: try record.required("ProcessID"))
    }
}

extension NameOwnerChange {
    init?(signal: BusSignal) {
        guard signal.arguments.count == 3,
              case .string(let name) = signal.arguments[0],
              case .string(let old) = signal.arguments[1],
              case .string(let new) = signal.arguments[2] else { return nil }
        self.init(name: name, oldOwner: old, newOwner: new)
    }
}

/// Runs a callback at most once. Only touched on the bus thread, hence unchecked.
private final class FireOnce: @unchecked Sendable {
    private var callback: (@Sendable () -> Void)?
    init(_ callback: @escaping @Sendable () -> Void) { self.callback = callback }
    func fire() {
        let pending = callback
        callback = nil
        pending?()
    }
}

extension BusConnection {
    /// The pid of the connection `name`, asked of the bus daemon (`GetConnectionUnixProcessID`)
    /// and waited for right here on the bus thread, for at most `timeout`. Nil when the daemon
    /// does not know it (the peer left, a bus without Unix credentials) or does not answer in
    /// time. Meant for method handlers that must decide about a call before they answer it:
    /// sd-bus keeps the messages that arrive meanwhile and dispatches them afterwards.
    public func processIDNow(of name: String, timeout: Duration = .seconds(1)) -> UInt32? {
        callDaemonNow(interface: Self.daemon, member: "GetConnectionUnixProcessID", about: name, timeout: timeout) { reply in
            var pid: UInt32 = 0
            return sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "u")), &pid) > 0 ? pid : nil
        }
    }

    /// The bytes the bus daemon holds for the connection `name` (sent to it, not yet read by
    /// it): dbus-daemon's `OutgoingBytes` of `Debug.Stats`, asked and waited for right here on
    /// the bus thread, for at most `timeout` (see `processIDNow`). Nil when the daemon has no
    /// such statistics, the connection is gone, or no answer came in time.
    public func bytesHeldForNow(_ name: String, timeout: Duration = .seconds(1)) -> Int? {
        callDaemonNow(interface: "org.freedesktop.DBus.Debug.Stats", member: "GetConnectionStats", about: name, timeout: timeout) { reply in
            (try? DBusValue.readAll(from: reply)).flatMap(Self.outgoingBytes)
        }
    }

    /// The same, without holding the bus thread: for many connections at once.
    public func bytesHeldFor(_ name: String, timeout: Duration = .seconds(5)) async -> Int? {
        let reply = try? await call(
            destination: Self.daemon, path: Self.daemonPath, interface: "org.freedesktop.DBus.Debug.Stats", member: "GetConnectionStats",
            arguments: [.string(name)], timeout: timeout)
        return reply.flatMap(Self.outgoingBytes)
    }

    /// `OutgoingBytes` of a `GetConnectionStats` reply.
    private static func outgoingBytes(_ reply: [DBusValue]) -> Int? {
        guard let record = try? Vardict(reply.first ?? .vardict([:])), case .uint32(let held)? = record["OutgoingBytes"] else { return nil }
        return Int(held)
    }

    /// Calls `member` of the bus daemon with the connection name `name`, waiting for the reply
    /// here on the bus thread for at most `timeout`, and reads it with `read`; nil when the call
    /// cannot be made, fails or is not answered in time.
    private func callDaemonNow<T>(
        interface: String, member: String, about name: String, timeout: Duration, read: (OpaquePointer) -> T?
    ) -> T? {
        guard isOpen else { return nil }
        var message: OpaquePointer?
        guard sd_bus_message_new_method_call(bus, &message, Self.daemon, Self.daemonPath.rawValue, interface, member) >= 0 else { return nil }
        defer { sd_bus_message_unref(message) }
        guard (try? DBusValue.appendString(name, code: "s", to: message!)) != nil else { return nil }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let usec = max(1, UInt64(timeout.components.seconds) * 1_000_000 + UInt64(timeout.components.attoseconds / 1_000_000_000_000))
        guard sd_bus_call(bus, message, usec, &error, &reply) >= 0, let reply else { return nil }
        defer { sd_bus_message_unref(reply) }
        return read(reply)
    }

    /// Messages sd-bus holds for writing because the bus daemon has not read them yet. It
    /// grows when the daemon reads this connection slowly, and for good when the daemon has
    /// stopped reading it (a sender past its `max_incoming_bytes`).
    public var queuedWrites: UInt64 {
        var count: UInt64 = 0
        return sd_bus_get_n_queued_write(bus, &count) >= 0 ? count : 0
    }

    /// The bytes of this connection's messages the bus daemon holds (sent, and not yet read
    /// by every recipient): dbus-daemon's `IncomingBytes` of `Debug.Stats`, charged against
    /// its `max_incoming_bytes`, past which it stops reading from this connection.
    /// - Throws: the daemon's error when it has no such statistics (a build without them,
    ///   dbus-broker: `UnknownInterface`, `UnknownMethod`, `AccessDenied`), `NoReply` when it
    ///   did not answer within `timeout`.
    public func bytesHeldByBus(timeout: Duration = .seconds(5)) async throws -> Int {
        let reply = try await call(
            destination: Self.daemon, path: Self.daemonPath, interface: "org.freedesktop.DBus.Debug.Stats", member: "GetConnectionStats",
            arguments: [.string(uniqueName)], timeout: timeout)
        let record = try Vardict(reply.first ?? .vardict([:]), at: "GetConnectionStats reply")
        let held: UInt32 = try record.required("IncomingBytes")
        return Int(held)
    }
}
