extension Theme {
    /// This theme with a DTCG document (a user's `theme.json`) merged over it, token by token.
    ///
    /// A token already in the theme keeps its type: a `$type` that says otherwise is a
    /// `type-mismatch`. New tokens take their `$type`, their group's, or the one their value
    /// looks like. Throws with every problem found; `self` is never changed.
    public func merging(json: String) throws(ThemeError) -> Theme {
        let bytes = json.utf8.count
        if bytes > ThemeLimits.maxDocumentBytes { throw ThemeError(issues: [ThemeLimits.tooLarge(bytes, what: "the theme document")]) }
        let document: JSONValue
        do {
            document = try JSONValue.parse(json)
        } catch {
            throw ThemeError(issues: [ThemeIssue(path: "", code: .invalidJSON, message: "the theme is not valid JSON: \(error)")])
        }
        let flat = TokenDocument.flatten(document)
        var merged = self
        var issues = flat.issues
        for (group, type) in flat.groupTypes where merged.groupTypes[group] == nil {
            merged.groupTypes[group] = type
        }
        var groups = merged.groupPaths
        for path in flat.tokens.keys.sorted() {
            merged.place(flat.tokens[path]!, at: path, explicitType: flat.tokens[path]!.declaredType, groups: &groups, issues: &issues)
        }
        if merged.definitions.count > ThemeLimits.maxTokens { issues.append(ThemeLimits.tooMany(merged.definitions.count)) }
        guard issues.isEmpty else { throw ThemeError(issues: issues) }
        return try Theme(definitions: merged.definitions, groupTypes: merged.groupTypes)
    }

    /// This theme with `SetTokens`-style overrides: dotted path -> value, where a value is an
    /// alias string (`"{transition.peek}"`), a duration or dimension string (`"240ms"`,
    /// `"32px"`), a number, a spring `a{sv}` (`response`, `damping_fraction`), four numbers
    /// for a cubic Bézier, or a class string for `rules.named.*`. Validated whole.
    public func applying(_ overrides: [String: PropValue]) throws(ThemeError) -> Theme {
        // Limits first, before any per-token work: an oversized call costs next to nothing.
        if overrides.count > ThemeLimits.maxTokens {
            throw ThemeError(issues: [ThemeLimits.tooMany(definitions.count + overrides.count)])
        }
        let bytes = overrides.reduce(0) { $0 + 4 + $1.key.utf8.count + ThemeLimits.estimatedBytes($1.value) }
        if bytes > ThemeLimits.maxDocumentBytes { throw ThemeError(issues: [ThemeLimits.tooLarge(bytes, what: "the token overrides")]) }
        var merged = self
        var issues: [ThemeIssue] = []
        var groups = merged.groupPaths
        for path in overrides.keys.sorted() {
            let segments = path.split(separator: ".", omittingEmptySubsequences: false)
            if let problem = segments.lazy.compactMap({ TokenDocument.nameProblem(String($0)) }).first {
                issues.append(ThemeIssue(path: path, code: .invalidToken, message: "not a token path: \(problem)"))
                continue
            }
            guard let raw = Self.json(overrides[path]!) else {
                issues.append(ThemeIssue(path: path, code: .invalidToken, message: "a token value may not be a view node"))
                continue
            }
            merged.place(TokenDefinition(declaredType: nil, raw: raw), at: path, explicitType: nil, groups: &groups, issues: &issues)
        }
        if merged.definitions.count > ThemeLimits.maxTokens { issues.append(ThemeLimits.tooMany(merged.definitions.count)) }
        guard issues.isEmpty else { throw ThemeError(issues: issues) }
        return try Theme(definitions: merged.definitions, groupTypes: merged.groupTypes)
    }

    /// Every group path (a proper prefix of a token's path): so `place` tells a group from a
    /// free path in one lookup, not a scan of every token (quadratic over a large theme).
    var groupPaths: Set<String> {
        var groups: Set<String> = []
        for path in definitions.keys { Self.addGroups(of: path, to: &groups) }
        return groups
    }

    private static func addGroups(of path: String, to groups: inout Set<String>) {
        var end = path.endIndex
        while let dot = path[..<end].lastIndex(of: ".") {
            guard groups.insert(String(path[..<dot])).inserted else { return }  // its own prefixes are in too
            end = dot
        }
    }

    /// Puts one token at `path`, keeping an existing token's type and refusing to turn a
    /// group into a token or a token into a group.
    private mutating func place(
        _ token: TokenDefinition, at path: String, explicitType: TokenType?, groups: inout Set<String>, issues: inout [ThemeIssue]
    ) {
        var prefix = ""
        for segment in path.split(separator: ".").dropLast() {
            prefix += prefix.isEmpty ? String(segment) : "." + segment
            if definitions[prefix] != nil {
                issues.append(ThemeIssue(path: path, code: .invalidToken, message: "\(prefix) is a token, not a group"))
                return
            }
        }
        if definitions[path] == nil, groups.contains(path) {
            issues.append(ThemeIssue(path: path, code: .invalidToken, message: "\(InputQuote.text(path)) is a group of tokens, not a token"))
            return
        }
        let existingType = definitions[path]?.declaredType
        if let existingType, let explicitType, existingType != explicitType {
            issues.append(
                ThemeIssue(
                    path: path, code: .typeMismatch,
                    message: "the theme's \(path) is a \(existingType.rawValue); an override may not make it a \(explicitType.rawValue)"))
            return
        }
        definitions[path] = TokenDefinition(declaredType: existingType ?? explicitType ?? groupType(enclosing: path), raw: token.raw)
        Self.addGroups(of: path, to: &groups)
    }

    /// The `$type` of the nearest enclosing group that has one.
    private func groupType(enclosing path: String) -> TokenType? {
        var group = Substring(path)
        while let dot = group.lastIndex(of: ".") {
            group = group[..<dot]
            if let type = groupTypes[String(group)] { return type }
        }
        return nil
    }

    /// The JSON shape of a D-Bus value; nil for view nodes.
    static func json(_ value: PropValue) -> JSONValue? {
        switch value {
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .number(Double(number))
        case .uint(let number): return .number(Double(number))
        case .double(let number): return .number(number)
        case .string(let text): return .string(text)
        case .array(let items), .structure(let items):
            var out: [JSONValue] = []
            for item in items {
                guard let converted = json(item) else { return nil }
                out.append(converted)
            }
            return .array(out)
        case .dictionary(let entries):
            var out: [String: JSONValue] = [:]
            for (key, item) in entries {
                guard let converted = json(item) else { return nil }
                out[key] = converted
            }
            return .object(out)
        case .node:
            return nil
        }
    }
}
