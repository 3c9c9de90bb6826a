extension ClassList {
    /// Parses a class string.
    ///
    /// Contract: tokens are separated by whitespace. A token naming a rule in `namedRules` is
    /// replaced by that rule's classes first (recursively; a rule reached again inside its own
    /// expansion is dropped with `named-rule-cycle`). Then each token is, in this order: a
    /// variant chain (`a:b:utility`, split on `:` outside brackets), `group[/name]`,
    /// `shared-[id][/name]`, a `shared-*` option, an animation class, a layout utility, or
    /// passthrough. When two classes of one family disagree, the later one wins, with a
    /// `conflicting-classes` diagnostic.
    /// - Parameters:
    ///   - classes: the node's `classes` prop.
    ///   - namedRules: `rules.named` from the theme (class name -> class string).
    ///   - path: the path put on diagnostics, usually the node's path plus `.classes`.
    public init(parsing classes: String, namedRules: [String: String] = [:], path: String = "") {
        self.init()
        var parser = ClassParser(list: self, rules: namedRules, path: path)
        parser.parse(classes[...], expanding: [])
        self = parser.list
    }
}

/// The parse in progress; each method handles one family of classes.
private struct ClassParser {
    var list: ClassList
    let rules: [String: String]
    let path: String

    init(list: ClassList, rules: [String: String], path: String) {
        self.list = list
        self.rules = rules
        self.path = path
    }

    mutating func parse(_ classes: Substring, expanding: [String]) {
        guard ClassBytes.isASCII(classes) else {
            // Anything beyond ASCII goes through `Character`s (Unicode whitespace, graphemes).
            for token in classes.split(whereSeparator: { $0.isWhitespace }) { take(token, expanding: expanding, ascii: false) }
            return
        }
        // ASCII: every byte is a character, so splitting bytes on the ASCII whitespace
        // `Character.isWhitespace` knows (tab through carriage return, space) gives the same
        // tokens without grapheme breaking (~10x cheaper).
        // Tokens are found in the contiguous bytes (native strings always have them) and
        // sliced out by byte offset, which a native string answers without walking.
        let utf8 = classes.utf8
        let found: Void? = utf8.withContiguousStorageIfAvailable { bytes in
            var offset = 0
            while offset < bytes.count {
                while offset < bytes.count, ClassBytes.isWhitespace(bytes[offset]) { offset += 1 }
                let start = offset
                while offset < bytes.count, !ClassBytes.isWhitespace(bytes[offset]) { offset += 1 }
                if start < offset {
                    let from = utf8.index(utf8.startIndex, offsetBy: start)
                    take(classes[from..<utf8.index(from, offsetBy: offset - start)], expanding: expanding, ascii: true)
                }
            }
        }
        guard found == nil else { return }
        var index = utf8.startIndex
        let end = utf8.endIndex
        while index < end {
            while index < end, ClassBytes.isWhitespace(utf8[index]) { index = utf8.index(after: index) }
            let start = index
            while index < end, !ClassBytes.isWhitespace(utf8[index]) { index = utf8.index(after: index) }
            if start < index { take(classes[start..<index], expanding: expanding, ascii: true) }
        }
    }

    /// One token: a named rule is expanded, anything else classified.
    mutating func take(_ token: Substring, expanding: [String], ascii: Bool) {
        if !rules.isEmpty, let rule = rules[String(token)] {
            if expanding.contains(String(token)) {
                let chain = (expanding + [String(token)]).joined(separator: " -> ")
                note(.namedRuleCycle, .warning, "named rule cycle \(chain); the repeated \"\(token)\" was dropped")
            } else {
                parse(rule[...], expanding: expanding + [String(token)])
            }
            return
        }
        classify(token, ascii: ascii)
    }

    mutating func note(_ code: DiagnosticCode, _ severity: DiagnosticSeverity, _ message: String, id: String = "") {
        list.diagnostics.append(Diagnostic(code, severity, message, path: path, id: id))
    }

