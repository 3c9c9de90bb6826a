import FoundationEssentials
import Glibc
import NookBus

/// What the rules decided for one notification: each setting nil where no matching section
/// set it. Carried on the request (`NotificationRequest.ruleEffects`) to the publisher.
public struct RuleEffects: Hashable, Sendable {
    /// `no-peek=yes`: it becomes its activity but the nook does not peek at it.
    public var noPeek = false
    /// `sound=NAME` (a freedesktop sound-theme name) or `sound=off` (`.off`).
    public var sound: RuleSound?
    /// `history=no`: it does not enter the history when it closes.
    public var history: Bool?
    /// `colour=`: the accent its views are drawn with, as `#RRGGBB` or `#RRGGBBAA`.
    public var colour: String?

    public init() {}

    /// Whether it enters the history when it closes: `history` if a rule said, else yes.
    public var keepsInHistory: Bool { history ?? true }
}

/// A rule's `sound`.
public enum RuleSound: Hashable, Sendable {
    case off
    case named(String)
}

/// The notification rules (docs/notifications.md "Rules", nook-notifications-rules(5)): a
/// hand-written file of sections, each a header of criteria and lines of settings, applied to
/// every `Notify` in file order, later matching sections overriding earlier ones. Pure: the
/// text comes from the caller (`RulesFile` reads it).
///
/// ```
/// [app-name=Spotify]
/// no-peek=yes
///
/// [app-name~=*chrom* urgency=low]
/// ignore=yes
/// ```
public struct NotificationRules: Hashable, Sendable {
    /// The largest rules file read (bytes).
    public static let maxFileBytes = 64 * 1024
    /// The longest line (bytes).
    public static let maxLineBytes = 1024
    /// The most sections in a file.
    public static let maxSections = 256
    /// The most criteria in one header.
    public static let maxCriteria = 16
    /// The longest criterion value or pattern (bytes).
    public static let maxValueBytes = 256
    /// The most bytes of glob patterns (`~=`) in a file, all sections together: a glob costs
    /// at most its length times the value's in steps, so a notification costs at most this
    /// times 1024 (the longest body) in all.
    public static let maxGlobBytes = 2048
    /// The longest `timeout` (seconds): a day, the bridge's longest `expire_timeout`.
    public static let maxTimeoutSeconds = 86_400.0
    /// The longest sound name (bytes).
    public static let maxSoundBytes = 64

    /// What a section header tests.
    public enum Field: String, Hashable, Sendable, CaseIterable {
        case appName = "app-name"
        case urgency
        case category
        case desktopEntry = "desktop-entry"
        case summary
        case body
    }

    /// One criterion: `key=value` (exactly, case-sensitive) or `key~=pattern` (a glob, `*` any
    /// run of characters and `?` one, matched against the whole value ignoring case).
    public struct Criterion: Hashable, Sendable {
        public var field: Field
        public var value: String
        public var isGlob: Bool
        /// A glob's pattern, case-folded once here rather than at every notification.
        let folded: [Unicode.Scalar]

        public init(field: Field, value: String, isGlob: Bool) {
            self.field = field
            self.value = value
            self.isGlob = isGlob
            folded = isGlob ? Glob.fold(value) : []
        }
    }

    /// The settings a section makes; nil: not set by it.
    public struct Settings: Hashable, Sendable {
        /// Seconds, 0...86400 (0: it never expires).
        public var timeout: Double?
        public var noPeek: Bool?
        public var ignore: Bool?
        public var urgency: Urgency?
        public var colour: String?
        public var sound: RuleSound?
        public var history: Bool?
        public init() {}
    }

    public struct Section: Hashable, Sendable {
        /// The header's line (1-based).
        public var line: Int
        /// All must hold; none: every notification.
        public var criteria: [Criterion]
        public var settings: Settings
    }

    public var sections: [Section]

    public init(sections: [Section] = []) { self.sections = sections }

    /// A notification as the rules see it: as it was sent (before any rule changed it), its
    /// summary and body as plain text (markup taken out).
    public struct Subject: Hashable, Sendable {
        public var appName: String = ""
        public var urgency: Urgency = .normal
        public var category: String = ""
        public var desktopEntry: String = ""
        public var summary: String = ""
        public var body: String = ""

        func value(_ field: Field) -> String {
            switch field {
            case .appName: appName
            case .urgency: Self.urgencyNames[urgency] ?? ""
            case .category: category
            case .desktopEntry: desktopEntry
            case .summary: summary
            case .body: body
            }
        }

        static let urgencyNames: [Urgency: String] = [.low: "low", .normal: "normal", .critical: "critical"]
    }

