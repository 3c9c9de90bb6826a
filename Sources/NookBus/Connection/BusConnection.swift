import CSystemd
import Glibc

/// One connection to a message bus, driven by its own thread.
///
/// Every method runs on the connection's thread (the actor's executor), which is what sd-bus
/// requires; callers anywhere simply `await`. Signal subscriptions arrive as `AsyncStream`s.
///
/// ```swift
/// let bus = try await BusConnection.connect(to: .session)
/// let reply = try await bus.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
///                                interface: "org.freedesktop.DBus", member: "ListNames")
/// ```
public actor BusConnection {
    public nonisolated let executor: BusExecutor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// The `sd_bus *`, used only on the bus thread (this actor's isolation).
    let bus: OpaquePointer
    /// This connection's unique name on the bus (`:1.42`).
    public nonisolated let uniqueName: String

    var isClosed = false
    var closeWaiters: [CheckedContinuation<Void, Never>] = []
    var matches: [UInt64: MatchRegistration] = [:]
    var exports: [String: ExportRegistration] = [:]
    var nextToken: UInt64 = 1

    private init(executor: BusExecutor, bus: BusHandle, uniqueName: String) {
        self.executor = executor
        self.bus = bus.raw
        self.uniqueName = uniqueName
    }

    deinit {
        // The thread flushes and releases the bus once its queue is empty.
        executor.requestStop()
    }

    /// Connects and completes the `Hello` handshake, so `uniqueName` is known on return.
    ///
    /// - Parameter acceptsDescriptors: whether Unix file descriptors may be passed over this
    ///   connection. Off by default: nothing in Nook's contracts carries one, and without the
    ///   negotiation the bus daemon refuses any message carrying descriptors to us
    ///   (`org.freedesktop.DBus.Error.NotSupported` to its sender), so none can reach this
    ///   process to be leaked, however a handler treats the call.
    public static func connect(
        to address: BusAddress, description: String = "nook", acceptsDescriptors: Bool = false
    ) async throws -> BusConnection {
        let executor = try BusExecutor()
        let (handle, uniqueName) = try await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<(BusHandle, String), any Error>) in
            executor.start {
                do {
                    let opened = try openBus(address, description: description, acceptsDescriptors: acceptsDescriptors)
                    continuation.resume(returning: opened)
                    return opened.0
                } catch {
                    continuation.resume(throwing: error)
                    return nil
                }
            }
        }
        let connection = BusConnection(executor: executor, bus: handle, uniqueName: uniqueName)
        executor.busLostHandler.withLock { handler in
            handler = { [weak connection] in connection?.assumeIsolated { $0.busLost() } }
        }
        return connection
    }

    /// Runs on the new bus thread: creates, starts and greets the bus.
    private static func openBus(_ address: BusAddress, description: String, acceptsDescriptors: Bool) throws(BusError) -> (BusHandle, String) {
        var bus: OpaquePointer?
        try check(sd_bus_new(&bus), "sd_bus_new")
        do throws(BusError) {
            // `sd_bus_open_user` would start the connection before descriptors could be refused,
            // so the session bus's address is found here as it finds it.
            guard let text = address.resolved() else {
                throw BusError.system(function: "sd_bus_open_user (no DBUS_SESSION_BUS_ADDRESS or XDG_RUNTIME_DIR)", errno: ENOMEDIUM)
            }
            try check(sd_bus_set_address(bus, text), "sd_bus_set_address")
            // Without this sd-bus treats the peer as a direct connection and sends no Hello.
            try check(sd_bus_set_bus_client(bus, 1), "sd_bus_set_bus_client")
            try check(sd_bus_negotiate_fds(bus, acceptsDescriptors ? 1 : 0), "sd_bus_negotiate_fds")
            try check(sd_bus_start(bus), "sd_bus_start")
        } catch {
            sd_bus_unref(bus)
            throw error
        }
        _ = sd_bus_set_description(bus, description)
        var name: UnsafePointer<CChar>?
        do {
            // Blocks until the Hello reply arrives; fine before the loop starts.
            try check(sd_bus_get_unique_name(bus, &name), "sd_bus_get_unique_name")
        } catch {
            sd_bus_flush_close_unref(bus)
            throw error
        }
        return (BusHandle(raw: bus!), String(cString: name!))
    }

    /// Flushes what is queued and closes the connection. Later calls throw `BusError.disconnected`.
    public func close() {
        guard !isClosed else { return }
        endRegistrations()
        sd_bus_flush(bus)
        sd_bus_close(bus)
        resumeCloseWaiters()
    }

    /// Marks the connection closed, finishes every match's stream and unregisters every export.
    private func endRegistrations() {
        isClosed = true
        for registration in matches.values { registration.finish() }
        matches.removeAll()
        for registration in exports.values { registration.unregister() }
        exports.removeAll()
    }

    /// Returns when the connection is closed: by `close()`, or because the bus went away.
    public func waitUntilClosed() async {
        await withCheckedContinuation { continuation in
            // Checked here, in the same turn as the waiter is stored: the body may run in a
            // later turn of the bus thread than the call, and a loss handled in between has
            // already woken every waiter it found.
            if isOpen { closeWaiters.append(continuation) } else { continuation.resume() }
        }
    }

    /// The bus went away: streams finish and `waitUntilClosed` returns; calls throw `disconnected`.
    func busLost() {
        guard !isClosed else { return }
        endRegistrations()
        resumeCloseWaiters()
    }

    func resumeCloseWaiters() {
        let waiters = closeWaiters
        closeWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    /// True while the connection is open and the bus reachable.
    public var isOpen: Bool { !isClosed && sd_bus_is_open(bus) > 0 }

    func ensureOpen() throws(BusError) {
        guard isOpen else { throw BusError.disconnected }
    }

    /// Runs `operation` isolated to this connection and preferring its thread for every task
    /// resumption: a sequence of calls made inside runs without any thread hop.
    public nonisolated func perform<T: Sendable>(
        _ operation: @Sendable (isolated BusConnection) async throws -> T
    ) async throws -> T {
        try await withTaskExecutorPreference(executor) { try await operation(self) }
    }

    func makeToken() -> UInt64 {
        defer { nextToken += 1 }
        return nextToken
    }
}
