import NookTestSupport
import Testing
@testable import NookCore

private typealias G = PlannerPropertyTests

/// The planner's cheaper ways of asking what it asked before (docs/PERFORMANCE.md) answer as
/// the general way does, on seeded random inputs.
@Suite struct PlannerOverheadShortcutTests {
    /// `PlanBuilder.sameView`, comparing two view nodes field by field in place, is `==`.
    @Test func sameViewInPlaceIsEquality() {
        let seed = SeededGenerator.runSeed()
        var generator = G.Generator(rng: SeededGenerator(seed: seed))
        var failures: [String] = []
        var equal = 0
        for round in 0..<1_500 {
            let a = generator.view(depth: 3)
            var b: ViewNode
            switch Int.random(in: 0..<4, using: &generator.rng) {
            case 0: b = a
            case 1:
                // Equal but built separately (no shared storage).
                b = ViewNode(kind: a.kind, props: a.props, children: a.children.map { ViewNode(kind: $0.kind, props: $0.props, children: $0.children) })
            case 2:
                b = a
                b.props.opacity = generator.chance(0.5) ? 0.5 : nil
                if generator.chance(0.5) { b.kind = generator.chance(0.5) ? .vstack : .hstack }
            default: b = generator.view(depth: 3)
            }
            let fast = [a].withUnsafeBufferPointer { x in [b].withUnsafeBufferPointer { y in PlanBuilder.sameView(x.baseAddress!, y.baseAddress!) } }
            if fast != (a == b) { failures.append("round \(round): sameView \(fast), == \(a == b)") }
            if a == b { equal += 1 }
        }
        #expect(failures.isEmpty, "seed \(seed) (NOOK_TEST_SEED=\(seed) replays it): \(failures.count) failures, first: \(failures.prefix(3))")
        #expect(equal > 300)
    }

    /// `DurationCap`, remembering springs' settle times by spring and velocity, says of every
    /// curve what its total duration says, shortens each as a new cap does, and reports the
    /// same count and longest curve.
    @Test func durationCapMemoryAnswersAsTotalDuration() throws {
        let seed = SeededGenerator.runSeed()
        var rng = SeededGenerator(seed: seed)
        let springs = try [(0.3, 0.8), (0.55, 1.0), (1.4, 0.6), (2.5, 1.3), (0.42, 0.82)].map { try Spring(response: $0.0, dampingFraction: $0.1) }
        let velocities = [0, 0, 0.8, -2.5, 14]
        let delays = [0, 0, 0.1, 0.7, 1.9]
        let sources = ["a", "b", "transition.convert"]
        var failures: [String] = []
        var cappedCount = 0
        for round in 0..<300 {
            let limit = [0.6, 1.2, 2.0].randomElement(using: &rng)!
            // Half the caps know the theme springs' settle times at rest, as plans' caps do.
            let settled = Bool.random(using: &rng)
                ? Dictionary(uniqueKeysWithValues: springs.prefix(3).map { ($0, $0.settleDuration) }) : [:]
            var cap = DurationCap(limit: limit, settled: settled)
            var (count, longest, longestWhat) = (0, 0.0, "")
            for index in 0..<Int.random(in: 1...24, using: &rng) {
                let delay = delays.randomElement(using: &rng)!
                let source = sources.randomElement(using: &rng)!
                let curve: Curve
                switch Int.random(in: 0..<6, using: &rng) {
                case 0: curve = try Curve(.linear(duration: [0.2, 1.5].randomElement(using: &rng)!), delay: delay, source: source)
                case 1: curve = try Curve(.bezier(.ease, duration: [0.3, 2.4].randomElement(using: &rng)!), delay: delay, source: source)
                case 2: curve = try Curve(.none, delay: delay, source: source)
                default:
                    let velocity = Bool.random(using: &rng) ? velocities.randomElement(using: &rng)! : Double.random(in: -20...20, using: &rng)
                    curve = try Curve(.spring(springs.randomElement(using: &rng)!), delay: delay, source: source, initialVelocity: velocity)
                }
                let total = curve.totalDuration
                let exceeds = total > limit + 1e-9
                if cap.exceeds(curve) != exceeds { failures.append("round \(round) curve \(index): exceeds \(!exceeds), total \(total)") }
                var fresh = DurationCap(limit: limit)
                let expected = fresh.apply(curve, what: "c\(index)")
                let applied = cap.apply(curve, what: "c\(index)")
                if applied != expected { failures.append("round \(round) curve \(index): \(applied) != \(expected)") }
                if exceeds {
                    count += 1
                    if total > longest { (longest, longestWhat) = (total, "c\(index)") }
                }
            }
            cappedCount += count
            if cap.capped != count || cap.longest != longest || cap.longestWhat != longestWhat {
                failures.append("round \(round): capped \(cap.capped) longest \(cap.longest) \(cap.longestWhat), expected \(count) \(longest) \(longestWhat)")
            }
        }
        #expect(failures.isEmpty, "seed \(seed) (NOOK_TEST_SEED=\(seed) replays it): \(failures.count) failures, first: \(failures.prefix(3))")
        #expect(cappedCount > 100)
    }
}
