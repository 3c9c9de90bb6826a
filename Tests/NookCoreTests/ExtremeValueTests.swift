import NookTestSupport
import Testing
@testable import NookCore

private typealias F = PlannerFixture

/// Extreme numbers fed straight into layout, the planner and curve sampling, past the
/// validator (as a state file or a test could): nothing traps and everything that comes
/// out is finite. Seeded; a failure prints its seed, and `ExtremeValues.seed` replays it.
@Suite struct ExtremeValueTests {
    static let doubles: [Double] = [
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, -.leastNonzeroMagnitude,
        .leastNormalMagnitude / 3, .nan, -.nan, .infinity, -.infinity, 0, -0.0, Double(Int64.max), Double(Int64.min),
        1e300, 1e-300, 1e308, 99_999_999_999_999_999_999, 12, 0.5,
    ]
    static let dates: [Int64] = [.min, .max, 0, -1, 1_800_000_000_000_000]
    static let classes = [
        "w-[1e308]", "h-[1.7976931348623157e308]", "p-[1e-300]", "size-999999", "gap-[inf]", "px-[nan]",
        "duration-99999999999999999999", "delay-[99999999999999999999s]", "duration-[1e-300s]", "animate-bouncy p-2",
    ]

    struct Extremes {
        var rng: SeededGenerator
        mutating func double() -> Double { ExtremeValueTests.doubles.randomElement(using: &rng)! }
        mutating func maybe() -> Bool { Bool.random(using: &rng) }

        mutating func props(_ kind: NodeKind) -> NodeProps {
            var p = NodeProps()
            if maybe() { p.width = double() }
            if maybe() { p.height = double() }
            if maybe() { p.minWidth = double() }
            if maybe() { p.maxWidth = double() }
            if maybe() { p.minHeight = double() }
            if maybe() { p.maxHeight = double() }
            if maybe() { p.padding = EdgeInsets(top: double(), leading: double(), bottom: double(), trailing: double()) }
            if maybe() { p.spacing = double() }
            if maybe() { p.opacity = double() }
            if maybe() { p.classes = ExtremeValueTests.classes.randomElement(using: &rng)! }
            switch kind {
            case .text:
                p.text = maybe() ? "Some words to wrap\nand more" : nil
                if maybe() { p.fontSize = double() }
                if maybe() { p.timerEnd = ExtremeValueTests.dates.randomElement(using: &rng)! }
            case .image: if maybe() { p.fontSize = double() }
            case .shape: if maybe() { p.cornerRadius = double() }
            case .progress:
                if maybe() { p.value = double() }
                if maybe() { p.start = ExtremeValueTests.dates.randomElement(using: &rng)! }
                if maybe() { p.end = ExtremeValueTests.dates.randomElement(using: &rng)! }
            case .spacer: if maybe() { p.minLength = double() }
            default: break
            }
            if maybe() { p.shared = SharedMark(id: ["cover", "timer"].randomElement(using: &rng)!) }
            return p
        }

        mutating func node(depth: Int = 0) -> ViewNode {
            let kind: NodeKind = depth < 3 && maybe() ? [.vstack, .hstack, .zstack, .view].randomElement(using: &rng)!
                : [.text, .image, .shape, .progress, .spacer].randomElement(using: &rng)!
            let children = kind.isStack || kind == .view ? (0..<Int.random(in: 0...3, using: &rng)).map { _ in node(depth: depth + 1) } : []
            return ViewNode(kind: kind, props: props(kind), children: children)
        }