    /// - Parameter ascii: the token is ASCII, so bytes may stand in for characters.
    mutating func classify(_ token: Substring, ascii: Bool) {
        guard ascii else { return classifyCharacters(token) }
        // No ':' byte means no ':' character, hence no variant chain (and no array to split into).
        if ClassBytes.contains(token, UInt8(ascii: ":")) {
            let parts = Self.splitVariants(token)
            if parts.count > 1 { return variant(token, parts) }
        }
        // The families' prefixes differ in their first byte, so one byte picks the single
        // family a token can be in before any prefix is compared.
        let first = token.utf8.first
        if first == UInt8(ascii: "g"), ClassBytes.equals(token, "group") || ClassBytes.hasPrefix(token, "group/") {
            group(token)
        } else if first == UInt8(ascii: "s"), ClassBytes.hasPrefix(token, "shared-") {
            shared(token, ascii: true)
        } else if first == UInt8(ascii: "a") && ClassBytes.hasPrefix(token, "animate-")
            || first == UInt8(ascii: "d") && (ClassBytes.hasPrefix(token, "duration-") || ClassBytes.hasPrefix(token, "delay-")) {
            animation(token)
        } else if let utility = LayoutAttributes.utility(token) {
            // Layout's byte-level reader; a test checks it agrees with `LayoutUtility.parse`.
            list.layout.append(utility)
        } else {
            list.passthrough.append(String(token))
        }
    }

    /// `classify` for tokens with non-ASCII characters, compared as `Character`s.
    mutating func classifyCharacters(_ token: Substring) {
        let parts = Self.splitVariants(token)
        if parts.count > 1 {
            variant(token, parts)
        } else if token == "group" || token.hasPrefix("group/") {
            group(token)
        } else if token.hasPrefix("shared-") {
            shared(token, ascii: false)
        } else if token.hasPrefix("animate-") || token.hasPrefix("duration-") || token.hasPrefix("delay-") {
            animation(token)
        } else if let utility = LayoutUtility.parse(token) {
            list.layout.append(utility)
        } else {
            list.passthrough.append(String(token))
        }
    }

    /// Splits on `:` outside `[...]`, so arbitrary values like `bg-[url(a:b)]` stay whole.
    static func splitVariants(_ token: Substring) -> [Substring] {
        var parts: [Substring] = []
        var depth = 0
        var start = token.startIndex
        for index in token.indices {
            switch token[index] {
            case "[": depth += 1
            case "]": depth = max(0, depth - 1)
            case ":" where depth == 0:
                parts.append(token[start..<index])
                start = token.index(after: index)
            default: break
            }
        }
        parts.append(token[start...])
        return parts
    }

    // MARK: Families

    mutating func variant(_ token: Substring, _ parts: [Substring]) {
        guard let utility = parts.last, !utility.isEmpty, !parts.dropLast().contains(where: \.isEmpty) else {
            list.passthrough.append(String(token))
            return
        }
        var conditions: [VariantCondition] = []
        for part in parts.dropLast() {
            guard part.hasPrefix("group-") else {
                conditions.append(VariantCondition(state: String(part)))
                continue
            }
            let body = part.dropFirst("group-".count)
            let slash = body.firstIndex(of: "/")
            let state = String(body[..<(slash ?? body.endIndex)])
            guard VariantCondition.groupStates.contains(state) else {
                note(.unknownVariant, .info, "\"\(part)\" in \"\(token)\" is not a group state (group-hover, group-focus, group-active, group-pressed, group-disabled); passed through as written")
                list.passthrough.append(String(token))
                return
            }
            var name: String?
            if let slash {
                guard let valid = groupName(body[body.index(after: slash)...], in: token) else { return }
                name = valid
            }
            conditions.append(VariantCondition(state: state, isGroup: true, groupName: name))
        }
        list.variants.append(VariantClass(conditions: conditions, utility: String(utility), token: String(token)))
    }

    /// `written` as a group name, or nil after an `invalid-group-name` diagnostic.
    mutating func groupName(_ written: Substring, in token: Substring, id: String = "") -> String? {
        if !Identifier.isValid(written), let problem = Identifier.problem(written) {
            note(.invalidGroupName, .warning, "group name \"\(written)\" in \"\(token)\" \(problem); the class was ignored", id: id)
            return nil
        }
        return String(written)
    }

    mutating func group(_ token: Substring) {
        var declaration = GroupDeclaration()
        if token != "group" {
            guard let name = groupName(token.dropFirst("group/".count), in: token) else { return }
            declaration.name = name
        }
        if let earlier = list.group, earlier != declaration {
            note(.conflictingClasses, .info, "\"\(token)\" replaces an earlier group class on the same node")
        }
        list.group = declaration
    }

