extension Theme {
    /// Every resolved token as `GetTokens` returns it: dotted path -> value, in the forms
    /// `SetTokens` accepts back (durations as `"240ms"`, dimensions and numbers as `d`,
    /// springs as `{response, damping_fraction}`, Béziers as `(dddd)`, transitions as
    /// `{duration, delay, timing_function}`, strings as `s`).
    public var wireTokens: [String: PropValue] {
        tokens.mapValues { Self.wire($0.value) }
    }

    static func wire(_ value: TokenValue) -> PropValue {
        switch value {
        case .duration(let seconds): .string(milliseconds(seconds))
        case .dimension(let points): .double(points)
        case .number(let number): .double(number)
        case .string(let text): .string(text)
        case .cubicBezier(let points): .structure(points.points.map(PropValue.double))
        case .spring(let spring):
            .dictionary(["response": .double(spring.response), "damping_fraction": .double(spring.dampingFraction)])
        case .transition(let duration, let delay, let timing):
            .dictionary([
                "duration": .string(milliseconds(duration)), "delay": .string(milliseconds(delay)),
                "timing_function": .structure(timing.points.map(PropValue.double)),
            ])
        }
    }

    /// `0.24` -> `"240ms"`, `0.0125` -> `"12.5ms"`.
    static func milliseconds(_ seconds: Double) -> String {
        let ms = (seconds * 1000 * 1e6).rounded() / 1e6
        if ms == ms.rounded(), abs(ms) < 1e15 { return "\(Int64(ms))ms" }
        return "\(ms)ms"
    }
}
