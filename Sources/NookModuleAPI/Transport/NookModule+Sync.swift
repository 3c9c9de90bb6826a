import NookCore
import NookBus

// Steps 3 and 4 of how a module keeps the broker in step (NookModule+Link.swift): the
// module's wishes are a model, and a delivery sends the current broker the difference
// between the model and what it received, behind one gate so deliveries keep call order.

extension NookModule {
    // MARK: The gate

    func enterGate() async {
        if gate.tryEnter() { return }
        await withCheckedContinuation { continuation in
            // Tried again where the waiter is stored: the body may run in a later turn than
            // the first try (BusConnection.waitUntilClosed), and a gate left in between has no
            // waiter to pass to and opens.
            if gate.tryEnter() { continuation.resume() } else { gate.enqueue(continuation) }
        }
    }

    func leaveGate() { gate.leave() }

    // MARK: Synchronising

    /// Registers with the current broker and sends the whole model. Call with the gate held.
    /// - Parameter initial: true from `connect`: a refusal is thrown rather than reported.
    func synchronizeLocked(initial: Bool) async throws(NookModuleError) {
        guard let owner = broker else { return }
        let reconnect = everRegistered
        do throws(SendFailure) {
            _ = try await send(NookContract.Modules.register, [.string(id), WireCodec.vardict(configuration.registerInfo)])
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
                    _ = try await send(NookContract.Modules.clearContent, [.string(slot.rawValue)])
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
                    _ = try await send(NookContract.Modules.setContent, [.string(slot.rawValue)], view: wanted.view)
                } else {
                    _ = try await send(NookContract.Modules.clearContent, [.string(slot.rawValue)])
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
                _ = try await send(NookContract.Modules.endActivity, [key, WireCodec.vardict(dismissal.endOptions)])
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
                let changes = activity.wireChanges(since: delivered, sequence: nextSequence(activityID), options: options)
                _ = try await send(NookContract.Modules.updateActivity, [key], record: changes)
            } catch .refused(let error) where error.code == .unknownActivity {
                // The broker dropped it (the module was away longer than its grace): start anew.
                // One a person dismissed is refused with ActivityDismissed, and stays gone.
                guard !dismissedIDs.contains(activityID) else { throw .refused(unknownActivity(activityID)) }
                _ = try await send(NookContract.Modules.startActivity, [key], record: activity.wireStartSpec(sequence: nextSequence(activityID)))
            }
        } else {
            do {
                _ = try await send(NookContract.Modules.startActivity, [key], record: activity.wireStartSpec(sequence: nextSequence(activityID)))
            } catch .refused(let error) where error.code == .activityExists {
                // Still live on a broker that did not restart (a cut-short sync): send it all.
                let changes = activity.wireChanges(since: nil, sequence: nextSequence(activityID), options: options)
                _ = try await send(NookContract.Modules.updateActivity, [key], record: changes)
            }
        }
        entries[activityID]?.delivered = activity
        entries[activityID]?.options = UpdateOptions()
    }

    func nextSequence(_ activityID: String) -> UInt64 { entries[activityID]?.nextSequence() ?? 0 }

    /// After a reconnect: ends the activities the broker kept for this module that the module
    /// no longer has (ended while the broker was down, before it saved the end).
    func endStrays() async throws(SendFailure) {
        let reply = try await send(NookContract.Control.getState, [])
        guard let state = reply.first, let record = try? WireCodec.dictionary(state, at: "state"),
            case .array(let pairs)? = record["activities"]
        else { return }
        for pair in pairs {
            guard case .structure(let fields) = pair, fields.count == 2, case .string(let module) = fields[0],
                case .string(let activityID) = fields[1], module == id, entries[activityID] == nil
            else { continue }
            do {
                _ = try await send(NookContract.Modules.endActivity, [.string(activityID), WireCodec.vardict(NookDismissal.immediate.endOptions)])
            } catch .refused {
                continue
            }
        }
    }

    /// One call to the broker instance the module follows; `record` or `view`, when given, is
    /// its last argument (an activity's spec or changes, a content view), written into the
    /// message as it is, views straight from their props.
    @discardableResult
    func send(_ method: ContractMethod, _ arguments: [DBusValue], record: WireRecord? = nil, view: ViewNode? = nil)
        async throws(SendFailure) -> [DBusValue]
    {
        guard let owner = broker, !isClosed else { throw .away }
        let connection = self.connection
        do {
            if let record {
                return try await connection.call(
                    destination: owner, path: Self.objectPath, interface: method.interface, member: method.name, arguments: arguments,
                    vardict: record.fields, views: record.views)
            }
            if let view {
                return try await connection.call(
                    destination: owner, path: Self.objectPath, interface: method.interface, member: method.name, arguments: arguments, view: view)
            }
            return try await connection.call(
                destination: owner, path: Self.objectPath, interface: method.interface, member: method.name, arguments: arguments)
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