    /// The settings of every section matching `subject`, merged in file order: a later
    /// section's setting replaces an earlier one's.
    public func settings(for subject: Subject) -> Settings {
        var merged = Settings()
        var folded = FoldedSubject(subject)
        for section in sections where section.criteria.allSatisfy({ $0.matches(subject, &folded) }) {
            let s = section.settings
            if let v = s.timeout { merged.timeout = v }
            if let v = s.noPeek { merged.noPeek = v }
            if let v = s.ignore { merged.ignore = v }
            if let v = s.urgency { merged.urgency = v }
            if let v = s.colour { merged.colour = v }
            if let v = s.sound { merged.sound = v }
            if let v = s.history { merged.history = v }
        }
        return merged
    }

    /// Applies the matching sections to `request` (read as `subject`): its urgency and
    /// `expire_timeout` as set, the rest in `ruleEffects`. Returns true when it is ignored.
    public func apply(to request: inout NotificationRequest, subject: Subject) -> Bool {
        guard !sections.isEmpty else { return false }
        let settings = settings(for: subject)
        if let urgency = settings.urgency { request.urgency = urgency }
        if let seconds = settings.timeout { request.expireTimeout = Int32((seconds * 1000).rounded()) }
        request.ruleEffects.noPeek = settings.noPeek ?? false
        request.ruleEffects.sound = settings.sound
        request.ruleEffects.colour = settings.colour
        let ignored = settings.ignore ?? false
        // An ignored one is kept only when a rule asks for it (`history=yes`).
        request.ruleEffects.history = settings.history ?? (ignored ? false : nil)
        return ignored
    }
}

/// A subject's fields case-folded for globs, each at most once per notification and only
/// when a glob asks for it.
struct FoldedSubject {
    let subject: NotificationRules.Subject
    private var cache: [NotificationRules.Field: [Unicode.Scalar]] = [:]

    init(_ subject: NotificationRules.Subject) { self.subject = subject }

    mutating func value(_ field: NotificationRules.Field) -> [Unicode.Scalar] {
        if let done = cache[field] { return done }
        let folded = Glob.fold(subject.value(field))
        cache[field] = folded
        return folded
    }
}

extension NotificationRules.Criterion {
    func matches(_ subject: NotificationRules.Subject, _ folded: inout FoldedSubject) -> Bool {
        isGlob ? Glob.matches(folded: self.folded, folded.value(field)) : subject.value(field) == value
    }
}

/// `*` and `?` globs over Unicode scalars, ignoring case, in time proportional to pattern
/// times text at worst (a value is at most 1024 bytes, a pattern 256).
enum Glob {
    /// Lower case, scalar by scalar (a scalar whose lower case is several is kept as it is).
    static func fold(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.map { scalar in
            if scalar.isASCII {
                return (0x41...0x5A).contains(scalar.value) ? Unicode.Scalar(scalar.value + 0x20)! : scalar
            }
            let lower = scalar.properties.lowercaseMapping.unicodeScalars
            return lower.count == 1 ? lower.first! : scalar
        }
    }

    static func matches(pattern: String, _ text: String) -> Bool { matches(folded: fold(pattern), fold(text)) }

    static func matches(folded pattern: [Unicode.Scalar], _ text: [Unicode.Scalar]) -> Bool {
        pattern.withUnsafeBufferPointer { p in text.withUnsafeBufferPointer { t in matches(p, t) } }
    }

    private static let any: Unicode.Scalar = "*"
    private static let one: Unicode.Scalar = "?"

    private static func matches(_ p: UnsafeBufferPointer<Unicode.Scalar>, _ t: UnsafeBufferPointer<Unicode.Scalar>) -> Bool {
        let (any, one) = (Self.any, Self.one)
        var (pi, ti) = (0, 0)
        var star: Int?
        var resume = 0
        while ti < t.count {
            if pi < p.count, p[pi] == one || (p[pi] != any && p[pi] == t[ti]) {
                pi += 1
                ti += 1
            } else if pi < p.count, p[pi] == any {
                star = pi
                resume = ti
                pi += 1
            } else if let star {
                pi = star + 1
                resume += 1
                ti = resume
            } else {
                return false
            }
        }
        while pi < p.count, p[pi] == any { pi += 1 }
        return pi == p.count
    }
}

/// Why a rules file is refused: the line (1-based), the key when one is to blame, and what.
public struct RulesError: Error, Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var key: String?
    public var message: String

    public init(line: Int, key: String?, _ message: String) {
        self.line = line
        self.key = key
        self.message = message
    }

    /// `line 7: key 'timeout': 99999 is outside 0...86400 seconds`.
    public var description: String { "line \(line): " + (key.map { "key '\($0)': " } ?? "") + message }
}

