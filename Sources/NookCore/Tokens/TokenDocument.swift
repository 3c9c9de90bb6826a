/// A token as written, before aliases are followed.
struct TokenDefinition: Hashable, Sendable {
    /// From the token's `$type` or the nearest enclosing group's (DTCG inheritance).
    var declaredType: TokenType?
    var raw: JSONValue
}

/// A DTCG document flattened to dotted paths.
struct FlatDocument: Hashable, Sendable {
    var tokens: [String: TokenDefinition] = [:]
    /// Every group's effective `$type` (its own or inherited), by group path.
    var groupTypes: [String: TokenType] = [:]
    var issues: [ThemeIssue] = []
}

/// Reading the DTCG format: groups, tokens, `$type`, aliases and each type's value forms.
enum TokenDocument {
    /// Flattens a DTCG document: an object with `$value` is a token, any other object a group;
    /// keys starting with `$` are reserved (`$description`, `$extensions` are ignored).
    static func flatten(_ root: JSONValue) -> FlatDocument {
        var flat = FlatDocument()
        guard case .object = root else {
            flat.issues.append(ThemeIssue(path: "", code: .invalidToken, message: "a theme must be a JSON object of token groups"))
            return flat
        }
        visit(root, path: "", inherited: nil, into: &flat)
        return flat
    }

    private static func visit(_ node: JSONValue, path: String, inherited: TokenType?, into flat: inout FlatDocument) {
        guard case .object(let members) = node else {
            flat.issues.append(
                ThemeIssue(path: path, code: .invalidToken, message: "expected a group or a token with $value, found \(node.kindName)"))
            return
        }
        var type = inherited
        if let written = members["$type"] {
            guard case .string(let name) = written, let known = TokenType(rawValue: name) else {
                let known = TokenType.allCases.map(\.rawValue).joined(separator: ", ")
                flat.issues.append(ThemeIssue(path: path, code: .unknownType, message: "unknown $type \(describe(written)) (known: \(known))"))
                return
            }
            type = known
        }
        if let value = members["$value"] {
            flat.tokens[path] = TokenDefinition(declaredType: type, raw: value)
            return
        }
        if let type { flat.groupTypes[path] = type }
        for name in members.keys.sorted() where !name.hasPrefix("$") {
            let child = path.isEmpty ? name : path + "." + name
            if let problem = nameProblem(name) {
                flat.issues.append(ThemeIssue(path: child, code: .invalidToken, message: problem))
                continue
            }
            visit(members[name]!, path: child, inherited: type, into: &flat)
        }
    }

    /// DTCG: names are non-empty and contain no `{`, `}` or `.`; `$` starts reserved keys only.
    static func nameProblem(_ name: String) -> String? {
        if name.isEmpty { return "a token or group name may not be empty" }
        if name.contains(where: { $0 == "{" || $0 == "}" || $0 == "." }) {
            return "a token or group name may not contain '{', '}' or '.'"
        }
        return nil
    }

    /// `"{a.b.c}"` -> `"a.b.c"`; nil for anything that is not a whole-value alias.
    static func aliasTarget(_ raw: JSONValue) -> String? {
        guard case .string(let text) = raw, text.hasPrefix("{"), text.hasSuffix("}"), text.count > 2 else { return nil }
        return String(text.dropFirst().dropLast())
    }

    /// The type a literal value looks like, for tokens with no `$type` anywhere.
    static func inferType(_ raw: JSONValue) -> TokenType? {
        switch raw {
        case .number:
            return .number
        case .string(let text):
            if DurationText.seconds(text) != nil { return .duration }
            if points(text) != nil { return .dimension }
            return .string
        case .array(let items):
            return items.count == 4 && items.allSatisfy { if case .number = $0 { true } else { false } } ? .cubicBezier : nil
        case .object(let members):
            if members["response"] != nil { return .spring }
            if members["timingFunction"] != nil || members["timing_function"] != nil || members["duration"] != nil { return .transition }
            if case .string(let unit) = members["unit"] {
                if unit == "ms" || unit == "s" { return .duration }
                if unit == "px" || unit == "pt" { return .dimension }
            }
            return nil
        case .null, .bool:
            return nil
        }
    }

