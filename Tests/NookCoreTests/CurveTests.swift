import Testing
@testable import NookCore

private let dampings = [0.15, 0.5, 0.82, 0.999_999_9, 1, 1.000_000_1, 1.5, 4]
private let responses = [0.2, 0.42, 1.3]
private let starts: [(value: Double, velocity: Double)] = [(0, 0), (0.3, 2), (0, -5), (1.4, 0)]

@Test func springDerivesStiffnessDampingAndMassFromResponse() throws {
    let spring = try Spring(response: 0.42, dampingFraction: 0.82)
    let omega = 2 * Double.pi / 0.42
    #expect(spring.mass == 1)
    #expect(abs(spring.stiffness - omega * omega) < 1e-9)
    #expect(abs(spring.damping - 4 * Double.pi * 0.82 / 0.42) < 1e-9)
    // c = 2ζ√(km) ties the two derivations together.
    #expect(abs(spring.damping - 2 * 0.82 * (spring.stiffness * spring.mass).squareRoot()) < 1e-9)
}

@Test func springStartsWhereAndHowFastItWasTold() throws {
    var failures: [String] = []
    for zeta in dampings {
        for response in responses {
            let spring = try Spring(response: response, dampingFraction: zeta)
            for start in starts {
                let value = spring.value(at: 1e-12, from: start.value, velocity: start.velocity)
                let velocity = spring.velocity(at: 1e-12, from: start.value, velocity: start.velocity)
                if abs(value - start.value) > 1e-9 || abs(velocity - start.velocity) > 1e-6 {
                    failures.append("ζ \(zeta) r \(response) start \(start): \(value), \(velocity)")
                }
            }
        }
    }
    #expect(failures.isEmpty, "\(failures)")
}

