/// When each shown notification expires. One timer serves them all (`Publisher`): it sleeps
/// until the earliest deadline, so a replacement that moves its notification's deadline
/// later leaves the timer alone. (A timer per notification, cancelled and made anew by every
/// replacement, woke two more threads each time a progress script sent a step.)
struct ExpiryDeadlines: Sendable {
    struct Deadline: Equatable, Sendable {
        var at: ContinuousClock.Instant
        /// The table's generation of the notification when it was shown: an expiry for an
        /// older one is ignored (`NotificationTable.expire`).
        var generation: UInt64
    }

    private(set) var byID: [UInt32: Deadline] = [:]

    mutating func set(_ id: UInt32, at: ContinuousClock.Instant, generation: UInt64) {
        byID[id] = Deadline(at: at, generation: generation)
    }

    mutating func remove(_ id: UInt32) { byID[id] = nil }

    /// The soonest deadline, nil when nothing expires.
    var earliest: ContinuousClock.Instant? { byID.values.lazy.map(\.at).min() }

    /// Removes and returns the notifications due at `now`, soonest first.
    mutating func takeDue(at now: ContinuousClock.Instant) -> [(id: UInt32, generation: UInt64)] {
        let due = byID.filter { $0.value.at <= now }.sorted { ($0.value.at, $0.key) < ($1.value.at, $1.key) }
        for (id, _) in due { byID[id] = nil }
        return due.map { (id: $0.key, generation: $0.value.generation) }
    }
}
