import NookBus

/// One job a KDE app reports through the job view protocol (`JobViewBridge`): a copy, a move,
/// a download. Every value is read and bounded: text at most 200 characters, the percent
/// clamped to 0...100, byte counts used only to work out a percent when none is given.
public struct KDEJob: Hashable, Sendable {
    /// The app as the user knows it: its `.desktop` file's `Name`, else what it called itself.
    public var application: String
    public var title: String?
    public var infoMessage: String?
    /// 0...1, when the job has said.
    public var progress: Double?
    public var suspended = false
    /// Whether its app can stop it on request (KJob's `Killable` capability): the nook then
    /// offers "Cancel".
    public var killable = false

    public init(application: String) { self.application = Self.bounded(application) ?? "An app" }

    static func bounded(_ text: String) -> String? {
        let trimmed = text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
        return trimmed.isEmpty ? nil : String(String(trimmed).prefix(200))
    }

    /// `JobViewV3.update` and `JobViewServerV2.requestView`'s hints: `title`, `infoMessage`,
    /// `percent` (u), `suspended` (b), and `processedBytes`/`totalBytes` (t) when no percent
    /// comes. Other keys, and values of other types, are ignored.
    public mutating func apply(_ update: [String: DBusValue]) {
        if case .string(let text)? = update["title"] { title = Self.bounded(text) }
        if case .string(let text)? = update["infoMessage"] { infoMessage = Self.bounded(text) }
        if case .bool(let value)? = update["suspended"] { suspended = value }
        if let percent = Self.number(update["percent"]) {
            setPercent(percent)
        } else if let done = Self.number(update["processedBytes"]), let total = Self.number(update["totalBytes"]), total > 0 {
            // Whole percents, as the nook shows them: a byte count that moves every few
            // milliseconds changes the activity a hundred times at most.
            progress = (min(max(done / total, 0), 1) * 100).rounded(.down) / 100
        }
    }

    /// `JobViewV2.setPercent`.
    public mutating func setPercent(_ percent: Double) {
        progress = percent.isFinite ? min(max(percent, 0), 100) / 100 : 0
    }

    static func number(_ value: DBusValue?) -> Double? {
        switch value {
        case .uint32(let v)?: Double(v)
        case .int32(let v)?: Double(v)
        case .uint64(let v)?: Double(v)
        case .int64(let v)?: Double(v)
        case .double(let v)?: v.isFinite ? v : nil
        default: nil
        }
    }

    /// What the nook says while it runs: the app, then what the job is doing.
    public var label: String {
        guard let what = title ?? infoMessage else { return application }
        return "\(application): \(what)"
    }
}
