/// The live notifications by id: pure bookkeeping, no bus and no clock.
///
/// Ids start at 1 and only grow (wrapping past `UInt32.max` back to 1, skipping any still
/// live). Every change is queued in `pending` (each id once, in order) for the publisher to
/// apply; many changes to one id before the publisher runs are coalesced into the last.
public struct NotificationTable: Sendable {
    public struct Entry: Hashable, Sendable {
        public var request: NotificationRequest
        /// Bumped by every `Notify` for the id: an expiry timer of an older generation is void.
        public var generation: UInt64
        /// The bus connection that sent it (its latest `Notify`): the only one that may close it.
        public var sender: String
    }

    /// What the publisher does next for one id.
    public enum Change: Hashable, Sendable {
        /// Start or update its activity.
        case show(UInt32, Entry)
        /// End its activity and emit `NotificationClosed`.
        case close(UInt32, CloseReason)
    }

    /// The most notifications kept live; a `Notify` beyond it ends the oldest non-critical one
    /// (else the oldest) with reason 1.
    public let capacity: Int
    public private(set) var entries: [UInt32: Entry] = [:]
    /// Live ids, oldest first.
    public private(set) var order: [UInt32] = []
    private var pending: [UInt32: Change] = [:]
    private var pendingOrder: [UInt32] = []
    /// The requests of withdrawn notifications whose close the publisher has not taken yet:
    /// what goes into the history (`takePendingWithClosed`).
    private var withdrawn: [UInt32: NotificationRequest] = [:]
    private var lastID: UInt32 = 0
    private var generations: UInt64 = 0

    public init(capacity: Int = 32) { self.capacity = max(1, capacity) }

    /// A `Notify`: replaces a live `replacesID` of the same app in place, else takes a new id.
    /// - Returns: the notification's id (the reply to `Notify`).
    public mutating func notify(_ request: NotificationRequest, sender: String = "") -> UInt32 {
        let id = reserveID(replacing: request.replacesID, appName: request.appName)
        notify(request, as: id, sender: sender)
        return id
    }

    /// The id a `Notify` replacing `replacesID` gets, before its request is read: that id
    /// when it is live and was sent under the same `app_name` (one app cannot rewrite another's
    /// notification in place, docs/security.md), else a new one. `notify(_:as:sender:)` with
    /// it must come before the next reserve.
    /// `synchronous`: the `x-canonical-private-synchronous` hint's value; a live notification
    /// of the same `app_name` with the same value is replaced in place (what volume scripts
    /// send), when `replacesID` names none.
    public mutating func reserveID(replacing replacesID: UInt32, appName: String, synchronous: String? = nil) -> UInt32 {
        guard replacesID != 0, let live = entries[replacesID], live.request.appName == appName.prefixBytes(NotificationRequest.maxAppNameBytes) else {
            if let synchronous, let id = synchronousID(synchronous, appName: appName) { return id }
            return nextID()
        }
        return replacesID
    }

    /// Records `request` as notification `id` (from `reserveID`), sent by `sender`: in place
    /// when live, else as the newest, ending the oldest beyond `capacity`.
    public mutating func notify(_ request: NotificationRequest, as id: UInt32, sender: String = "") {
        generations &+= 1
        let isNew = entries[id] == nil
        let entry = Entry(request: request, generation: generations, sender: sender)
        entries[id] = entry
        if isNew {
            order.append(id)
            // Never the new one itself (when every other one was critical, picking it ended nothing, forever).
            while order.count > capacity,
                let victim = order.first(where: { $0 != id && entries[$0]?.request.urgency != .critical }) ?? order.first(where: { $0 != id }) {
                close(victim, .expired)
            }
        }
        queue(id, .show(id, entry))
    }

    /// `CloseNotification` from `sender`: ends `id` if it is live and `sender` sent it; false
    /// otherwise, the same answer as for an id that is not live, so a connection cannot
    /// learn which ids other apps hold.
    public mutating func close(_ id: UInt32, requestedBy sender: String) -> Bool {
        guard entries[id]?.sender == sender else { return false }
        return close(id, .closedByCall)
    }

    /// Ends `id` if it is live; false when it is not.
    @discardableResult
    public mutating func close(_ id: UInt32, _ reason: CloseReason) -> Bool {
        guard withdraw(id) else { return false }
        announceClose(id, reason)
        return true
    }

    /// Takes `id` out of the live notifications without announcing it yet: a press withdraws
    /// it before `ActionInvoked` goes out, so a `CloseNotification` that answers the signal
    /// finds it gone, and announces its close (`announceClose`) after the signal.
    /// - Returns: whether it was live.
    public mutating func withdraw(_ id: UInt32) -> Bool {
        guard let entry = entries.removeValue(forKey: id) else { return false }
        order.removeAll { $0 == id }
        withdrawn[id] = entry.request
        return true
    }

    /// Queues the end of a withdrawn `id` for the publisher (its activity ends, and
    /// `NotificationClosed` says `reason`).
    public mutating func announceClose(_ id: UInt32, _ reason: CloseReason) {
        queue(id, .close(id, reason))
    }

    /// A notification a rule ignores, as `id` (from `reserveID`): never shown, its close
    /// (reason 2, dismissed by the person's rule) announced at once; a live one it replaces ends.
    public mutating func drop(_ request: NotificationRequest, as id: UInt32) {
        _ = withdraw(id)
        withdrawn[id] = request
        announceClose(id, .dismissed)
    }

    /// Expires `id` if it is still live at `generation` (no later `Notify` replaced it).
    @discardableResult
    public mutating func expire(_ id: UInt32, generation: UInt64) -> Bool {
        guard entries[id]?.generation == generation else { return false }
        return close(id, .expired)
    }

    /// The queued changes, oldest first, and an empty queue.
    public mutating func takePending() -> [Change] { takePendingWithClosed().changes }

    /// The queued changes, oldest first, with the request of each one that closes (for the
    /// history); the queue is empty after.
    public mutating func takePendingWithClosed() -> (changes: [Change], closed: [UInt32: NotificationRequest]) {
        defer {
            pending = [:]
            pendingOrder = []
        }
        let changes = pendingOrder.compactMap { pending[$0] }
        var closed: [UInt32: NotificationRequest] = [:]
        for case .close(let id, _) in changes {
            if let request = withdrawn.removeValue(forKey: id) { closed[id] = request }
        }
        return (changes, closed)
    }

    private mutating func queue(_ id: UInt32, _ change: Change) {
        // The latest change of an id goes last, so closes are announced in the order they
        // happened; a close after a show never published still ends (and is announced).
        if pending[id] != nil { pendingOrder.removeAll { $0 == id } }
        pendingOrder.append(id)
        pending[id] = change
    }

    private mutating func nextID() -> UInt32 {
        repeat {
            lastID = lastID == .max ? 1 : lastID + 1
        } while entries[lastID] != nil
        return lastID
    }
}
