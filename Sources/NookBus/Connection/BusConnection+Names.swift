/// A change of a name's owner on the bus; an empty owner means none.
public struct NameOwnerChange: Hashable, Sendable {
    public let name: String
    public let oldOwner: String
    public let newOwner: String
    public init(name: String, oldOwner: String, newOwner: String) {
        self.name = name
        self.oldOwner = oldOwner
        self.newOwner = newOwner
    }
}

/// A peer's Unix credentials, as the bus daemon vouches for them.
public struct PeerCredentials: Hashable, Sendable {
    public let uid: UInt32
    public let pid: UInt32
    public init(uid: UInt32, pid: UInt32) {
        self.uid = uid
        self.pid = pid
    }
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
