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
        var parser = ClassParser(rules: namedRules, path: path)
        parser.parse(classes[...], expanding: [])
        // Swapped out, not copied: a copy retains every array and string of the list.
        swap(&self, &parser.list)
    }
}

/// The parse in progress; each method handles one family of classes.
private struct ClassParser {
    var list: ClassList
    let rules: [String: String]
    let path: String

    init(rules: [String: String], path: String) {
        list = ClassList()
        self.rules = rules
        self.path = path
    }

    mutating func parse(_ classes: Substring, expanding: [String]) {
        // ASCII: every byte is a character, so splitting bytes on the ASCII whitespace
        // `Character.isWhitespace` knows (tab through carriage return, space) gives the same
        // tokens without grapheme breaking (~10x cheaper).
        // Tokens are found in the contiguous bytes (native strings always have them) and read
        // there; a token's text is sliced out only when a family needs it.
        let utf8 = classes.utf8
        let ascii: Bool? = utf8.withContiguousStorageIfAvailable { bytes in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return false }
            var offset = 0
            while offset < bytes.count {
                while offset < bytes.count, ClassBytes.isWhitespace(bytes[offset]) { offset += 1 }
                let start = offset
                while offset < bytes.count, !ClassBytes.isWhitespace(bytes[offset]) { offset += 1 }
                if start < offset {
                    take(ClassToken(in: classes, at: start, bytes: UnsafeBufferPointer(rebasing: bytes[start..<offset])), expanding: expanding)
                }
            }
            return true
        }
        if ascii == true { return }
        guard ascii == nil, ClassBytes.isASCII(classes) else {
            // Anything beyond ASCII goes through `Character`s (Unicode whitespace, graphemes).
            for token in classes.split(whereSeparator: { $0.isWhitespace }) { take(ClassToken(token), expanding: expanding) }
            return
        }
        var index = utf8.startIndex
        let end = utf8.endIndex
        while index < end {
            while index < end, ClassBytes.isWhitespace(utf8[index]) { index = utf8.index(after: index) }
            let start = index
            while index < end, !ClassBytes.isWhitespace(utf8[index]) { index = utf8.index(after: index) }
            if start < index {
                // Not contiguous (a bridged string): the token's bytes are copied to read them.
                let token = classes[start..<index]
                Array(token.utf8).withUnsafeBufferPointer { bytes in take(ClassToken(in: token, at: 0, bytes: bytes), expanding: expanding) }
            }
        }
    }

    /// One token: a named rule is expanded, anything else classified.
    mutating func take(_ token: ClassToken, expanding: [String]) {
        if !rules.isEmpty, let rule = rules[String(token.text)] {
            let name = String(token.text)
            if expanding.contains(name) {
                let chain = (expanding + [name]).joined(separator: " -> ")
                note(.namedRuleCycle, .warning, "named rule cycle \(chain); the repeated \"\(name)\" was dropped")
            } else {
                parse(rule[...], expanding: expanding + [name])
            }
            return
        }
        classify(token)
    }

    mutating func note(_ code: DiagnosticCode, _ severity: DiagnosticSeverity, _ message: String, id: String = "") {
        list.diagnostics.append(Diagnostic(code, severity, message, path: path, id: id))
    }

    /// An ASCII token (every byte a character) is tested on its bytes, in place: going through
    /// `Substring.UTF8View` for each test costs several times more.
    mutating func classify(_ token: ClassToken) {
        guard let bytes = token.bytes else { return classifyCharacters(token.text) }
        // No ':' byte means no ':' character, hence no variant chain (and no array to split into).
        if bytes.contains(UInt8(ascii: ":")) {
            let parts = Self.splitVariants(token.text)
            if parts.count > 1 { return variant(token.text, parts) }
        }
        // The families' prefixes differ in their first byte, so one byte picks the single
        // family a token can be in before any prefix is compared.
        let first = bytes.first
        if first == UInt8(ascii: "g"), ClassBytes.equals(bytes, "group") || ClassBytes.hasPrefix(bytes, "group/") {
            group(token.text)
        } else if first == UInt8(ascii: "s"), ClassBytes.hasPrefix(bytes, "shared-") {
            // `shared-[id]`, the usual one, is read from the bytes in one pass.
            if let id = Self.plainSharedID(UnsafeBufferPointer(rebasing: bytes[7...])) {
                setShared(SharedClass(id: id), token: token.text)
            } else {
                shared(token.text, ascii: true)
            }
        } else if first == UInt8(ascii: "a") && ClassBytes.hasPrefix(bytes, "animate-")
            || first == UInt8(ascii: "d") && (ClassBytes.hasPrefix(bytes, "duration-") || ClassBytes.hasPrefix(bytes, "delay-")) {
            animation(token.text)
        } else if let utility = LayoutAttributes.utility(bytes, token: { token.text }) {
            // Layout's byte-level reader; a test checks it agrees with `LayoutUtility.parse`.
            list.layout.append(utility)
        } else {
            list.passthrough.append(String(token.text))
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
        setShared(declaration, token: token)
    }

    /// The id of an ASCII `[<id>]` with a valid id and nothing after it (most `shared-` tokens),
    /// read from the bytes in one pass; nil for anything else, which `sharedID` then handles
    /// with its diagnostics. A valid id holds no `]`, so the last byte is the first `]`.
    static func plainSharedID(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let count = bytes.count
        guard count >= 3, count - 2 <= Identifier.maxLength, bytes[0] == UInt8(ascii: "["), bytes[count - 1] == UInt8(ascii: "]")
        else { return nil }
        for offset in 1..<(count - 1) where !Identifier.isAllowed(bytes[offset]) { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[1..<(count - 1)]), as: UTF8.self)
    }

    mutating func setShared(_ declaration: SharedClass, token: @autoclosure () -> Substring) {
        if let earlier = list.shared, earlier != declaration {
            note(.conflictingClasses, .info, "\"\(token())\" replaces an earlier shared class on the same node", id: declaration.id)
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

/// One token of a class string: its bytes when it is ASCII, and its text, sliced out of the
/// class string only when asked (slicing a `Substring` by offsets costs a few hundred
/// instructions; most tokens are classified from their bytes alone).
private struct ClassToken {
    /// The token's bytes, or nil when it holds non-ASCII characters.
    let bytes: UnsafeBufferPointer<UInt8>?
    private let source: Substring
    /// The token's byte offset in `source`, or -1 when `source` is the token itself.
    private let offset: Int

    init(in source: Substring, at offset: Int, bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        self.source = source
        self.offset = offset
    }

    /// A token with non-ASCII characters.
    init(_ text: Substring) {
        bytes = nil
        source = text
        offset = -1
    }

    var text: Substring {
        guard offset >= 0, let bytes else { return source }
        let utf8 = source.utf8
        let from = utf8.index(utf8.startIndex, offsetBy: offset)
        return source[from..<utf8.index(from, offsetBy: bytes.count)]
    }
}
