import NookBus
import NookCore

/// What `GetState` answers and `StateChanged` broadcasts (contract 1.1: `items`, `modules`),
/// and the coalescing of those broadcasts: at most one per `StateBroadcast.interval` while the
/// state changes, and always one carrying the final state; within `BroadcastLimits` (a capped
/// record, a byte budget, a pause while the bus daemon holds too much of nookd's output).
struct StateBroadcast {
    /// The shortest gap between two `StateChanged` signals.
    static let interval = 0.05
    /// The bus thread's timer for the next broadcast (nil: none is due). A timer of the bus
    /// thread rather than a sleeping task: the task woke a pool thread and the dispatch timer
    /// thread 20 times a second while modules publish, each competing with the bus thread.
    var pending: BusExecutor.TimerID?
    var lastSent: [String: DBusValue]?
    var lastSentAt: BrokerTime?
    /// The `Presentation` and `ReduceMotion` values last announced with `PropertiesChanged`.
    var announcedPresentation: String?
    var announcedReduceMotion: Bool?
    /// Broadcast bytes (`BroadcastLimits.bytesPerSecond`).
    var budget: ByteBudget
    /// True while the bus daemon holds `maxHeldBytes` or more of nookd's messages unread:
    /// nothing is broadcast until it holds less than half of that.
    var paused = false
    /// The last time the daemon was asked what it holds, and whether an answer is awaited.
    var heldCheckedAt: BrokerTime?
    var checkingHeld = false
    /// What the daemon holds at most by now, were nobody to read: its last answer plus every
    /// broadcast since the question (nil before the first answer). A broadcast that would take
    /// it to `maxHeldBytes` pauses at once, rather than at the next answer, a second later.
    var heldEstimate: Int?
    /// Broadcast bytes since the pending question was asked.
    var sentSinceAsked = 0
    /// The daemon has no `Debug.Stats` (another build, dbus-broker): the pause never applies.
    var heldBytesUnknown = false
    /// The pause was logged (once per pause).
    var warnedHeld = false
    let limits: BroadcastLimits

    init(limits: BroadcastLimits) {
        self.limits = limits
        budget = ByteBudget(rate: limits.bytesPerSecond, burst: max(limits.burstBytes, limits.maxRecordBytes), at: .zero)
    }
}

extension Broker {
    /// The `a{sv}` of `GetState`: everything, each list whole.
    func stateRecord() -> [String: DBusValue] {
        let order = registry.displayOrder
        var state = stateHeader(order)
        state["activities"] = .array(element: "(ss)", order.map(Self.activityEntry))
        state["items"] = .array(element: "a{sv}", order.enumerated().compactMap { stateItem($1, index: $0, labelBytes: nil) })
        let byModule = Self.activitiesByModule(order)
        state["modules"] = .array(element: "a{sv}", registry.modules.keys.sorted().compactMap { stateModule($0, byModule) })
        return state
    }

    /// The `a{sv}` of `StateChanged`: `stateRecord()` within `BroadcastLimits` (labels cut to
    /// `maxLabelBytes`; `items` and `activities` the first activities in display order that fit
    /// in half of `maxRecordBytes`, `modules` the first modules by id that fit in the other
    /// half; `truncated` true when anything was left out). It costs the display order and the
    /// entries it carries, whatever the number of activities and the length of their labels.
    /// - Returns: the record and its size in bytes as the body of a signal.
    func broadcastRecord() -> (record: [String: DBusValue], bytes: Int) {
        let limits = stateBroadcast.limits
        let order = registry.displayOrder
        var state = stateHeader(order)
        let half = limits.maxRecordBytes / 2
        var bytes = DBusValue.vardict(state).marshalledSize
        var truncated = false
        // Activities: an item and an `activities` entry each, while they fit.
        var items: [DBusValue] = [], activities: [DBusValue] = []
        var listed = 0
        for (index, ref) in order.enumerated() {
            guard let item = stateItem(ref, index: index, labelBytes: limits.maxLabelBytes) else { continue }
            let entry = Self.activityEntry(ref)
            // Each list entry: its own size, and up to 8 bytes of alignment.
            let cost = item.marshalledSize + entry.marshalledSize + 16
            guard listed + cost <= half else {
                truncated = true
                break
            }
            listed += cost
            items.append(item)
            activities.append(entry)
        }
        state["items"] = .array(element: "a{sv}", items)
        state["activities"] = .array(element: "(ss)", activities)
        // Modules, by id, while they fit in the other half.
        let byModule = Self.activitiesByModule(order)
        var modules: [DBusValue] = []
        var moduleBytes = 0
        for id in registry.modules.keys.sorted() {
            guard let module = stateModule(id, byModule) else { continue }
            let cost = module.marshalledSize + 8
            guard moduleBytes + cost <= half else {
                truncated = true
                break
            }
            moduleBytes += cost
            modules.append(module)
        }
        state["modules"] = .array(element: "a{sv}", modules)
        if truncated { state["truncated"] = .bool(true) }
        bytes += listed + moduleBytes + 64
        return (state, bytes)
    }

