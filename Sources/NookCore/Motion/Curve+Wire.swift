extension Curve {
    /// The contract's curve `a{sv}`: `type`, the kind's parameters, `delay`, `source`, and
    /// `samples` when `sampleRate` is given (for renderers without spring support).
    public func wireDictionary(sampleRate: Double? = nil) -> [String: PropValue] {
        var out: [String: PropValue] = ["delay": .double(delay), "source": .string(source)]
        switch kind {
        case .spring(let spring):
            out["type"] = .string("spring")
            out["response"] = .double(spring.response)
            out["damping_fraction"] = .double(spring.dampingFraction)
            out["stiffness"] = .double(spring.stiffness)
            out["damping"] = .double(spring.damping)
            out["mass"] = .double(spring.mass)
            out["settle_duration"] = .double(spring.settleDuration(from: 0, velocity: initialVelocity))
            if initialVelocity != 0 { out["initial_velocity"] = .double(initialVelocity) }
        case .bezier(let points, let duration):
            out["type"] = .string("bezier")
            out["duration"] = .double(duration)
            out["points"] = .structure(points.points.map(PropValue.double))
        case .linear(let duration):
            out["type"] = .string("linear")
            out["duration"] = .double(duration)
        case .none:
            out["type"] = .string("none")
        }
        if let sampleRate { out["samples"] = .array(samples(frameRate: sampleRate).map(PropValue.double)) }
        return out
    }
}