        mutating func curve() -> CurveOverride {
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: return (try? Curve.spring(response: double(), dampingFraction: double(), delay: double(), source: "x")).map(CurveOverride.curve) ?? .theme
            case 1: return (try? Curve.linear(duration: double(), delay: double())).map(CurveOverride.curve) ?? .chrome
            case 2:
                guard let points = try? CubicBezier(0.5, double(), 0.5, double()) else { return .theme }
                return (try? Curve.bezier(points, duration: double())).map(CurveOverride.curve) ?? .theme
            case 3: return .chrome
            default: return .theme
            }
        }
    }

    static func finite(_ rect: Rect) -> Bool {
        rect.x.isFinite && rect.y.isFinite && rect.width.isFinite && rect.height.isFinite && rect.width >= 0 && rect.height >= 0
    }

    static func curveProblems(_ curve: Curve, sampleRate: Double) -> [String] {
        var problems: [String] = []
        let wire = curve.wireDictionary(sampleRate: sampleRate)
        for (key, value) in wire {
            if case .double(let number) = value, !number.isFinite { problems.append("curve \(key) = \(number)") }
            if case .array(let samples) = value {
                if samples.count > Curve.maxSampleCount + 1 { problems.append("\(samples.count) samples") }
                if samples.contains(where: { if case .double(let x) = $0 { !x.isFinite } else { true } }) {
                    problems.append("a sample is not finite")
                }
            }
        }
        return problems
    }

    @Test func layoutOfExtremeTreesIsFinite() {
        let seed = SeededGenerator.runSeed()
        var extremes = Extremes(rng: SeededGenerator(seed: seed))
        var failures: [String] = []
        for round in 0..<400 {
            let tree = extremes.node()
            let proposal = ProposedSize(width: extremes.maybe() ? extremes.double() : nil, height: extremes.maybe() ? extremes.double() : nil)
            let result = LayoutEngine.layout(tree, rootPath: "expanded", proposal: proposal, namedRules: ["card": "w-[1e308] p-[1e308]"])
            for node in result.nodes where !Self.finite(node.rect) {
                failures.append("round \(round): \(node.path) \(node.rect)")
            }
            if failures.count > 5 { break }
        }
        #expect(failures.isEmpty, "seed \(seed): \(failures.prefix(5))")
    }

    @Test func plansOfExtremeScenesAreFinite() {
        let seed = SeededGenerator.runSeed()
        var extremes = Extremes(rng: SeededGenerator(seed: seed))
        var failures: [String] = []
        let presentations: [Presentation] = [.pill, .peek, .expanded, .companion, .hidden]
        for round in 0..<150 {
            let display = DisplayInfo(
                width: extremes.double(), height: extremes.double(), notchWidth: extremes.double(), notchHeight: extremes.double(),
                scale: extremes.double())
            let settings = PlannerSettings(
                display: display, reduceMotion: extremes.maybe() && extremes.maybe(), sharedElementAnimation: extremes.curve(),
                sharedElementPeekAnimation: extremes.curve())
            var content = SceneContent(
                compactLeading: F.owned("music/song", extremes.node()), compactTrailing: F.owned("music/song", extremes.node()),
                minimal: [F.owned("timer/tea", extremes.node())], peek: F.owned("music/song", extremes.node()))
            content.expanded = .activity(F.owned("music/song", extremes.node()))
            let from = F.scene(presentations.randomElement(using: &extremes.rng)!, content, settings)
            var next = content
            next.expanded = .activity(F.owned("music/song", extremes.node()))
            let to = F.scene(presentations.randomElement(using: &extremes.rng)!, next, settings)
            let cause: PlanCause = [.open, .close, .peek, .activityUpdated].randomElement(using: &extremes.rng)!
            let first = F.plan(from, to, cause: cause, settings: settings)
            let inFlight = InFlightPlan(plan: first, elapsed: extremes.double())
            let plan = F.plan(to, from, cause: .close, serial: 3, settings: settings, inFlight: inFlight)
            for candidate in [first, plan] {
                var rects = [("chrome from", candidate.chrome.fromRect), ("chrome to", candidate.chrome.toRect)]
                rects += candidate.elements.flatMap { [("element \($0.key) from", $0.fromRect), ("element \($0.key) to", $0.toRect)] }
                rects += candidate.layout.flatMap { [("layout \($0.path) from", $0.fromRect), ("layout \($0.path) to", $0.toRect)] }
                rects += candidate.scene.nodes.map { ("scene \($0.path)", $0.rect) }
                for (what, rect) in rects where !Self.finite(rect) {
                    failures.append("round \(round): \(what) \(rect), running chrome curve \(PlanText.curve(first.chrome.curve)) at \(inFlight.elapsed)")
                }
                let curves = [candidate.chrome.curve] + candidate.elements.map(\.curve) + candidate.layout.map(\.curve) + candidate.slots.map(\.curve)
                for curve in curves {
                    failures += Self.curveProblems(curve, sampleRate: [1, 60, 1000].randomElement(using: &extremes.rng)!).map { "round \(round): \($0)" }
                }
                if !candidate.duration.isFinite { failures.append("round \(round): duration \(candidate.duration)") }
                _ = candidate.rendering  // formats every number: must not trap
            }
            if failures.count > 5 { break }
        }
        #expect(failures.isEmpty, "seed \(seed): \(failures.prefix(5))")
    }

    @Test func curveSamplingOfExtremeParametersIsFiniteAndBounded() {
        let seed = SeededGenerator.runSeed()
        var extremes = Extremes(rng: SeededGenerator(seed: seed))
        var failures: [String] = []
        for round in 0..<300 {
            guard case .curve(let curve) = extremes.curve() else { continue }
            let velocity = extremes.double()
            let moving = (try? curve.withInitialVelocity(velocity)) ?? curve
            let rate = extremes.double()
            failures += Self.curveProblems(moving, sampleRate: rate).map { "round \(round) (rate \(rate)): \($0)" }
            for t in [extremes.double(), 0, 0.1] {
                if !moving.value(at: t).isFinite && t.isFinite { failures.append("round \(round): value at \(t)") }
            }
            if failures.count > 5 { break }
        }
        #expect(failures.isEmpty, "seed \(seed): \(failures.prefix(5))")
    }

    @Test func textFitsATallFrameOverTinyTextWithoutTrapping() {
        // Issue 15, case 2: `Int(height / lineHeight)` trapped for a height of 1e300.
        var text = F.text("tall")
        text.props.height = 1e300
        text.props.fontSize = 1e-300
        let rect = LayoutEngine.layout(text, rootPath: "expanded", proposal: ProposedSize(width: 100, height: nil)).nodes[0].rect
        #expect(Self.finite(rect))
        #expect(rect.height == NumberDomain.length.upper)
    }

    @Test func planTextFormatsNumbersOfAnySize() {
        // Issue 15, case 3: the cap diagnostic quoted a 1e308 s duration through Int64.
        #expect(PlanText.number(1e308) == "1e+308")
        #expect(PlanText.number(-.infinity) == "-inf")
        #expect(PlanText.number(0.4204) == "0.42")
    }

    @Test func saturatingConversionsStickAtTheBounds() {
        #expect(Int64(saturating: .nan) == 0)
        #expect(Int64(saturating: .infinity) == .max)
        #expect(Int64(saturating: -1e300) == .min)
        #expect(Int64(saturating: 9_223_372_036_854_775_807.0) == .max)
        #expect(Int64(saturating: 12.9) == 12)
        #expect(Int64.min.saturatingSubtract(1) == .min)
        #expect(Int64.max.saturatingAdd(1) == .max)
        #expect(Int64(5).saturatingSubtract(Int64.min) == .max)
    }
}
