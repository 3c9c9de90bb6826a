import NookBus
import NookCore

/// The value grammars verbs share, each failing with the exact text users see.
enum ValueParsing {
    /// `music/song` -> ("music", "song"); both parts non-empty, split at the first `/`.
    static func moduleActivity(_ text: String, verb: String) throws(UsageError) -> (module: String, activity: String) {
        guard let slash = text.firstIndex(of: "/") else {
            throw UsageError("expected MODULE/ACTIVITY, found '\(text)'", verb: verb)
        }
        let module = String(text[..<slash])
        let activity = String(text[text.index(after: slash)...])
        guard !module.isEmpty, !activity.isEmpty else { throw UsageError("expected MODULE/ACTIVITY, found '\(text)'", verb: verb) }
        return (module, activity)
    }

    static func module(_ text: String, verb: String) throws(UsageError) -> String {
        guard !text.isEmpty, !text.contains("/") else { throw UsageError("expected a module id, found '\(text)'", verb: verb) }
        return text
    }

    /// A finite number above 0 (`minimum: 0` allows 0).
    static func number(_ text: String, option: String, verb: String, allowZero: Bool = false) throws(UsageError) -> Double {
        guard let value = Double(text), value.isFinite, allowZero ? value >= 0 : value > 0 else {
            let what = allowZero ? "a number of 0 or more" : "a number above 0"
            throw UsageError("option '\(option)' needs \(what), found '\(text)'", verb: verb)
        }
        return value
    }

    static func count(_ text: String, option: String, verb: String) throws(UsageError) -> Int {
        guard let value = Int(text), value > 0 else {
            throw UsageError("option '\(option)' needs a whole number above 0, found '\(text)'", verb: verb)
        }
        return value
    }

    /// `200x32` -> (200, 32).
    static func size(_ text: String, option: String, verb: String) throws(UsageError) -> (Double, Double) {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w.isFinite, h.isFinite, w >= 0, h >= 0 else {
            throw UsageError("option '\(option)' needs WIDTHxHEIGHT, found '\(text)'", verb: verb)
        }
        return (w, h)
    }

    /// Seconds: `2`, `2s`, `1.5s`, `240ms`.
    static func seconds(_ text: String) -> Double? {
        var number = Substring(text)
        var scale = 1.0
        if number.hasSuffix("ms") {
            number = number.dropLast(2)
            scale = 0.001
        } else if number.hasSuffix("s") {
            number = number.dropLast()
        }
        guard let value = Double(number), value.isFinite, value >= 0 else { return nil }
        return value * scale
    }

    static func onOff(_ text: String, verb: String) throws(UsageError) -> Bool {
        switch text {
        case "on": return true
        case "off": return false
        default: throw UsageError("expected on or off, found '\(text)'", verb: verb)
        }
    }

    static func via(_ text: String?, verb: String) throws(UsageError) -> String? {
        guard let text else { return nil }
        guard OpenVia(rawValue: text) != nil else { throw UsageError("option '--via' must be claim or hover, found '\(text)'", verb: verb) }
        return text
    }

    static let curveGrammar = "chrome, theme, none, spring:RESPONSE:DAMPING, linear:DURATION, bezier:X1,Y1,X2,Y2:DURATION"

    /// `chrome`, `theme`, `none`, `spring:0.42:0.82`, `linear:240ms`, `bezier:0.25,0.1,0.25,1:0.3s`.
    static func curve(_ text: String, verb: String) throws(UsageError) -> CurveArgument {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let bad = UsageError("unknown curve '\(text)' (\(curveGrammar))", verb: verb)
        switch (parts.first ?? "", parts.count) {
        case ("chrome", 1): return .chrome
        case ("theme", 1): return .theme
        case ("none", 1): return .none
        case ("spring", 3):
            guard let response = Double(parts[1]), let damping = Double(parts[2]), response.isFinite, response > 0,
                  damping.isFinite, damping > 0 else { throw bad }
            return .spring(response: response, dampingFraction: damping)
        case ("linear", 2):
            guard let duration = seconds(parts[1]) else { throw bad }
            return .linear(duration: duration)
        case ("bezier", 3):
            let points = parts[1].split(separator: ",").compactMap { Double($0) }
            guard points.count == 4, points.allSatisfy(\.isFinite), (0...1).contains(points[0]), (0...1).contains(points[2]),
                  let duration = seconds(parts[2]) else { throw bad }
            return .bezier(points: points, duration: duration)
        default:
            throw bad
        }
    }

    /// A token value for `SetTokens`: JSON objects and arrays become `a{sv}` and numbers
    /// (four numbers: a Bézier `(dddd)`), `true`/`false` a `b`, a plain number a `d`, anything
    /// else the string itself (`240ms`, `{transition.peek}`, a class string).
    static func tokenValue(_ text: String) -> DBusValue {
        if let first = text.first, first == "[" || (first == "{" && text.dropFirst().first == "\""),
           let json = try? JSONValue.parse(text) {
            return TokenConversion.dbusValue(json)
        }
        if text == "true" { return .bool(true) }
        if text == "false" { return .bool(false) }
        if let number = Double(text), number.isFinite { return .double(number) }
        return .string(text)
    }
}
