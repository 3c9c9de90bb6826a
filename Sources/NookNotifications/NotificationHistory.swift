import NookBus

/// The newest closed notifications, oldest first: pure bookkeeping, no bus, no clock, no file.
///
/// Every notification that closes (expired, dismissed, closed by its app, or live when the
/// bridge left) is appended; beyond `capacity` the oldest go. `nookctl notifications list`
/// reads it, `restore` takes the newest back out, `clear` empties it.
public struct NotificationHistory: Sendable, Equatable {
    /// The most entries `--history` allows (a file of them stays a few megabytes at most).
    public static let maxCapacity = 500
    public static let defaultCapacity = 50

    /// One closed notification, as stored and as `History()` returns it.
    public struct Entry: Codable, Hashable, Sendable {
        public var id: UInt32
        public var appName: String
        public var appIcon: String
        public var summary: String
        public var body: String
        /// `Urgency`'s raw value, 0...2.
        public var urgency: UInt8
        /// `CloseReason`'s raw value, 1...4.
        public var reason: UInt32
        /// When it closed, unix microseconds.
        public var closedAt: Int64

        public init(id: UInt32, request: NotificationRequest, reason: CloseReason, closedAt: Int64) {
            self.id = id
            appName = request.appName
            appIcon = request.appIcon
            summary = request.summary
            body = request.body
            urgency = request.urgency.rawValue
            self.reason = reason.rawValue
            self.closedAt = closedAt
        }

        /// What restoring it posts: the same app, icon, text and urgency, no actions (its app
        /// may be gone), `expire_timeout` -1 (the server's default). The text is already plain
        /// (markup taken out when it arrived), so it is set as it is, not read as markup again.
        public var request: NotificationRequest {
            get throws {
                var request = try NotificationRequest(arguments: [
                    .string(appName), .uint32(0), .string(appIcon), .string(""), .string(""),
                    .array(element: "s", []), .vardict(["urgency": .byte(urgency)]), .int32(-1),
                ])
                request.summary = summary
                request.body = body
                return request
            }
        }

        /// Why this entry (read from a file) is not one the bridge could have written; nil
        /// when it is. Every field is held to the bounds `Notify` applies (docs/notifications.md).
        public var problem: String? {
            if id == 0 { return "id: 0 is never a notification's id" }
            if appName.utf8.count > NotificationRequest.maxAppNameBytes { return "appName: over \(NotificationRequest.maxAppNameBytes) bytes" }
            if appIcon.utf8.count > NotificationRequest.maxPathBytes { return "appIcon: over \(NotificationRequest.maxPathBytes) bytes" }
            // The summary may carry the ellipsis its cut added.
            if summary.utf8.count > NotificationRequest.maxSummaryBytes + 3 { return "summary: over \(NotificationRequest.maxSummaryBytes) bytes" }
            if body.utf8.count > NotificationRequest.maxBodyBytes + 3 { return "body: over \(NotificationRequest.maxBodyBytes) bytes" }
            if Urgency(rawValue: urgency) == nil { return "urgency: \(urgency) is not 0, 1 or 2" }
            if CloseReason(rawValue: reason) == nil { return "reason: \(reason) is not 1...4" }
            if closedAt < 0 { return "closedAt: negative" }
            return nil
        }

        /// `History()`'s `a{sv}`: `id` u, `app_name` s, `app_icon` s, `summary` s, `body` s,
        /// `urgency` y, `reason` u, `closed_at` x (unix µs).
        public var vardict: DBusValue {
            .vardict([
                "id": .uint32(id), "app_name": .string(appName), "app_icon": .string(appIcon), "summary": .string(summary),
                "body": .string(body), "urgency": .byte(urgency), "reason": .uint32(reason), "closed_at": .int64(closedAt),
            ])
        }
    }

    public let capacity: Int
    /// Oldest first.
    public private(set) var entries: [Entry] = []

    /// `capacity` is clamped to 0...`maxCapacity` (0 keeps nothing).
    public init(capacity: Int = defaultCapacity, entries: [Entry] = []) {
        self.capacity = min(max(0, capacity), Self.maxCapacity)
        self.entries = Array(entries.suffix(self.capacity))
    }

    public mutating func append(_ entry: Entry) {
        guard capacity > 0 else { return }
        entries.append(entry)
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
    }

    /// Takes the newest entry out (what `Restore()` posts again); nil when empty.
    public mutating func popNewest() -> Entry? { entries.popLast() }

    public mutating func clear() { entries = [] }
}

/// The history file's JSON: `{"format": "nook-notifications-history", "version": 1, "entries": [...]}`.
public struct HistoryFileContent: Codable, Sendable, Equatable {
    public static let formatName = "nook-notifications-history"
    public static let currentVersion = 1
    public var format: String
    public var version: Int
    public var entries: [NotificationHistory.Entry]

    public init(entries: [NotificationHistory.Entry]) {
        format = Self.formatName
        version = Self.currentVersion
        self.entries = entries
    }

    /// Why this content is refused whole (the wrong format or version, an entry the bridge
    /// could not have written, more entries than any history keeps); nil when it is fine.
    public var problem: String? {
        guard format == Self.formatName, version == Self.currentVersion else { return "unsupported format \"\(format)\" version \(version)" }
        guard entries.count <= NotificationHistory.maxCapacity else { return "\(entries.count) entries, over \(NotificationHistory.maxCapacity)" }
        for (index, entry) in entries.enumerated() {
            if let problem = entry.problem { return "entries[\(index)].\(problem)" }
        }
        return nil
    }
}