    /// Parses a literal as `type`; the error is a sentence for a `ThemeIssue`.
    static func parse(_ raw: JSONValue, as type: TokenType) -> Result<TokenValue, ValueProblem> {
        switch type {
        case .duration:
            return seconds(raw).map { .success(.duration($0)) }
                ?? .failure(ValueProblem("expected a duration such as \"240ms\", \"1.5s\" or {\"value\": 240, \"unit\": \"ms\"}, found \(describe(raw))"))
        case .dimension:
            if case .number(let value) = raw, value >= 0 { return .success(.dimension(value)) }
            if case .string(let text) = raw, let value = points(text) { return .success(.dimension(value)) }
            if case .object(let members) = raw, case .number(let value) = members["value"], value >= 0,
                case .string(let unit) = members["unit"], unit == "px" || unit == "pt"
            {
                return .success(.dimension(value))
            }
            return .failure(ValueProblem("expected a non-negative dimension such as \"32px\" or {\"value\": 32, \"unit\": \"px\"}, found \(describe(raw))"))
        case .number:
            if case .number(let value) = raw { return .success(.number(value)) }
            return .failure(ValueProblem("expected a number, found \(describe(raw))"))
        case .cubicBezier:
            return bezier(raw).map(TokenValue.cubicBezier)
        case .spring:
            guard case .object(let members) = raw, case .number(let response) = members["response"],
                case .number(let fraction) = members["dampingFraction"] ?? members["damping_fraction"]
            else {
                return .failure(ValueProblem("expected a spring {\"response\": 0.42, \"dampingFraction\": 0.82}, found \(describe(raw))"))
            }
            // The client's ranges first: their message names the domain, not Spring's own bounds.
            if let problem = NumberDomain.springResponse.problem(response) { return .failure(ValueProblem("response: \(problem)")) }
            if let problem = NumberDomain.dampingFraction.problem(fraction) { return .failure(ValueProblem("dampingFraction: \(problem)")) }
            do {
                return .success(.spring(try Spring(response: response, dampingFraction: fraction)))
            } catch {
                return .failure(ValueProblem(error.message))
            }
        case .transition:
            guard case .object(let members) = raw, let durationRaw = members["duration"], let duration = seconds(durationRaw) else {
                return .failure(ValueProblem("expected a transition {\"duration\": \"300ms\", \"delay\": \"0ms\", \"timingFunction\": [x1, y1, x2, y2]}, found \(describe(raw))"))
            }
            var delay = 0.0
            if let delayRaw = members["delay"] {
                guard let value = seconds(delayRaw) else { return .failure(ValueProblem("a transition's delay must be a duration, found \(describe(delayRaw))")) }
                delay = value
            }
            var timing = CubicBezier.identity
            if let timingRaw = members["timingFunction"] ?? members["timing_function"] {
                switch bezier(timingRaw) {
                case .success(let points): timing = points
                case .failure(let problem): return .failure(problem)
                }
            }
            return .success(.transition(duration: duration, delay: delay, timing: timing))
        case .string:
            if case .string(let text) = raw { return .success(.string(text)) }
            return .failure(ValueProblem("expected a string, found \(describe(raw))"))
        }
    }

    struct ValueProblem: Error, Hashable {
        var message: String
        init(_ message: String) { self.message = message }
    }

    private static func seconds(_ raw: JSONValue) -> Double? {
        switch raw {
        case .string(let text):
            return DurationText.seconds(text)
        case .object(let members):
            guard case .number(let value) = members["value"], value >= 0, case .string(let unit) = members["unit"] else { return nil }
            return unit == "ms" ? value / 1000 : unit == "s" ? value : nil
        default:
            return nil
        }
    }

    /// `"32px"` / `"32pt"` -> 32.
    private static func points(_ text: String) -> Double? {
        guard text.hasSuffix("px") || text.hasSuffix("pt") else { return nil }
        return DurationText.number(text.dropLast(2)[...])
    }

    private static func bezier(_ raw: JSONValue) -> Result<CubicBezier, ValueProblem> {
        guard case .array(let items) = raw, items.count == 4 else {
            return .failure(ValueProblem("expected a cubicBezier [x1, y1, x2, y2], found \(describe(raw))"))
        }
        var numbers: [Double] = []
        for item in items {
            guard case .number(let value) = item else { return .failure(ValueProblem("cubicBezier values must be numbers, found \(describe(raw))")) }
            numbers.append(value)
        }
        // The client's range for y first: its message names the domain, not the type's bound.
        for (name, y) in [("y1", numbers[1]), ("y2", numbers[3])] {
            if let problem = NumberDomain.bezierY.problem(y) { return .failure(ValueProblem("\(name): \(problem)")) }
        }
        do {
            return .success(try CubicBezier(numbers[0], numbers[1], numbers[2], numbers[3]))
        } catch {
            return .failure(ValueProblem(error.message))
        }
    }

    /// A value in a message: strings quoted, others by kind.
    static func describe(_ raw: JSONValue) -> String {
        switch raw {
        case .string(let text): "\"\(InputQuote.text(text))\""
        case .number(let value): "\(value)"
        default: raw.kindName
        }
    }
}
