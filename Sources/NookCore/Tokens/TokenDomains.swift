/// Which `NumberDomain` each token's numbers belong to: by path for the two durations with
/// their own range (`motion.maxDuration`, `broker.moduleGrace`), by type for the rest.
enum TokenDomains {
    /// Why `value` at `path` is out of range, naming the part at fault; nil when it is fine.
    static func problem(path: String, value: TokenValue) -> String? {
        switch value {
        case .duration(let seconds):
            let domain =
                switch path {
                case "motion.maxDuration": NumberDomain.maxDuration
                case "broker.moduleGrace": NumberDomain.grace
                default: NumberDomain.duration
                }
            return domain.problem(seconds).map { "duration: \($0)" }
        case .dimension(let points):
            return NumberDomain.length.problem(points).map { "dimension: \($0)" }
        case .number(let number):
            return NumberDomain.tokenNumber.problem(number).map { "number: \($0)" }
        case .spring(let spring):
            if let problem = NumberDomain.springResponse.problem(spring.response) { return "response: \(problem)" }
            return NumberDomain.dampingFraction.problem(spring.dampingFraction).map { "dampingFraction: \($0)" }
        case .transition(let duration, let delay, let timing):
            if let problem = NumberDomain.duration.problem(duration) { return "duration: \(problem)" }
            if let problem = NumberDomain.duration.problem(delay) { return "delay: \(problem)" }
            return bezierProblem(timing)
        case .cubicBezier(let points):
            return bezierProblem(points)
        case .string(let text) where path == Theme.fontFamilyPath:
            return Theme.fontFamilyProblem(text)
        case .string(let text) where path == Theme.withoutPresetPath:
            return Theme.withoutPresetChoices.contains(text)
                ? nil : "string: \"\(InputQuote.text(text))\" is not one of " + Theme.withoutPresetChoices.joined(separator: ", ")
        case .string(let text):
            let bytes = text.utf8.count
            return bytes > ThemeLimits.maxValueBytes ? "the string is \(bytes) bytes (at most \(ThemeLimits.maxValueBytes), maxValueBytes)" : nil
        }
    }

    /// A curve's numbers (`SetSharedElementAnimation`, token values): the same domains.
    static func bezierProblem(_ points: CubicBezier) -> String? {
        for (name, y) in [("y1", points.y1), ("y2", points.y2)] {
            if let problem = NumberDomain.bezierY.problem(y) { return "\(name): \(problem)" }
        }
        return nil
    }
}
