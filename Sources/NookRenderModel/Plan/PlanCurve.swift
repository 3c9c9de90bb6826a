import NookCore

/// A plan's curve: NookCore's `Curve`, plus the `samples` keyframes when the plan carries
/// them. Progress comes from the samples when present (what the broker computed for this
/// renderer's frame rate), otherwise from the curve itself.
struct PlanCurve: Hashable, Sendable {
    var curve: Curve
    /// Progress values evenly spaced over `0...curve.totalDuration`, both ends included.
    var samples: [Double]?

    init(curve: Curve, samples: [Double]? = nil) {
        self.curve = curve
        self.samples = samples.flatMap { $0.count >= 2 ? $0 : nil }
    }

    static let immediate = PlanCurve(curve: .none())

    var delay: Double { curve.delay }
    /// Seconds from the plan's start until this curve is at rest.
    var totalDuration: Double { curve.totalDuration }

    /// Progress at `t` seconds into the plan (delay included): 0 before, exactly 1 once the
    /// curve is at rest (a spring is only within 0.1% when it settles); springs may overshoot.
    func progress(at t: Double) -> Double {
        let total = curve.totalDuration
        if t >= total, t >= curve.delay { return 1 }
        // Fewer than two samples cannot be interpolated: evaluate the curve itself.
        guard let samples, samples.count >= 2 else { return curve.value(at: t) }
        guard t > 0 else { return samples[0] }
        guard total > 0, t < total else { return samples[samples.count - 1] }
        let position = t / total * Double(samples.count - 1)
        let index = min(Int(saturating: position), samples.count - 2)
        let fraction = position - Double(index)
        return samples[index] + (samples[index + 1] - samples[index]) * fraction
    }

    /// Progress per second at `t`; 0 once at rest.
    func velocity(at t: Double) -> Double {
        t >= curve.totalDuration ? 0 : curve.velocity(at: t)
    }

    /// Makes a spring start with `progressVelocity` (an interrupted motion continuing, rule
    /// 21): the planner's own value assumed its `from_rect`, and the presenter starts from what
    /// is on screen. Samples computed for the planner's value no longer apply and are dropped.
    /// Timed curves start at rest, as in the planner.
    mutating func takeOver(_ progressVelocity: Double) {
        guard case .spring = curve.kind, let continued = try? curve.withInitialVelocity(progressVelocity) else { return }
        curve = continued
        samples = nil
    }

    /// Progress clamped to 0...1, for opacities.
    func fraction(at t: Double) -> Double { min(max(progress(at: t), 0), 1) }

    func isMoving(at t: Double) -> Bool { t < totalDuration }
}

extension PlanCurve {
    /// Reads the contract's curve `a{sv}` (`type`, its parameters, `delay`, `source`,
    /// `initial_velocity`, `samples`). An unknown `type` is drawn as `none` (the value jumps
    /// after the delay) and reported in `warnings`; broken parameters are refused.
    init(wire fields: WireFields, warnings: inout [String]) throws(RenderPlanError) {
        let delay = try fields.double("delay", default: 0)
        guard delay >= 0 else { throw RenderPlanError(key: fields.keyPath("delay"), message: "a delay cannot be negative") }
        let source = try fields.string("source", default: "")
        let velocity = try fields.double("initial_velocity", default: 0)
        let type = try fields.string("type")
        let kind: Curve.Kind
        do {
            switch type {
            case "spring":
                let response = try fields.double("response")
                let damping = try fields.double("damping_fraction")
                do { kind = .spring(try Spring(response: response, dampingFraction: damping)) } catch {
                    throw RenderPlanError(key: fields.keyPath(error.parameter == "response" ? "response" : "damping_fraction"), message: error.message)
                }
            case "bezier":
                let points = try Self.points(fields)
                let duration = try fields.double("duration")
                do { kind = .bezier(try CubicBezier(points[0], points[1], points[2], points[3]), duration: duration) } catch {
                    throw RenderPlanError(key: fields.keyPath("points"), message: error.message)
                }
            case "linear":
                kind = .linear(duration: try fields.double("duration"))
            case "none":
                kind = .none
            default:
                warnings.append("\(fields.keyPath("type")): unknown curve type \"\(type)\", drawn without motion")
                kind = .none
            }
        }
        do {
            self.init(curve: try Curve(kind, delay: delay, source: source, initialVelocity: velocity),
                      samples: try fields.optionalNumbers("samples"))
        } catch let error as CurveError {
            let key = error.parameter == "initialVelocity" ? "initial_velocity" : error.parameter
            throw RenderPlanError(key: fields.keyPath(key), message: error.message)
        } catch let error as RenderPlanError {
            throw error
        } catch {
            throw RenderPlanError(key: fields.path, message: "\(error)")
        }
    }

    private static func points(_ fields: WireFields) throws(RenderPlanError) -> [Double] {
        let key = fields.keyPath("points")
        guard let value = fields.fields["points"] else { throw RenderPlanError(key: key, message: "a bezier curve needs points (dddd)") }
        let parts: [PropValue]
        switch value {
        case .structure(let items), .array(let items): parts = items
        default: throw RenderPlanError(key: key, message: "expected points (dddd), found \(value.typeName)")
        }
        var numbers: [Double] = []
        for part in parts {
            guard case .double(let number) = part else { throw RenderPlanError(key: key, message: "expected four doubles (dddd)") }
            numbers.append(number)
        }
        guard numbers.count == 4 else { throw RenderPlanError(key: key, message: "expected four doubles (dddd), found \(numbers.count)") }
        return numbers
    }
}