@Test func springVelocityMatchesFiniteDifference() throws {
    var failures: [String] = []
    let h = 1e-6
    for zeta in dampings {
        for response in responses {
            let spring = try Spring(response: response, dampingFraction: zeta)
            for start in starts {
                for step in 1...40 {
                    let t = Double(step) * response / 20
                    let numeric = (spring.value(at: t + h, from: start.value, velocity: start.velocity)
                        - spring.value(at: t - h, from: start.value, velocity: start.velocity)) / (2 * h)
                    let closed = spring.velocity(at: t, from: start.value, velocity: start.velocity)
                    if abs(numeric - closed) > 1e-5 * max(1, abs(closed)) {
                        failures.append("ζ \(zeta) r \(response) start \(start) t \(t): \(closed) vs \(numeric)")
                    }
                }
            }
        }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
}

@Test func springObeysItsEquationOfMotion() throws {
    // u'' + (c/m)u' + (k/m)u = 0 with u = progress − 1, u'' taken by finite difference.
    var failures: [String] = []
    let h = 1e-5
    for zeta in dampings {
        let spring = try Spring(response: 0.42, dampingFraction: zeta)
        for step in 1...30 {
            let t = Double(step) * 0.03
            let u = spring.value(at: t, from: 0.3, velocity: 2) - 1
            let du = spring.velocity(at: t, from: 0.3, velocity: 2)
            let ddu = (spring.velocity(at: t + h, from: 0.3, velocity: 2) - spring.velocity(at: t - h, from: 0.3, velocity: 2)) / (2 * h)
            let residual = ddu + spring.damping * du + spring.stiffness * u
            if abs(residual) > 1e-3 * spring.stiffness { failures.append("ζ \(zeta) t \(t): \(residual)") }
        }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
}

@Test func criticalDampingIsContinuousWithItsNeighbours() throws {
    let critical = try Spring(response: 0.5, dampingFraction: 1)
    for zeta in [1 - 1e-4, 1 + 1e-4] {
        let near = try Spring(response: 0.5, dampingFraction: zeta)
        for step in 1...20 {
            let t = Double(step) * 0.05
            #expect(abs(near.value(at: t, from: 0.2, velocity: 3) - critical.value(at: t, from: 0.2, velocity: 3)) < 1e-3)
        }
    }
}

@Test func springSettleDurationIsFirstMomentWithinThreshold() throws {
    var failures: [String] = []
    for zeta in dampings {
        for response in responses {
            let spring = try Spring(response: response, dampingFraction: zeta)
            for start in starts {
                let settle = spring.settleDuration(from: start.value, velocity: start.velocity)
                let omega = spring.angularFrequency
                let initial = ((start.value - 1) * (start.value - 1) + (start.velocity / omega) * (start.velocity / omega)).squareRoot()
                func radius(_ t: Double) -> Double {
                    let u = spring.value(at: t, from: start.value, velocity: start.velocity) - 1
                    let v = spring.velocity(at: t, from: start.value, velocity: start.velocity) / omega
                    return (u * u + v * v).squareRoot()
                }
                if radius(settle) > initial * Spring.settleFraction * (1 + 1e-6) { failures.append("not settled: ζ \(zeta) r \(response) \(start)") }
                if radius(settle * 0.99) <= initial * Spring.settleFraction { failures.append("settled early: ζ \(zeta) r \(response) \(start)") }
                // Settled means settled for good: energy never grows back.
                if radius(settle * 3) > initial * Spring.settleFraction { failures.append("unsettled later: ζ \(zeta)") }
            }
        }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
    #expect(try Spring(response: 0.3, dampingFraction: 1).settleDuration(from: 1, velocity: 0) == 0)
}

@Test func stifferSpringsSettleSooner() throws {
    let slow = try Spring(response: 0.8, dampingFraction: 0.82).settleDuration
    let fast = try Spring(response: 0.3, dampingFraction: 0.82).settleDuration
    #expect(fast < slow)
    #expect(abs(fast / slow - 0.3 / 0.8) < 1e-4)  // settle time scales with response
}

@Test func curvesRejectBadParametersNamingThem() {
    func parameter(_ make: () throws(CurveError) -> Curve) -> String? {
        do { _ = try make(); return nil } catch { return error.parameter }
    }
    let cases: [(String, () throws(CurveError) -> Curve, String)] = [
        ("zero response", { () throws(CurveError) in try .spring(response: 0, dampingFraction: 1) }, "response"),
        ("negative response", { () throws(CurveError) in try .spring(response: -1, dampingFraction: 1) }, "response"),
        ("NaN response", { () throws(CurveError) in try .spring(response: .nan, dampingFraction: 1) }, "response"),
        ("negative damping", { () throws(CurveError) in try .spring(response: 0.4, dampingFraction: -0.1) }, "dampingFraction"),
        ("zero damping", { () throws(CurveError) in try .spring(response: 0.4, dampingFraction: 0) }, "dampingFraction"),
        ("infinite damping", { () throws(CurveError) in try .spring(response: 0.4, dampingFraction: .infinity) }, "dampingFraction"),
        ("negative duration", { () throws(CurveError) in try .linear(duration: -1) }, "duration"),
        ("NaN bezier duration", { () throws(CurveError) in try .bezier(.ease, duration: .nan) }, "duration"),
        ("x above one", { () throws(CurveError) in try .bezier(CubicBezier(0.2, 0, 1.2, 1), duration: 1) }, "points"),
        ("NaN point", { () throws(CurveError) in try .bezier(CubicBezier(0.2, .nan, 0.5, 1), duration: 1) }, "points"),
        ("negative delay", { () throws(CurveError) in try .linear(duration: 1, delay: -0.1) }, "delay"),
        ("NaN velocity", { () throws(CurveError) in try Curve.spring(response: 0.4, dampingFraction: 1).withInitialVelocity(.nan) }, "initialVelocity"),
    ]
    var failures: [String] = []
    for (name, make, expected) in cases where parameter(make) != expected {
        failures.append("\(name): \(parameter(make) ?? "accepted")")
    }
    #expect(failures.isEmpty, "\(failures)")
}

@Test func bezierSolverInvertsTimeAcrossPointGrid() throws {
    var failures: [String] = []
    let controls: [Double] = [0, 0.1, 0.42, 0.58, 0.9, 1]
    for x1 in controls {
        for x2 in controls {
            let curve = try CubicBezier(x1, -0.3, x2, 1.4)
            for step in 0...100 {
                let x = Double(step) / 100
                let s = curve.solve(x)
                if abs(CubicBezier.coordinate(s, x1, x2) - x) > 1e-9 { failures.append("x1 \(x1) x2 \(x2) x \(x)") }
            }
        }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
    #expect(abs(try CubicBezier(0, 0, 1, 1).progress(at: 0.37) - 0.37) < 1e-9)
}

@Test func bezierVelocityMatchesFiniteDifference() throws {
    var failures: [String] = []
    let h = 1e-6
    for points in [CubicBezier.ease, try CubicBezier(0.42, 0, 0.58, 1), try CubicBezier(0.3, -0.5, 0.2, 1.6)] {
        let curve = try Curve.bezier(points, duration: 0.3, delay: 0.05)
        for step in 1..<60 {
            let t = 0.05 + Double(step) * 0.3 / 60
            let numeric = (curve.value(at: t + h) - curve.value(at: t - h)) / (2 * h)
            if abs(numeric - curve.velocity(at: t)) > 1e-4 * max(1, abs(numeric)) {
                failures.append("\(points.points) t \(t): \(curve.velocity(at: t)) vs \(numeric)")
            }
        }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
}

@Test func delayHoldsProgressAtZeroThenCurveRuns() throws {
    let spring = try Curve.spring(response: 0.4, dampingFraction: 0.9, delay: 0.1)
    let linear = try Curve.linear(duration: 0.2, delay: 0.1)
    for curve in [spring, linear] {
        #expect(curve.value(at: 0) == 0)
        #expect(curve.value(at: 0.1) == 0)
        #expect(curve.velocity(at: 0.05) == 0)
        #expect(curve.value(at: 0.15) > 0)
        #expect(abs(curve.value(at: curve.totalDuration) - 1) < 2e-3)
    }
    #expect(linear.value(at: 0.2) == 0.5)
    #expect(linear.velocity(at: 0.2) == 5)
    #expect(abs(linear.totalDuration - 0.3) < 1e-12)
    let none = Curve.none(source: "reduce-motion")
    #expect(none.value(at: 0) == 1 && none.totalDuration == 0 && none.velocity(at: 0) == 0)
}

@Test func interruptedSpringCarriesItsVelocity() throws {
    let base = try Curve.spring(response: 0.42, dampingFraction: 0.82, source: "transition.convert")
    let resumed = try base.withInitialVelocity(4)
    #expect(abs(resumed.velocity(at: 1e-9) - 4) < 1e-5)
    #expect(resumed.value(at: 0.05) > base.value(at: 0.05))
    #expect(resumed.source == "transition.convert")
}

@Test func withDurationRescalesResponseOrDuration() throws {
    let spring = try Curve.spring(response: 0.5, dampingFraction: 1).withDuration(0.4)
    guard case .spring(let inner) = spring.kind else { Issue.record("kind changed"); return }
    #expect(inner.response == 0.4 && inner.dampingFraction == 1)
    let bezier = try Curve.bezier(.ease, duration: 0.3).withDuration(0.6)
    #expect(bezier.activeDuration == 0.6)
    #expect(throws: CurveError.self) { try Curve.linear(duration: 1).withDuration(-1) }
}

@Test func samplesCoverTheWholeCurveAtTheFrameRate() throws {
    let curve = try Curve.linear(duration: 0.5)
    #expect(curve.samples(count: 3) == [0, 0.5, 1])
    let frames = curve.samples(frameRate: 60)
    #expect(frames.count == 31)
    #expect(frames.first == 0 && frames.last == 1)
    let spring = try Curve.spring(response: 0.3, dampingFraction: 0.6)
    let keyframes = spring.samples(frameRate: 120)
    #expect(keyframes.count == Int((spring.totalDuration * 120).rounded(.up)) + 1)
    #expect(keyframes.contains { $0 > 1 })  // under-damped: the overshoot survives sampling
    #expect(abs(keyframes.last! - 1) < 2e-3)
}

@Test func wireDictionaryHasContractKeysPerType() throws {
    let spring = try Curve.spring(response: 0.42, dampingFraction: 0.82, source: "motion.sharedElement.convert -> transition.convert")
        .wireDictionary()
    #expect(Set(spring.keys) == ["type", "response", "damping_fraction", "stiffness", "damping", "mass", "settle_duration", "delay", "source"])
    #expect(spring["type"] == .string("spring"))
    #expect(spring["source"] == .string("motion.sharedElement.convert -> transition.convert"))
    let bezier = try Curve.bezier(.ease, duration: 0.18).wireDictionary(sampleRate: 10)
    #expect(bezier["points"] == .structure([.double(0.25), .double(0.1), .double(0.25), .double(1)]))
    if case .array(let samples) = bezier["samples"] { #expect(samples.count == 3) } else { Issue.record("no samples") }
    #expect(Curve.none().wireDictionary()["type"] == .string("none"))
}
