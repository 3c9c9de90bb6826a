import NookCore
import NookBus

// How a module keeps the broker in step with what it publishes.
//
// 1. The module follows `org.nook.Nook1`'s owner (`NameOwnerChanged`), subscribing before it
//    asks who owns the name, so no change slips between the two.
// 2. Every call goes to the owner's unique name, never to the well-known one: a call can only
//    reach the broker instance the module registered with, not a successor that does not
//    know the module yet.
// 3. The module's wishes (content, activities, ends) are a model; a delivery compares the
//    model with what the current broker received and sends the difference. When the broker
//    leaves, "received" is forgotten; when one appears, the module registers and sends the
//    whole model again (a restored activity is replaced by `StartActivity`, see
//    docs/broker.md), clears slots it no longer fills and ends activities it no longer has.
// 4. All of that runs behind one gate, so deliveries reach the broker in call order.
// 5. When the bus itself goes away (the name-owner stream ends), the module reconnects to the
//    same address with a backoff, then starts again at 1. on the new connection; the broker
//    found there gets the whole model as in 3.

extension NookModule {
    /// Errors that mean "the broker is not there", not "the broker said no".
    static let brokerAwayErrors: Set<String> = [
        DBusError.StandardError.serviceUnknown.rawValue, DBusError.StandardError.nameHasNoOwner.rawValue,
        DBusError.StandardError.noReply.rawValue, DBusError.StandardError.disconnected.rawValue,
        DBusError.StandardError.timeout.rawValue,
    ]

    // MARK: Start-up and the name-owner stream

    /// Subscribes to diagnostics and to the broker's name, then registers if a broker is there.
    func begin() async throws {
        try await follow(initial: true)
    }

    /// Start-up on the current connection: the diagnostics match, the name-owner stream, and
    /// a synchronisation with the broker when one is there.
    /// - Parameter initial: true from `connect` (refusals are thrown); false after a reconnect
    ///   to the bus (refusals are reported as `.deliveryFailed`).
    func follow(initial: Bool) async throws {
        let connection = self.connection
        let cell = brokerCell, hub = diagnosticsHub
        let moduleID = id
        let changes: AsyncStream<NameOwnerChange>
        let owner: String?
        do {
            diagnosticsMatch = try await connection.addMatch(
                NookContract.Modules.diagnostics.matchRule
            ) { signal in
                guard cell.isOwner(signal.sender) else { return }
                for diagnostic in Diagnostic.decode(signal: signal) {
                    hub.yield(diagnostic)
                    if diagnostic.code == .activityDismissed, diagnostic.module == moduleID, !diagnostic.id.isEmpty {
                        Task { [weak self] in await self?.userDismissed(diagnostic.id) }
                    }
                }
            }
            try await listenForActions(on: connection)
            changes = try await connection.nameOwnerChanges(of: Self.brokerName)
            owner = try await connection.nameOwner(of: Self.brokerName)
        } catch {
            throw NookModuleError(.disconnected, "cannot follow the broker on the bus: \(error)")
        }
        monitor = Task { [weak self] in
            for await change in changes {
                guard let self else { return }
                await self.brokerChanged(to: change.newOwner)
            }
            await self?.busClosed()
        }
        if let owner {
            setBroker(owner)
            await enterGate()
            defer { leaveGate() }
            if initial {
                try await synchronizeLocked(initial: true)
            } else {
                guard broker == owner, registeredWith != owner else { return }
                try? await synchronizeLocked(initial: false)
            }
        } else {
            requestActivation()
        }
    }

    /// One `NameOwnerChanged` of `org.nook.Nook1`, in bus order.
    func brokerChanged(to newOwner: String) async {
        guard !isClosed else { return }
        if newOwner.isEmpty {
            brokerLeft()
            return
        }
        if let current = broker, current != newOwner { brokerLeft() }
        setBroker(newOwner)
        await enterGate()
        defer { leaveGate() }
        guard broker == newOwner, registeredWith != newOwner else { return }
        try? await synchronizeLocked(initial: false)
    }

    func setBroker(_ owner: String?) {
        broker = owner
        brokerCell.set(owner)
    }

    func brokerLeft() {
        guard broker != nil else { return }
        setBroker(nil)
        registeredWith = nil
        eventsHub.yield(.brokerLost)
    }

    /// The bus connection is gone (its stream ended, or a call found it closed): report it and
    /// reconnect. Calls made meanwhile are kept, as while the broker is away.
    func busClosed() {
        guard !isClosed, !busLost else { return }
        busLost = true
        brokerLeft()
        eventsHub.yield(.disconnected)
        startReconnecting()
    }
}
