import NookBus

/// How urgent a notification is (the `urgency` hint): low never peeks, critical sorts first
/// and never expires.
public enum Urgency: UInt8, Hashable, Sendable {
    case low = 0, normal = 1, critical = 2
}

/// One action of a notification: the key sent back in `ActionInvoked`, and its label.
public struct NotificationAction: Hashable, Sendable {
    public let key: String
    public let label: String
}

/// One `Notify` call, read and bounded. Every field from the caller has a documented limit
/// (docs/notifications.md): over-long text is cut, extra actions are dropped, a broken hint
/// is ignored (and said in `problems`), never refused.
public struct NotificationRequest: Hashable, Sendable {
    /// Most actions kept besides `default`; the rest are dropped.
    public static let maxActions = 8
    public static let maxAppNameBytes = 128
    public static let maxSummaryBytes = 256
    public static let maxActionKeyBytes = 128
    public static let maxActionLabelBytes = 64
    /// The body's plain text is cut to this many bytes (the views show less).
    public static let maxBodyBytes = 1024
    public static let maxPathBytes = 4096

    public var appName: String
    public var replacesID: UInt32
    /// `app_icon`: an icon name, a path or a `file://` URI; empty for none.
    public var appIcon: String
    public var summary: String
    /// Plain text, markup stripped (NotificationMarkup).
    public var body: String
    /// At most `maxActions`, in the caller's order, without `default`.
    public var actions: [NotificationAction]
    /// The caller offered a `default` action (a press on the pill or the peek).
    public var hasDefaultAction: Bool
    /// The label of `default`, read as the controls' accessible name.
    public var defaultLabel: String
    public var urgency: Urgency
    /// The `value` hint, 0...100.
    public var progress: Int?
    /// `image-path` (or `image_path`), as given.
    public var imagePath: String?
    /// `image-data` (or `image_data`, `icon_data`).
    public var imageData: RawImage?
    /// `resident`: pressing an action does not close it.
    public var resident: Bool
    /// `expire_timeout` in milliseconds: -1 the server's default, 0 never.
    public var expireTimeout: Int32
    /// What was dropped or ignored, for the log.
    public var problems: [String]
    /// What the notification rules decided beyond urgency and timeout (NotificationRules.swift).
    public var ruleEffects = RuleEffects()
    /// The other hints the spec names (category, desktop-entry, transient, synchronous, sound).
    public var specHints: NotificationHints
    /// The body's markup as styled lines of runs (`BodyMarkup`); empty when nothing in it is
    /// styled, and `body` says it all.
    public var bodyRuns: [[BodyRun]]

