extension Curve {
    /// The contract's curve `a{sv}`: `type`, the kind's parameters, `delay`, `source`, and
    /// `samples` when `sampleRate` is given (for renderers without spring support).
    /// - Parameter compact: contract 1.1, "Smaller plans": leaves out what follows from the
    ///   rest, a spring's `stiffness`, `damping`, `mass` and `settle_duration`, and a `delay` of 0
    ///   (`init(wire:)` reads neither).
    public func wireDictionary(sampleRate: Double? = nil, compact: Bool = false) -> [String: PropValue] {
        // Room for every key a curve can have, so the dictionary never grows and rehashes.
        var out = [String: PropValue](minimumCapacity: 11)
        out["source"] = .string(source)
        if !compact || delay != 0 { out["delay"] = .double(delay) }
        switch kind {
        case .spring(let spring):
            out["type"] = .string("spring")
            out["response"] = .double(spring.response)
            out["damping_fraction"] = .double(spring.dampingFraction)
            if !compact {
                out["stiffness"] = .double(spring.stiffness)
                out["damping"] = .double(spring.damping)
                out["mass"] = .double(spring.mass)
                out["settle_duration"] = .double(spring.settleDuration(from: 0, velocity: initialVelocity))
            }
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

extension Curve {
    /// The inverse of `wireDictionary`: reads `type`, its parameters, `delay`, `source` and
    /// `initial_velocity`. A spring's `stiffness`, `damping`, `mass` and `settle_duration`,
    /// and `samples`, follow from the rest and are not read. An unknown `type` (a newer
    /// sender's) reads as `none` with a line in `warnings`; broken parameters are refused.
    public init(wire fields: WireFields, warnings: inout [String]) throws(WireFieldError) {
        let delay = try fields.double("delay", default: 0)
        guard delay >= 0 else { throw fields.error("delay", "a delay cannot be negative") }
        let type = try fields.string("type")
        let kind: Kind
        switch type {
        case "spring":
            let response = try fields.double("response")
            let damping = try fields.double("damping_fraction")
            do { kind = .spring(try Spring(response: response, dampingFraction: damping)) } catch {
                throw fields.error(error.parameter == "response" ? "response" : "damping_fraction", error.message)
            }
        case "bezier":
            let points = try fields.quad("points", what: "points (dddd)")
            let duration = try fields.double("duration")
            do { kind = .bezier(try CubicBezier(points[0], points[1], points[2], points[3]), duration: duration) } catch {
                throw fields.error("points", error.message)
            }
        case "linear":
            kind = .linear(duration: try fields.double("duration"))
        case "none":
            kind = .none
        default:
            warnings.append("\(fields.keyPath("type")): unknown curve type \"\(type)\", drawn without motion")
            kind = .none
        }
        do {
            try self.init(kind, delay: delay, source: try fields.string("source", default: ""),
                          initialVelocity: try fields.double("initial_velocity", default: 0))
        } catch let error as CurveError {
            throw fields.error(error.parameter == "initialVelocity" ? "initial_velocity" : error.parameter, error.message)
        } catch let error as WireFieldError {
            throw error
        } catch {
            throw WireFieldError(key: fields.path, message: "\(error)")
        }
    }
}