    /// - Parameter ascii: the token is ASCII, so indices may step over bytes.
    mutating func shared(_ token: Substring, ascii: Bool) {
        let utf8 = token.utf8
        let option = ascii ? token[utf8.index(utf8.startIndex, offsetBy: 7)...] : token.dropFirst("shared-".count)
        // Most tokens are `shared-[id]`: one byte says so, before any option is compared
        // (matching a `Substring` against string literals costs far more).
        if ascii, option.utf8.first == UInt8(ascii: "[") {
            return sharedID(token, option: option, ascii: true)
        }
        switch option {
        case "frame", "position", "size":
            let properties = SharedProperties(rawValue: String(option))!
            if let earlier = list.sharedProperties, earlier != properties {
                note(.conflictingClasses, .info, "\"\(token)\" replaces shared-\(earlier.rawValue)")
            }
            list.sharedProperties = properties
            return
        case "source", "follower":
            let role = SharedRole(rawValue: String(option))!
            if let earlier = list.sharedRole, earlier != role {
                note(.conflictingClasses, .info, "\"\(token)\" replaces shared-\(earlier.rawValue)")
            }
            list.sharedRole = role
            return
        default:
            break
        }
        sharedID(token, option: option, ascii: ascii)
    }

    /// `shared-[id]` or `shared-[id]/<name>`; `option` is the token after `shared-`.
    mutating func sharedID(_ token: Substring, option: Substring, ascii: Bool) {
        guard ascii ? option.utf8.first == UInt8(ascii: "[") : option.hasPrefix("[") else {
            note(.unknownClass, .info, "\"\(token)\" is not a shared class (shared-[id], shared-[id]/name, shared-frame|position|size, shared-source|follower); ignored")
            return
        }
        guard let close = ascii ? ClassBytes.firstIndex(of: UInt8(ascii: "]"), in: option) : option.firstIndex(of: "]") else {
            note(.invalidId, .warning, "\"\(token)\" has no closing ']'; the class was ignored")
            return
        }
        let id = option[(ascii ? option.utf8.index(after: option.startIndex) : option.index(after: option.startIndex))..<close]
        if !Identifier.isValid(id), let problem = Identifier.problem(id) {
            note(.invalidId, .warning, "shared id \"\(id)\" in \"\(token)\" \(problem); the class was ignored", id: String(id))
            return
        }
        let rest = option[(ascii ? option.utf8.index(after: close) : option.index(after: close))...]
        var declaration = SharedClass(id: String(id))
        if !rest.isEmpty {
            guard ascii ? rest.utf8.first == UInt8(ascii: "/") : rest.hasPrefix("/") else {
                note(.invalidId, .warning, "unexpected \"\(rest)\" after the id in \"\(token)\"; the class was ignored", id: String(id))
                return
            }
            guard let name = groupName(rest.dropFirst(), in: token, id: String(id)) else { return }
            declaration.groupName = name
        }
        if let earlier = list.shared, earlier != declaration {
            note(.conflictingClasses, .info, "\"\(token)\" replaces an earlier shared class on the same node", id: String(id))
        }
        list.shared = declaration
    }

    mutating func animation(_ token: Substring) {
        if token.hasPrefix("animate-") {
            let name = token.dropFirst("animate-".count)
            if let problem = Identifier.problem(name) {
                note(.unknownClass, .info, "animation name \"\(name)\" in \"\(token)\" \(problem); ignored")
                return
            }
            let preset = AnimationPreset(name: String(name))
            if let earlier = list.animation.preset, earlier != preset {
                note(.conflictingClasses, .info, "\"\(token)\" replaces animate-\(earlier.name)")
            }
            list.animation.preset = preset
            return
        }
        let isDuration = token.hasPrefix("duration-")
        let value = token.dropFirst(isDuration ? "duration-".count : "delay-".count)
        guard let seconds = Self.milliseconds(value) else {
            note(.invalidTiming, .warning, "\"\(token)\" needs a whole number of milliseconds (duration-400, delay-[0.2s]); ignored")
            return
        }
        if isDuration {
            if let earlier = list.animation.duration, earlier != seconds {
                note(.conflictingClasses, .info, "\"\(token)\" replaces an earlier duration class")
            }
            list.animation.duration = seconds
        } else {
            if let earlier = list.animation.delay, earlier != seconds {
                note(.conflictingClasses, .info, "\"\(token)\" replaces an earlier delay class")
            }
            list.animation.delay = seconds
        }
    }

    /// `400` -> 0.4, `[400ms]` -> 0.4, `[0.4s]` -> 0.4 (seconds), clamped to
    /// `NumberDomain.classTiming`; nil when malformed.
    static func milliseconds(_ text: Substring) -> Double? {
        if !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) {
            // Too many digits for Int is still a (very long) duration: clamp it, like the others.
            let ms = Int(text).map(Double.init) ?? .infinity
            return NumberDomain.classTiming.clamped(ms / 1000)
        }
        guard text.hasPrefix("["), text.hasSuffix("]"), text.count > 2 else { return nil }
        guard let seconds = DurationText.seconds(String(text.dropFirst().dropLast())) else { return nil }
        return NumberDomain.classTiming.clamped(seconds)
    }
}