    /// The record's fields besides its three lists.
    private func stateHeader(_ order: [ActivityRef]) -> [String: DBusValue] {
        var focus = machine.state.focus
        if machine.state == .pill || machine.state == .hidden {
            // The pill shows the primary activity, or the module whose compact content it shows.
            focus = (order.first?.module ?? registry.compactContentModule ?? "", order.first?.activity ?? "")
        }
        var state: [String: DBusValue] = [
            "presentation": .string(machine.state.presentation.rawValue),
            "module": .string(focus.module),
            "activity": .string(focus.activity),
            "reduce_motion": .bool(settings.reduceMotion),
            "serial": .uint64(serial),
            "persistence": .string(persistenceError == nil ? "ok" : "failing"),
        ]
        if let persistenceError { state["persistence_error"] = .string(persistenceError) }
        return state
    }

    private static func activityEntry(_ ref: ActivityRef) -> DBusValue {
        .structure([.string(ref.module), .string(ref.activity)])
    }

    /// One activity's record. `role`: `primary` beside the notch, `secondary` in a capsule,
    /// `none` while the nook is hidden. `labelBytes`: the label's longest form (nil: whole).
    private func stateItem(_ ref: ActivityRef, index: Int, labelBytes: Int?) -> DBusValue? {
        guard let activity = registry.activity(ref) else { return nil }
        let role = machine.state == .hidden ? "none" : index == 0 ? "primary" : "secondary"
        let label = labelBytes.map { Self.prefix(of: activity.accessibilityLabel, bytes: $0) } ?? activity.accessibilityLabel
        return .vardict([
            "module": .string(ref.module), "activity": .string(ref.activity),
            "accessibility_label": .string(label), "relevance": .double(activity.relevance),
            "stale": .bool(activity.isStale), "role": .string(role),
        ])
    }

    /// Each module's activities in display order, in one pass over the order.
    private static func activitiesByModule(_ order: [ActivityRef]) -> [String: [DBusValue]] {
        var byModule: [String: [DBusValue]] = [:]
        for ref in order { byModule[ref.module, default: []].append(.string(ref.activity)) }
        return byModule
    }

    /// One registered module's record; its activities in display order.
    private func stateModule(_ id: String, _ byModule: [String: [DBusValue]]) -> DBusValue? {
        guard let module = registry.modules[id] else { return nil }
        return .vardict([
            "module": .string(id), "display_name": .string(module.info.displayName),
            "connected": .bool(module.owner.connection != nil), "activities": .array(element: "s", byModule[id] ?? []),
        ])
    }

    /// The longest prefix of `text` of at most `bytes` UTF-8 bytes, ending at a character boundary.
    static func prefix(of text: String, bytes: Int) -> String {
        guard text.utf8.count > bytes else { return text }
        var end = text.startIndex
        var count = 0
        for index in text.indices {
            let next = text.index(after: index)
            let size = text.utf8.distance(from: index, to: next)
            guard count + size <= bytes else { break }
            count += size
            end = next
        }
        return String(text[..<end])
    }

    /// Something a status bar may show changed: a `StateChanged` goes out within
    /// `StateBroadcast.interval` (later when the byte budget says so), carrying the state as
    /// it is then.
    func noteStateChange() {
        guard stateBroadcast.pending == nil else { return }
        let wait = stateBroadcast.lastSentAt.map { max(0, $0.seconds + StateBroadcast.interval - now.seconds) } ?? 0
        armBroadcast(after: wait)
    }

    private func armBroadcast(after wait: Double) {
        if let pending = stateBroadcast.pending { connection.executor.cancel(pending) }
        stateBroadcast.pending = connection.executor.runOnce(after: .microseconds(Int64((wait * 1_000_000).rounded(.up)))) { [weak self] in
            // On the bus thread: the actor's own executor.
            self?.assumeIsolated { $0.broadcastState() }
        }
    }