    /// Reads `Notify(s app_name, u replaces_id, s app_icon, s summary, s body, as actions,
    /// a{sv} hints, i expire_timeout)`; the signature was checked by the export.
    /// `skippedByteArrays`: the byte arrays the bus left unread for their size (`MethodCall`).
    public init(arguments: [DBusValue], skippedByteArrays: [Int] = []) throws {
        guard arguments.count == 8,
            case .string(let appName) = arguments[0], case .uint32(let replacesID) = arguments[1],
            case .string(let appIcon) = arguments[2], case .string(let summary) = arguments[3],
            case .string(let body) = arguments[4], case .array(_, let actionValues) = arguments[5],
            case .int32(let expireTimeout) = arguments[7]
        else { throw DBusError(.invalidArgs, "Notify: expected arguments of signature 'susssasa{sv}i'") }
        problems = []
        self.appName = appName.prefixBytes(Self.maxAppNameBytes)
        self.replacesID = replacesID
        self.appIcon = appIcon.utf8.count <= Self.maxPathBytes ? appIcon : ""
        self.summary = NotificationMarkup.collapsed(summary.prefixBytes(4 * Self.maxSummaryBytes)).prefixBytes(Self.maxSummaryBytes, ellipsis: true)
        self.body = NotificationMarkup.plainText(body, maxBytes: Self.maxBodyBytes)
        self.bodyRuns = BodyMarkup.paragraphs(body, maxBytes: Self.maxBodyBytes)
        if body.utf8.count > Self.maxBodyBytes { problems.append("body of \(body.utf8.count) bytes cut to \(Self.maxBodyBytes)") }
        self.expireTimeout = expireTimeout

        var actions: [NotificationAction] = []
        var hasDefault = false
        var defaultLabel = ""
        let pairs = actionValues.count / 2
        if actionValues.count % 2 == 1 { problems.append("actions: an odd count (\(actionValues.count)); the last is ignored") }
        for pair in 0..<pairs {
            guard case .string(let key) = actionValues[2 * pair], case .string(let label) = actionValues[2 * pair + 1],
                !key.isEmpty, key.utf8.count <= Self.maxActionKeyBytes
            else { continue }
            if key == "default" {
                hasDefault = true
                defaultLabel = label.prefixBytes(Self.maxActionLabelBytes, ellipsis: true)
            } else if actions.count < Self.maxActions, !actions.contains(where: { $0.key == key }) {
                actions.append(NotificationAction(key: key, label: label.prefixBytes(Self.maxActionLabelBytes, ellipsis: true)))
            }
        }
        if pairs > Self.maxActions + (hasDefault ? 1 : 0) { problems.append("\(pairs) actions, the first \(Self.maxActions) kept") }
        self.actions = actions
        self.hasDefaultAction = hasDefault
        self.defaultLabel = defaultLabel.isEmpty ? "Open" : defaultLabel

        let hints = Self.hints(arguments[6])
        urgency = .normal
        if let value = hints["urgency"] {
            if let level = value.integer, let urgency = Urgency(rawValue: UInt8(clamping: max(0, level))) { self.urgency = urgency } else {
                problems.append("hint urgency: \(value.signature) value not 0, 1 or 2, read as normal")
            }
        }
        progress = hints["value"].flatMap(\.integer).map { Int(clamping: min(100, max(0, $0))) }
        resident = hints["resident"].flatMap(\.boolean) ?? false
        imagePath = nil
        if case .string(let path)? = hints["image-path"] ?? hints["image_path"], !path.isEmpty {
            if path.utf8.count <= Self.maxPathBytes { imagePath = path } else { problems.append("hint image-path longer than \(Self.maxPathBytes) bytes, ignored") }
        }
        specHints = NotificationHints(hints, problems: &problems)
        imageData = nil
        if let raw = hints["image-data"] ?? hints["image_data"] ?? hints["icon_data"] {
            do { imageData = try Self.rawImage(raw, skippedByteArrays: skippedByteArrays) } catch { problems.append("\(error)") }
        }
    }

    /// The hints by name, variants unwrapped; a non-dictionary yields none.
    static func hints(_ value: DBusValue) -> [String: DBusValue] {
        guard case .dictionary(_, _, let entries) = value else { return [:] }
        var out: [String: DBusValue] = [:]
        for entry in entries {
            guard case .string(let key) = entry.key else { continue }
            out[key] = entry.value.unwrappingVariants
        }
        return out
    }

    static func rawImage(_ value: DBusValue, skippedByteArrays: [Int] = []) throws(RawImage.Problem) -> RawImage {
        guard case .structure(let fields) = value, fields.count == 7,
            case .int32(let width) = fields[0], case .int32(let height) = fields[1], case .int32(let rowstride) = fields[2],
            case .bool(let alpha) = fields[3], case .int32(let bits) = fields[4], case .int32(let channels) = fields[5]
        else { throw RawImage.Problem(description: "image-data: expected '(iiibiiay)', got '\(value.signature)'") }
        guard (1...RawImage.maxSide).contains(width), (1...RawImage.maxSide).contains(height) else {
            throw RawImage.Problem(description: "image-data: \(width)x\(height) is outside 1...\(RawImage.maxSide) on a side")
        }
        if case .array(_, let items) = fields[6], items.isEmpty, let skipped = skippedByteArrays.max() {
            throw RawImage.Problem(description: "image-data: \(skipped) bytes of pixels, more than \(RawImage.maxPixelBytes); not read")
        }
        let pixels: [UInt8]
        switch fields[6] {
        case .array(_, let items):
            pixels = items.compactMap { if case .byte(let byte) = $0 { byte } else { nil } }
        default:
            throw RawImage.Problem(description: "image-data: pixels are not 'ay'")
        }
        return try RawImage(width: width, height: height, rowstride: rowstride, hasAlpha: alpha, bitsPerSample: bits, channels: channels, pixels: pixels)
    }
}

extension DBusValue {
    /// Any D-Bus integer (clients send `urgency` as `y`, `i` or `u`, `value` as `i` or `u`).
    var integer: Int64? {
        switch self {
        case .byte(let v): Int64(v)
        case .int16(let v): Int64(v)
        case .uint16(let v): Int64(v)
        case .int32(let v): Int64(v)
        case .uint32(let v): Int64(v)
        case .int64(let v): v
        case .uint64(let v): Int64(clamping: v)
        default: nil
        }
    }

    var boolean: Bool? {
        if case .bool(let value) = self { return value }
        return integer.map { $0 != 0 }
    }
}
