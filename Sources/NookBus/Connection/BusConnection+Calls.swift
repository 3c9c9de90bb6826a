import CSystemd
import Glibc
import NookCore

extension BusConnection {
    /// Calls a method and waits for its reply.
    ///
    /// - Returns: the reply's arguments.
    /// - Throws: `DBusError` with the name the peer or the bus replied with (a timeout is
    ///   `org.freedesktop.DBus.Error.NoReply`); `BusError` when the call could not be sent.
    public func call(
        destination: String, path: ObjectPath, interface: String, member: String,
        arguments: [DBusValue] = [], timeout: Duration = .seconds(25)
    ) async throws -> [DBusValue] {
        try await call(destination: destination, path: path, interface: interface, member: member, timeout: timeout) { message throws(BusError) in
            try DBusValue.appendAll(arguments, to: message)
        }
    }

    /// `call` with a last argument `a{sv}` written straight from `props`: the bytes
    /// `WireCodec.vardict(props)` would give, without building its `DBusValue`s first
    /// (`PropValue+Message.swift`). A module's `UpdateActivity` is most of its views.
    /// `views` join the `a{sv}` as nodes (`.node(view.rawNode)` would write the same bytes),
    /// written straight from their props: a module's validated views, no `RawNode` built.
    public func call(
        destination: String, path: ObjectPath, interface: String, member: String,
        arguments: [DBusValue], vardict props: [String: PropValue], views: [String: ViewNode] = [:], timeout: Duration = .seconds(25)
    ) async throws -> [DBusValue] {
        try await call(destination: destination, path: path, interface: interface, member: member, timeout: timeout) { message throws(BusError) in
            try DBusValue.appendAll(arguments, to: message)
            try PropValue.appendVardict(props, views: views, to: message)
        }
    }

    /// `call` with a last argument that is a view, `(sa{sv}av)`, written straight from its
    /// props: the bytes `view.rawNode.wireValue` would give (a module's `SetContent`).
    public func call(
        destination: String, path: ObjectPath, interface: String, member: String,
        arguments: [DBusValue], view: ViewNode, timeout: Duration = .seconds(25)
    ) async throws -> [DBusValue] {
        try await call(destination: destination, path: path, interface: interface, member: member, timeout: timeout) { message throws(BusError) in
            try DBusValue.appendAll(arguments, to: message)
            try PropValue.appendView(view, to: message)
        }
    }

    private func call(
        destination: String, path: ObjectPath, interface: String, member: String, timeout: Duration,
        body: (MessagePointer) throws(BusError) -> Void
    ) async throws -> [DBusValue] {
        try ensureOpen()
        var message: OpaquePointer?
        try check(sd_bus_message_new_method_call(bus, &message, destination, path.rawValue, interface, member), "sd_bus_message_new_method_call")
        defer { sd_bus_message_unref(message) }
        try body(message!)
        let usec = max(1, UInt64(timeout.components.seconds) * 1_000_000 + UInt64(timeout.components.attoseconds / 1_000_000_000_000))
        // Preferring this connection's executor makes the reply resume the task right here
        // on the bus thread, rather than on the global pool first.
        return try await withTaskExecutorPreference(executor) {
          try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[DBusValue], any Error>) in
            let pending = PendingCall(continuation)
            let userdata = Unmanaged.passRetained(pending).toOpaque()
            var slot: OpaquePointer?
            let result = sd_bus_call_async(bus, &slot, message, pendingCallReplied, userdata, usec)
            guard result >= 0 else {
                Unmanaged<PendingCall>.fromOpaque(userdata).release()
                continuation.resume(throwing: BusError.system(function: "sd_bus_call_async", errno: -result))
                return
            }
            // The bus keeps the slot until the reply (or the timeout) is dispatched, then the
            // destroy callback releases `pending`.
            sd_bus_slot_set_destroy_callback(slot, pendingCallDestroyed)
            sd_bus_slot_set_floating(slot, 1)
            sd_bus_slot_unref(slot)
          }
        }
    }

    /// Sends a method call without waiting for (or wanting) a reply.
    public func callNoReply(destination: String, path: ObjectPath, interface: String, member: String, arguments: [DBusValue] = []) throws {
        try ensureOpen()
        var message: OpaquePointer?
        try check(sd_bus_message_new_method_call(bus, &message, destination, path.rawValue, interface, member), "sd_bus_message_new_method_call")
        defer { sd_bus_message_unref(message) }
        try check(sd_bus_message_set_expect_reply(message, 0), "sd_bus_message_set_expect_reply")
        try DBusValue.appendAll(arguments, to: message!)
        try check(sd_bus_send(bus, message, nil), "sd_bus_send")
    }
}

/// A call waiting for its reply; touched only on the bus thread.
final class PendingCall {
    private var continuation: CheckedContinuation<[DBusValue], any Error>?

    init(_ continuation: CheckedContinuation<[DBusValue], any Error>) { self.continuation = continuation }

    func complete(with reply: OpaquePointer) {
        guard let continuation else { return }
        self.continuation = nil
        if let error = sd_bus_message_get_error(reply) {
            continuation.resume(throwing: DBusError(cError: error.pointee))
            return
        }
        do { continuation.resume(returning: try DBusValue.readAll(from: reply)) } catch {
            continuation.resume(throwing: error)
        }
    }

    func fail(_ error: any Error) {
        continuation?.resume(throwing: error)
        continuation = nil
    }
}

private let pendingCallReplied: sd_bus_message_handler_t = { message, userdata, _ in
    Unmanaged<PendingCall>.fromOpaque(userdata!).takeUnretainedValue().complete(with: message!)
    return 0
}

private let pendingCallDestroyed: sd_bus_destroy_t = { userdata in
    // Dispatched replies have resumed already; this only fails calls the bus dropped.
    Unmanaged<PendingCall>.fromOpaque(userdata!).takeRetainedValue().fail(BusError.disconnected)
}

extension DBusError {
    init(cError: sd_bus_error) {
        self.init(
            name: cError.name.map { String(cString: $0) } ?? DBusError.StandardError.failed.rawValue,
            message: cError.message.map { String(cString: $0) } ?? ""
        )
    }
}