    private func broadcastState() {
        stateBroadcast.pending = nil
        // Paused: the answer that ends the pause broadcasts the state as it is then.
        guard !stateBroadcast.paused else { return }
        // The daemon is not keeping up with what nookd writes (or has stopped reading it):
        // adding a broadcast would only put it in front of the replies.
        let queued = connection.assumeIsolated { $0.queuedWrites }
        guard queued <= UInt64(max(0, stateBroadcast.limits.maxQueuedWrites)) else {
            return armBroadcast(after: StateBroadcast.interval)
        }
        let now = self.now
        var signals: [(member: String, bytes: Int, send: (isolated BusConnection) throws -> Void)] = []
        let path = self.path
        let presentation = machine.state.presentation.rawValue
        var changed: [String: DBusValue] = [:]
        if stateBroadcast.announcedPresentation.map({ $0 != presentation }) ?? false {
            changed[ControlMember.presentation.rawValue] = .string(presentation)
        }
        if stateBroadcast.announcedReduceMotion.map({ $0 != settings.reduceMotion }) ?? false {
            changed[ControlMember.reduceMotion.rawValue] = .bool(settings.reduceMotion)
        }
        if !changed.isEmpty {
            let properties = changed
            signals.append(("PropertiesChanged", DBusValue.vardict(properties).marshalledSize + 64, { bus in
                try bus.emitPropertiesChanged(path: path, interface: NookNames.controlInterface, changed: properties)
            }))
        }
        let (record, recordBytes) = broadcastRecord()
        if record != stateBroadcast.lastSent {
            signals.append((ControlMember.stateChanged.rawValue, recordBytes, { bus in
                try bus.emit(NookContract.Control.stateChanged, [.vardict(record)], from: path)
            }))
        }
        guard !signals.isEmpty else { return }
        let bytes = signals.reduce(0) { $0 + $1.bytes }
        let wait = stateBroadcast.budget.wait(for: bytes, at: now)
        guard wait <= 0 else { return armBroadcast(after: max(wait, StateBroadcast.interval)) }
        // This broadcast could take what the daemon holds to the limit, were nobody to read it
        // (a pause answered a second late let a fast flood run far past it): ask first.
        if let estimate = stateBroadcast.heldEstimate, estimate + bytes >= stateBroadcast.limits.maxHeldBytes {
            stateBroadcast.paused = true
            stateBroadcast.heldEstimate = nil
            checkHeldBytes()
            return
        }
        for signal in signals {
            do {
                try connection.assumeIsolated { try signal.send($0) }
            } catch {
                log(.warning, "could not broadcast \(signal.member): \(error)")
                return
            }
        }
        stateBroadcast.budget.spend(bytes, at: now)
        stateBroadcast.heldEstimate = stateBroadcast.heldEstimate.map { $0 + bytes }
        stateBroadcast.sentSinceAsked += bytes
        stateBroadcast.announcedPresentation = presentation
        stateBroadcast.announcedReduceMotion = settings.reduceMotion
        stateBroadcast.lastSent = record
        stateBroadcast.lastSentAt = now
        checkHeldBytesIfDue()
    }

    /// Asks the bus daemon how much of nookd's output it holds, at most once per
    /// `BroadcastLimits.heldBytesCheckInterval`.
    private func checkHeldBytesIfDue() {
        if let last = stateBroadcast.heldCheckedAt, now.seconds - last.seconds < BroadcastLimits.heldBytesCheckInterval { return }
        checkHeldBytes()
    }

    /// Asks the bus daemon how much of nookd's output it holds (unless a question is pending).
    private func checkHeldBytes() {
        guard !stateBroadcast.heldBytesUnknown, !stateBroadcast.checkingHeld else { return }
        stateBroadcast.checkingHeld = true
        stateBroadcast.heldCheckedAt = now
        stateBroadcast.sentSinceAsked = 0
        let connection = self.connection
        Task { [weak self] in
            let held: Result<Int, any Error>
            do { held = .success(try await connection.bytesHeldByBus()) } catch { held = .failure(error) }
            await self?.heldBytesKnown(held)
        }
    }

    /// What a bus daemon without `Debug.Stats` (or one that keeps them from nookd) answers.
    private static let withoutStatistics: Set<String> = [
        DBusError.StandardError.unknownMethod, .unknownInterface, .unknownObject, .accessDenied, .notSupported, .serviceUnknown,
    ].map(\.rawValue).reduce(into: []) { $0.insert($1) }

    /// The daemon's answer: pause broadcasts at `maxHeldBytes`, resume below half of it.
    private func heldBytesKnown(_ answer: Result<Int, any Error>) {
        stateBroadcast.checkingHeld = false
        let limit = stateBroadcast.limits.maxHeldBytes
        switch answer {
        case .failure(let error as DBusError) where Self.withoutStatistics.contains(error.name):
            // No statistics on this bus (or not for us): the byte budget is the bound.
            stateBroadcast.heldBytesUnknown = true
            log(.info, "the bus daemon does not say how much of nookd's output it holds (\(error.name)); broadcasts are bounded by their byte budget alone")
            if stateBroadcast.paused {
                stateBroadcast.paused = false
                noteStateChange()
            }
            return
        case .failure:
            // No answer in time: ask again later.
            break
        case .success(let held):
            stateBroadcast.heldEstimate = held + stateBroadcast.sentSinceAsked
            if held >= limit { stateBroadcast.paused = true }
            guard stateBroadcast.paused else { break }
            // Paused (by the estimate, or now): they resume only well below the limit.
            if held < limit / 2 {
                stateBroadcast.paused = false
                log(stateBroadcast.warnedHeld ? .info : .debug, "the bus daemon holds \(held) bytes of nookd's messages; broadcasts resume")
                stateBroadcast.warnedHeld = false
                noteStateChange()
            } else if !stateBroadcast.warnedHeld {
                stateBroadcast.warnedHeld = true
                log(.warning, "the bus daemon holds \(held) bytes of nookd's messages that some connection has not read (a listener that stopped reading?); StateChanged and PropertiesChanged pause until it holds less than \(limit / 2)")
            }
        }
        guard stateBroadcast.paused else { return }
        connection.executor.runOnce(after: .seconds(BroadcastLimits.heldBytesCheckInterval)) { [weak self] in
            self?.assumeIsolated { $0.checkHeldBytesIfDue() }
        }
    }
}
