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
                MatchRule(path: Self.objectPath, interface: Self.modulesInterface, member: ModulesMember.diagnostics.rawValue)
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

    // MARK: Reconnecting to the bus

    /// Tries to connect again, 50 ms after the loss and then doubling up to 1 s between tries,
    /// until a connection is adopted or the module is closed (which cancels the task).
    func startReconnecting() {
        guard reconnector == nil else { return }
        let address = self.address
        reconnector = Task { [weak self] in
            var delay = Duration.milliseconds(50)
            while !Task.isCancelled {
                try? await Task.sleep(for: delay)
                if Task.isCancelled { return }
                if let connection = try? await NookModule.openConnection(address, reconnecting: true) {
                    guard let self else {
                        await connection.close()
                        return
                    }
                    await self.adopt(connection)
                    return
                }
                if self == nil { return }
                delay = min(delay * 2, .seconds(1))
            }
        }
    }

    /// Takes a new bus connection in place of the lost one and starts following the broker on
    /// it, synchronising as a reconnect. A loss during this start-up starts reconnecting again.
    func adopt(_ newConnection: BusConnection) async {
        reconnector = nil
        guard !isClosed else {
            await newConnection.close()
            return
        }
        let old = connection
        connection = newConnection
        busLost = false
        await old.close()
        do {
            try await follow(initial: false)
        } catch {
            // The new connection failed before the module could follow the broker on it.
            await newConnection.close()
            busClosed()
        }
    }

    /// Opens a bus connection for a module.
    ///
    /// On a reconnect the `guid=` key is dropped from the address: it names the bus daemon
    /// instance the address was printed by, and sd-bus refuses a server whose guid differs.
    /// A restarted daemon listens at the same path with a new guid, so keeping the key would
    /// make every reconnect fail.
    static func openConnection(_ address: NookModuleAddress, reconnecting: Bool) async throws -> BusConnection {
        switch address {
        case .session:
            return try await BusConnection.connect(to: .session, description: "nook-module")
        case .bus(let text):
            let target = reconnecting ? withoutGUID(text) : text
            return try await BusConnection.connect(to: .address(target), description: "nook-module")
        }
    }

    /// `address` with every `guid=...` key removed, in each of its `;`-separated entries.
    static func withoutGUID(_ address: String) -> String {
        address.split(separator: ";", omittingEmptySubsequences: false).map { entry -> String in
            guard let colon = entry.firstIndex(of: ":") else { return String(entry) }
            let transport = entry[..<colon]
            let keys = entry[entry.index(after: colon)...].split(separator: ",", omittingEmptySubsequences: true)
                .filter { !$0.hasPrefix("guid=") }
            return transport + ":" + keys.joined(separator: ",")
        }.joined(separator: ";")
    }

    /// Asks the bus to start the broker (D-Bus activation); where nothing can start it, the
    /// module simply waits for one to appear.
    func requestActivation() {
        let connection = self.connection
        Task {
            _ = try? await connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: "StartServiceByName", arguments: [.string(Self.brokerName), .uint32(0)])
        }
    }

    // MARK: The gate

    func enterGate() async {
        if gate.tryEnter() { return }
        await withCheckedContinuation { gate.enqueue($0) }
    }

    func leaveGate() { gate.leave() }

    // MARK: Synchronising

    /// Registers with the current broker and sends the whole model. Call with the gate held.
    /// - Parameter initial: true from `connect`: a refusal is thrown rather than reported.
    func synchronizeLocked(initial: Bool) async throws(NookModuleError) {
        guard let owner = broker else { return }
        let reconnect = everRegistered
        do throws(SendFailure) {
            _ = try await send(ModulesMember.register.rawValue, [.string(id), WireCodec.vardict(configuration.registerInfo)])
        } catch {
            guard case .refused(let refusal) = error else { return }
            if initial { throw refusal }
            eventsHub.yield(.deliveryFailed(refusal))
            return
        }
        guard broker == owner else { return }
        registeredWith = owner
        everRegistered = true
        deliveredContent = [:]
        for key in entries.keys { entries[key]!.delivered = nil }
        do throws(SendFailure) {
            try await replay(reconnect: reconnect, initial: initial)
        } catch {
            guard case .refused(let refusal) = error else { return }
            throw refusal
        }
        if registeredWith == owner { eventsHub.yield(.connected) }
    }

    /// Sends the whole model to a broker the module just registered with. Refusals are
    /// reported and the refused part dropped (thrown instead for content, when `initial`).
    func replay(reconnect: Bool, initial: Bool) async throws(SendFailure) {
        if reconnect {
            // The broker may have restored content the module has since taken away.
            for slot in ModuleSlot.allCases where configuration.content[slot] == nil {
                do throws(SendFailure) {
                    _ = try await send(ModulesMember.clearContent.rawValue, [.string(slot.rawValue)])
                } catch {
                    guard case .refused = error else { throw error }
                }
            }
        }
        do throws(SendFailure) {
            try await sendContent()
        } catch {
            guard case .refused(let refusal) = error, !initial else { throw error }
            eventsHub.yield(.deliveryFailed(refusal))
        }
        // Ends first, so a broker near its activity limit has room for the starts.
        let ending = startOrder.filter { entries[$0]?.ending != nil }
        for activityID in ending + startOrder.filter({ !ending.contains($0) }) {
            do throws(SendFailure) {
                try await reconcile(activityID)
            } catch {
                guard case .refused(let refusal) = error else { throw error }
                if refusal.code == .activityDismissed {
                    forgetDismissed(activityID)
                    continue
                }
                // Dropped: the broker will not take it, and replaying it would fail again.
                entries[activityID] = nil
                startOrder.removeAll { $0 == activityID }
                eventsHub.yield(.deliveryFailed(refusal))
            }
        }
        if reconnect { try await endStrays() }
    }

    /// True when calls can go out now: registered with the broker that owns the name. When a
    /// broker is there but the module is not registered with it (a sync was cut short), this
    /// registers and resends first. Call with the gate held.
    func readyToSend() async -> Bool {
        guard let owner = broker else { return false }
        if registeredWith != owner { try? await synchronizeLocked(initial: false) }
        return broker == owner && registeredWith == owner
    }

    /// Delivers the model's state of one activity, for a call that changed it. On refusal,
    /// `undo` puts the model back to what the broker has, and the error is thrown.
    func deliver(_ activityID: String, undo: (isolated NookModule) -> Void) async throws -> NookDelivery {
        guard await readyToSend() else {
            try ensureUsable()
            return .queued
        }
        do {
            try await reconcile(activityID)
            return .delivered
        } catch .away {
            try ensureUsable()
            return .queued
        } catch .refused(let error) {
            undo(self)
            // Dismissed while this call was on its way: the activity is gone for good.
            if error.code == .activityDismissed {
                forgetDismissed(activityID)
                throw unknownActivity(activityID)
            }
            throw error
        }
    }

    /// Sends `SetContent` / `ClearContent` for every slot that differs from what the broker
    /// has. A refused slot goes back to the broker's version; the first refusal is thrown
    /// after the other slots were tried.
    func sendContent() async throws(SendFailure) {
        var refusal: NookModuleError?
        for slot in ModuleSlot.allCases {
            let wanted = configuration.content[slot]
            guard wanted != deliveredContent[slot] else { continue }
            do {
                if let wanted {
                    _ = try await send(ModulesMember.setContent.rawValue, [.string(slot.rawValue), wanted.rawView.wireValue])
                } else {
                    _ = try await send(ModulesMember.clearContent.rawValue, [.string(slot.rawValue)])
                }
                deliveredContent[slot] = wanted
            } catch .refused(let error) {
                configuration.restore(slot, to: deliveredContent[slot])
                refusal = refusal ?? error
            } catch .away {
                throw .away
            }
        }
        if let refusal { throw .refused(refusal) }
    }

    /// Brings the broker's copy of one activity in line with the model: an end, a start (also
    /// the replay after a reconnect), or an update carrying only what changed.
    func reconcile(_ activityID: String) async throws(SendFailure) {
        guard let entry = entries[activityID] else { return }
        let key = DBusValue.string(activityID)
        if let dismissal = entry.ending {
            do {
                _ = try await send(ModulesMember.endActivity.rawValue, [key, WireCodec.vardict(dismissal.endOptions)])
            } catch .refused(let error) where error.code == .unknownActivity {
                // Already gone (a broker that never had it, or its grace ran out): done.
            }
            entries[activityID] = nil
            startOrder.removeAll { $0 == activityID }
            return
        }
        let activity = entry.activity
        let options = entry.options
        if let delivered = entry.delivered {
            guard delivered != activity || options != UpdateOptions() else { return }
            do {
                let changes = activity.changes(since: delivered, sequence: nextSequence(activityID), options: options)
                _ = try await send(ModulesMember.updateActivity.rawValue, [key, WireCodec.vardict(changes)])
            } catch .refused(let error) where error.code == .unknownActivity {
                // The broker dropped it (the module was away longer than its grace): start anew.
                // One a person dismissed is refused with ActivityDismissed, and stays gone.
                guard !dismissedIDs.contains(activityID) else { throw .refused(unknownActivity(activityID)) }
                _ = try await send(ModulesMember.startActivity.rawValue, [key, WireCodec.vardict(activity.startSpec(sequence: nextSequence(activityID)))])
            }
        } else {
            do {
                _ = try await send(ModulesMember.startActivity.rawValue, [key, WireCodec.vardict(activity.startSpec(sequence: nextSequence(activityID)))])
            } catch .refused(let error) where error.code == .activityExists {
                // Still live on a broker that did not restart (a cut-short sync): send it all.
                let changes = activity.changes(since: nil, sequence: nextSequence(activityID), options: options)
                _ = try await send(ModulesMember.updateActivity.rawValue, [key, WireCodec.vardict(changes)])
            }
        }
        entries[activityID]?.delivered = activity
        entries[activityID]?.options = UpdateOptions()
    }

    func nextSequence(_ activityID: String) -> UInt64 { entries[activityID]?.nextSequence() ?? 0 }

    /// After a reconnect: ends the activities the broker kept for this module that the module
    /// no longer has (ended while the broker was down, before it saved the end).
    func endStrays() async throws(SendFailure) {
        let reply = try await send(ControlMember.getState.rawValue, [], interface: Self.controlInterface)
        guard let state = reply.first, let record = try? WireCodec.dictionary(state, at: "state"),
            case .array(let pairs)? = record["activities"]
        else { return }
        for pair in pairs {
            guard case .structure(let fields) = pair, fields.count == 2, case .string(let module) = fields[0],
                case .string(let activityID) = fields[1], module == id, entries[activityID] == nil
            else { continue }
            do {
                _ = try await send(ModulesMember.endActivity.rawValue, [.string(activityID), WireCodec.vardict(NookDismissal.immediate.endOptions)])
            } catch .refused {
                continue
            }
        }
    }

    /// One call to the broker instance the module follows.
    @discardableResult
    func send(_ member: String, _ arguments: [DBusValue], interface: String = NookModule.modulesInterface)
        async throws(SendFailure) -> [DBusValue]
    {
        guard let owner = broker, !isClosed else { throw .away }
        let connection = self.connection
        do {
            return try await connection.call(
                destination: owner, path: Self.objectPath, interface: interface, member: member, arguments: arguments)
        } catch let error as DBusError where !Self.brokerAwayErrors.contains(error.name) {
            throw .refused(NookModuleError(error))
        } catch {
            // Not there, or not answering: register and resend everything once it answers.
            if registeredWith == owner { registeredWith = nil }
            if await !connection.isOpen, connection === self.connection { busClosed() }
            throw .away
        }
    }
}
