import NookCore

/// The `StartActivity` spec or `UpdateActivity` changes one `activity start`/`update` sends,
/// built at one instant from the flags, the views of `--view-json`, and the content nookctl
/// remembers from the previous call. Pure: the caller reads the clock and the files.
public struct ActivitySpec: Hashable, Sendable {
    public var values: [String: PropValue]
    /// What to remember for the next update.
    public var record: RecordChange

    public enum RecordChange: Hashable, Sendable {
        /// Nothing about the views changed.
        case keep
        case save(ActivityContent)
        /// The views now come from JSON: flags can no longer rebuild them.
        case forget
    }

    /// - Parameters:
    ///   - previous: the content remembered from the last `start`/`update` of this activity.
    ///   - json: `--view-json`, read.
    ///   - imageURI: `--image` as a `file://` URI.
    ///   - now: unix microseconds.
    ///   - timerColor: the colour a countdown that has none yet takes (`TimerColors.next`).
    /// - Throws: `ActivityProblem` when there is not enough to build the views.
    public static func build(_ request: ActivityRequest, isStart: Bool, previous: ActivityContent?, json: ViewJSON?,
                             imageURI: String?, now: Int64, timerColor: String? = nil) throws(ActivityProblem) -> ActivitySpec {
        var values: [String: PropValue] = [:]
        var record = RecordChange.keep
        let name = "\(request.module)/\(request.activity)"
        if let json {
            for (slot, raw) in json.slots { values[slot] = .node(raw) }
            var label = json.label
            if label == nil, case .set(let title) = request.content.title { label = title }
            if isStart {
                guard label != nil else {
                    throw ActivityProblem("--view-json: $.accessibility_label: missing (or give --title, which labels it)")
                }
                for slot in ["compact_leading", "compact_trailing", "minimal"] where json.slots[slot] == nil {
                    throw ActivityProblem("--view-json: $.\(slot): missing (an activity starts with compact_leading, compact_trailing and minimal)")
                }
            }
            if let label { values["accessibility_label"] = .string(label) }
            record = .forget
        } else if isStart || !request.content.isEmpty {
            guard var content = request.content.applied(to: previous, imageURI: imageURI, now: now) else {
                throw ActivityProblem(isStart
                    ? "\(name): --title must not be empty"
                    : "\(name): nookctl has no record of its content to keep (it keeps one for activities it started or updated from flags); give --title with the rest, or --view-json")
            }
            if content.hasTimer, content.color == nil { content.color = timerColor }
            for (slot, view) in ActivityViews(content: content).slots { values[slot] = .node(view.rawNode) }
            values["accessibility_label"] = .string(content.label)
            record = .save(content)
        }
        if isStart { values["lifetime"] = .string("detached") }
        if let dismiss = request.dismissDate(now: now, isStart: isStart) { values["dismiss_date"] = .int(dismiss) }
        if let relevance = request.relevance { values["relevance"] = .double(relevance) }
        if let dismissible = request.dismissible { values["dismissible"] = .bool(dismissible) }
        return ActivitySpec(values: values, record: record)
    }
}

extension ActivitySpec {
    /// The `UpdateActivity` changes of `activity finish`: every view of `content` saying
    /// "Done", its label `…, done`, and the dismiss date `expires` seconds from `now` when given
    /// (else the date stays: a countdown started with `--timer` goes a minute after zero).
    public static func finish(_ content: ActivityContent, expires: Double?, now: Int64) -> ActivitySpec {
        var done = content
        done.done = true
        var values: [String: PropValue] = [:]
        for (slot, view) in ActivityViews(content: done).slots { values[slot] = .node(view.rawNode) }
        values["accessibility_label"] = .string(done.label)
        if let expires { values["dismiss_date"] = .int(now.saturatingAdd(Microseconds.of(expires))) }
        return ActivitySpec(values: values, record: .save(done))
    }
}

/// Why an `activity` command cannot go on (exit status 1).
public struct ActivityProblem: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