extension NotificationRules {
    /// The colour names `colour=` takes besides `#RRGGBB` and `#RRGGBBAA` (NookColor's palette).
    public static let colourNames: [String: String] = [
        "black": "#000000", "white": "#FFFFFF", "gray": "#8E8E93", "grey": "#8E8E93", "red": "#FF3B30", "orange": "#FF9500",
        "yellow": "#FFCC00", "green": "#34C759", "mint": "#00C7BE", "teal": "#30B0C7", "cyan": "#32ADE6", "blue": "#007AFF",
        "indigo": "#5856D6", "purple": "#AF52DE", "pink": "#FF2D55", "brown": "#A2845E",
    ]

    /// Reads a rules file's text; a file with any mistake is refused whole, naming its first
    /// mistake's line and key.
    public init(parsing text: String) throws(RulesError) {
        guard text.utf8.count <= Self.maxFileBytes else {
            throw RulesError(line: 0, key: nil, "the file is \(text.utf8.count) bytes, over the limit of \(Self.maxFileBytes)")
        }
        var sections: [Section] = []
        var current: Section?
        var seen: Set<String> = []
        var number = 0
        var globBytes = 0
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            number += 1
            guard raw.utf8.count <= Self.maxLineBytes else {
                throw RulesError(line: number, key: nil, "the line is \(raw.utf8.count) bytes, over the limit of \(Self.maxLineBytes)")
            }
            let line = raw.trimmingWhitespace
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]") else { throw RulesError(line: number, key: nil, "a section header must end with ']'") }
                if let current { sections.append(current) }
                guard sections.count < Self.maxSections else {
                    throw RulesError(line: number, key: nil, "more than \(Self.maxSections) sections")
                }
                let criteria = try Self.criteria(String(line.dropFirst().dropLast()), line: number)
                for criterion in criteria where criterion.isGlob {
                    globBytes += criterion.value.utf8.count
                    guard globBytes <= Self.maxGlobBytes else {
                        throw RulesError(line: number, key: criterion.field.rawValue, "the file's glob patterns (~=) pass \(Self.maxGlobBytes) bytes in all")
                    }
                }
                current = Section(line: number, criteria: criteria, settings: Settings())
                seen = []
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw RulesError(line: number, key: nil, "expected '[criteria]' or 'key=value', found '\(line.prefix(40))'")
            }
            let key = line[..<equals].trimmingWhitespace
            let value = line[line.index(after: equals)...].trimmingWhitespace
            guard current != nil else { throw RulesError(line: number, key: key, "a setting before any [section]") }
            guard !seen.contains(key) else { throw RulesError(line: number, key: key, "set twice in the section of line \(current!.line)") }
            seen.insert(key)
            try Self.set(key, Self.unquoted(value), in: &current!.settings, line: number)
        }
        if let current { sections.append(current) }
        self.sections = sections
    }

    static func boolean(_ value: String, key: String, line: Int) throws(RulesError) -> Bool {
        switch value.lowercased() {
        case "yes", "true", "1", "on": return true
        case "no", "false", "0", "off": return false
        default: throw RulesError(line: line, key: key, "'\(value.prefix(40))' is not yes or no")
        }
    }

    static func urgency(_ value: String, key: String, line: Int) throws(RulesError) -> Urgency {
        switch value {
        case "low": return .low
        case "normal": return .normal
        case "critical": return .critical
        default: throw RulesError(line: line, key: key, "'\(value.prefix(40))' is not low, normal or critical")
        }
    }

    static func set(_ key: String, _ value: String, in settings: inout Settings, line: Int) throws(RulesError) {
        switch key {
        case "timeout":
            guard let seconds = Double(value), seconds.isFinite, (0...Self.maxTimeoutSeconds).contains(seconds) else {
                throw RulesError(line: line, key: key, "'\(value.prefix(40))' is not a number of seconds in 0...\(Int(Self.maxTimeoutSeconds))")
            }
            settings.timeout = seconds
        case "no-peek": settings.noPeek = try boolean(value, key: key, line: line)
        case "ignore": settings.ignore = try boolean(value, key: key, line: line)
        case "history": settings.history = try boolean(value, key: key, line: line)
        case "urgency": settings.urgency = try urgency(value, key: key, line: line)
        case "colour", "color":
            settings.colour = try colour(value, key: key, line: line)
        case "sound":
            if value == "off" {
                settings.sound = .off
            } else {
                guard !value.isEmpty, value.utf8.count <= Self.maxSoundBytes,
                    value.unicodeScalars.allSatisfy({ $0.isASCII && IDCharacters.contains($0) })
                else {
                    throw RulesError(line: line, key: key, "'\(value.prefix(40))' is neither off nor a sound name (1...\(Self.maxSoundBytes) of A-Z a-z 0-9 . _ -)")
                }
                settings.sound = .named(value)
            }
        default:
            throw RulesError(line: line, key: key, "unknown setting (timeout, no-peek, ignore, urgency, colour, sound, history)")
        }
    }

    static func colour(_ value: String, key: String, line: Int) throws(RulesError) -> String {
        if let named = colourNames[value.lowercased()] { return named }
        let digits = value.dropFirst()
        guard value.hasPrefix("#"), digits.count == 6 || digits.count == 8, digits.allSatisfy(\.isHexDigit) else {
            throw RulesError(line: line, key: key, "'\(value.prefix(40))' is not #RRGGBB, #RRGGBBAA or a colour name (red, orange, yellow, green, mint, teal, cyan, blue, indigo, purple, pink, brown, gray, black, white)")
        }
        return value.uppercased()
    }

    /// A header's criteria: `key=value` and `key~=pattern` separated by spaces, a value in
    /// double quotes when it has spaces (`\"` and `\\` inside); `*` alone: every notification.
    static func criteria(_ header: String, line: Int) throws(RulesError) -> [Criterion] {
        var criteria: [Criterion] = []
        var rest = Substring(header)
        var fields: Set<String> = []
        while true {
            rest = rest.drop(while: \.isWhitespace)
            guard !rest.isEmpty else { break }
            if rest.hasPrefix("*") && criteria.isEmpty && rest.dropFirst().allSatisfy(\.isWhitespace) { return [] }
            guard let operatorStart = rest.firstIndex(where: { $0 == "=" || $0 == "~" || $0.isWhitespace }) else {
                throw RulesError(line: line, key: String(rest.prefix(40)), "a criterion needs '=' or '~=' and a value")
            }
            let key = String(rest[..<operatorStart])
            var after = rest[operatorStart...]
            let isGlob = after.hasPrefix("~=")
            guard isGlob || after.hasPrefix("=") else { throw RulesError(line: line, key: key, "a criterion needs '=' or '~=' and a value") }
            after = after.dropFirst(isGlob ? 2 : 1)
            guard let field = Field(rawValue: key) else {
                throw RulesError(line: line, key: key, "unknown criterion (app-name, urgency, category, desktop-entry, summary, body)")
            }
            guard !fields.contains(key) else { throw RulesError(line: line, key: key, "given twice in one header") }
            fields.insert(key)
            var value = ""
            if after.hasPrefix("\"") {
                after = after.dropFirst()
                var closed = false
                while let character = after.first {
                    after = after.dropFirst()
                    if character == "\"" {
                        closed = true
                        break
                    }
                    if character == "\\", let next = after.first, next == "\"" || next == "\\" {
                        value.append(next)
                        after = after.dropFirst()
                    } else {
                        value.append(character)
                    }
                }
                guard closed else { throw RulesError(line: line, key: key, "a quoted value has no closing '\"'") }
                guard after.isEmpty || after.first!.isWhitespace else { throw RulesError(line: line, key: key, "expected a space after the quoted value") }
            } else {
                let end = after.firstIndex(where: \.isWhitespace) ?? after.endIndex
                value = String(after[..<end])
                after = after[end...]
            }
            guard value.utf8.count <= Self.maxValueBytes else {
                throw RulesError(line: line, key: key, "a value of \(value.utf8.count) bytes, over the limit of \(Self.maxValueBytes)")
            }
            if field == .urgency {
                guard !isGlob else { throw RulesError(line: line, key: key, "urgency takes '=' only") }
                _ = try urgency(value, key: key, line: line)
            }
            criteria.append(Criterion(field: field, value: value, isGlob: isGlob))
            guard criteria.count <= Self.maxCriteria else { throw RulesError(line: line, key: key, "more than \(Self.maxCriteria) criteria") }
            rest = after
        }
        guard !criteria.isEmpty else { throw RulesError(line: line, key: nil, "an empty header; write [*] for every notification") }
        return criteria
    }

    /// A setting's value without its surrounding double quotes, if it has them.
    static func unquoted(_ value: String) -> String {
        value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"") ? String(value.dropFirst().dropLast()) : value
    }
}

extension StringProtocol {
    var trimmingWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
