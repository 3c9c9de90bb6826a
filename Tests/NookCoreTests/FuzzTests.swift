import Foundation
import NookTestSupport
import Testing
@testable import NookCore

/// Bounded fuzzing in `make test` (the long run is `make fuzz`, see `Fuzz/README.md`): seeded
/// mutation of valid inputs for the class-string parser, the token (JSON) parser with the
/// theme merge, and RawNode trees through the ViewValidator. The oracle is "no crash, no
/// hang, and every failure is a typed error"; each case replays from the seed it prints.
enum FuzzCorpus {
    static let classStrings = [
        "group/hero p-2", "shared-[cover] w-20", "hover:opacity-70", "animate-smooth duration-200 delay-[40ms]",
        "group-hover/hero:scale-110 shared-[timer.a1]/scale", "w-[12.5px] h-full gap-x-3 rounded-lg",
        "focus:ring-2 disabled:opacity-50 group-active:bg-[#112233]", "shared-[a]/resize/leading",
    ]
    static let tokenDocuments = [
        #"{"transition": {"peek": {"$type": "duration", "$value": "240ms"}}}"#,
        #"{"motion": {"hideDip": {"$value": "{transition.peek}"}}, "broker": {"moduleGrace": {"$type": "duration", "$value": "10s"}}}"#,
        #"{"a": {"$type": "number", "b": {"$value": 1.5e3}, "c": {"$value": [1, 2, {"x": null}]}}, "s": "\u00e9\n"}"#,
        ##"{"color": {"bg": {"$type": "color", "$value": "#112233aa"}}, "spring": {"$value": {"response": 0.3, "damping_fraction": 0.8}}}"##,
    ]
    static let alphabet = Array("[](){}/:-_.#\\\"'$ ,0123456789eE+-abcdefghijklmnopqrstuvwxyz\u{0}\u{7f}é€😀\n\t")

    /// One mutation: insert, delete, replace, duplicate a slice, or splice another seed.
    static func mutate(_ text: String, _ rng: inout SeededGenerator, pool: [String]) -> String {
        var chars = Array(text)
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let at = chars.isEmpty ? 0 : Int.random(in: 0..<chars.count, using: &rng)
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: chars.insert(alphabet.randomElement(using: &rng)!, at: at)
            case 1: if !chars.isEmpty { chars.remove(at: at) }
            case 2: if !chars.isEmpty { chars[at] = alphabet.randomElement(using: &rng)! }
            case 3:
                let end = min(chars.count, at + Int.random(in: 1...16, using: &rng))
                chars.insert(contentsOf: chars[at..<end], at: at)
            case 4:
                let other = Array(pool.randomElement(using: &rng)!)
                let from = Int.random(in: 0...other.count, using: &rng)
                chars.insert(contentsOf: other[from...], at: at)
            default:
                let end = min(chars.count, at + Int.random(in: 1...8, using: &rng))
                chars.removeSubrange(at..<end)
            }
        }
        return String(chars.prefix(4096))
    }

    static func classString(_ text: String) {
        let list = ClassList(parsing: text, namedRules: ["card": "p-2 rounded-lg"], path: "fuzz")
        // Deterministic: the same input parses the same way.
        precondition(list == ClassList(parsing: text, namedRules: ["card": "p-2 rounded-lg"], path: "fuzz"), "not deterministic: \(text)")
    }

    static func tokens(_ text: String) {
        _ = try? JSONValue.parse(text)
        _ = try? JSONValue.parse(text, maxDepth: 8)
        _ = try? Theme.builtIn.merging(json: text)
    }

    static func view(_ node: RawNode) {
        _ = try? ViewValidator().validate(node, slot: "expanded")
        _ = try? ViewValidator(limits: ViewLimits(maxNodes: 16, maxDepth: 4)).validate(node, slot: "compact_leading")
    }

    static let kinds = ["vstack", "hstack", "zstack", "text", "image", "shape", "progress", "spacer", "view", "", "blob"]
    static let keys = ["text", "width", "height", "min_width", "padding", "opacity", "classes", "group", "group_state", "shared", "identity",
                       "role", "symbol", "shape", "color", "value", "start", "end", "name", "params", "spacing", "alignment", "timer_end", "zz"]

    static func value(_ rng: inout SeededGenerator, depth: Int) -> PropValue {
        switch Int.random(in: 0..<(depth > 3 ? 6 : 10), using: &rng) {
        case 0: return .bool(Bool.random(using: &rng))
        case 1: return .int(Int64.random(in: .min ... .max, using: &rng))
        case 2: return .uint(UInt64.random(in: 0...5, using: &rng))
        case 3: return .double([0, -1, .nan, .infinity, -.infinity, 1e308, 12, 0.5].randomElement(using: &rng)!)
        case 4: return .string(mutate(classStrings.randomElement(using: &rng)!, &rng, pool: classStrings))
        case 5: return .string(["cover", "", "#fff", "center", "circle", "CoverArt", "header"].randomElement(using: &rng)!)
        case 6: return .array((0..<Int.random(in: 0...4, using: &rng)).map { _ in value(&rng, depth: depth + 1) })
        case 7: return .structure((0..<Int.random(in: 0...5, using: &rng)).map { _ in value(&rng, depth: depth + 1) })
        case 8:
            var dict: [String: PropValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                dict[["id", "style", "namespace", "anchor", "is_source", "focus", "x"].randomElement(using: &rng)!] = value(&rng, depth: depth + 1)
            }
            return .dictionary(dict)
        default: return .node(node(&rng, depth: depth + 1))
        }
    }

    static func node(_ rng: inout SeededGenerator, depth: Int = 0) -> RawNode {
        var props: [String: PropValue] = [:]
        for _ in 0..<Int.random(in: 0...5, using: &rng) { props[keys.randomElement(using: &rng)!] = value(&rng, depth: depth) }
        let children = depth > 5 ? [] : (0..<Int.random(in: 0...3, using: &rng)).map { _ in node(&rng, depth: depth + 1) }
        return RawNode(kind: kinds.randomElement(using: &rng)!, props: props, children: children)
    }
}

/// The `curves` and `display` targets of Fuzz/NookFuzz.swift, on seeded bytes biased towards
/// the doubles that break arithmetic (the libFuzzer run finds its own).
enum NumberFuzz {
    static let doubles: [Double] = [
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNonzeroMagnitude, .leastNormalMagnitude / 7, .nan,
        .infinity, -.infinity, 0, -0.0, Double(Int64.max), Double(Int64.min), 1e-300, 1e300, 1e6, 1e7, 0.42, 0.82, 60, 1000,
    ]

    static func bytes(_ rng: inout SeededGenerator, doubles count: Int) -> [UInt8] {
        var out: [UInt8] = [UInt8.random(in: 0...255, using: &rng)]
        for _ in 0..<count {
            let value = Bool.random(using: &rng) ? doubles.randomElement(using: &rng)! : Double(bitPattern: UInt64.random(in: 0 ... .max, using: &rng))
            withUnsafeBytes(of: value.bitPattern.littleEndian) { out.append(contentsOf: $0) }
        }
        return out
    }

    /// Reads little-endian doubles after one leading byte, as the fuzz target's ByteReader does.
    struct Reader {
        let bytes: [UInt8]
        var offset = 0
        mutating func byte() -> UInt8 {
            defer { offset += 1 }
            return offset < bytes.count ? bytes[offset] : 0
        }
        mutating func double() -> Double {
            var raw: UInt64 = 0
            for index in 0..<8 { raw |= UInt64(byte()) << (8 * UInt64(index)) }
            return Double(bitPattern: raw)
        }
    }

    /// Mirrors `checkCurve`: problems found, empty when fine.
    static func curve(_ bytes: [UInt8]) -> [String] {
        var reader = Reader(bytes: bytes)
        let kind = reader.byte() % 3
        let (a, b, delay, y1, y2, velocity, rate) = (reader.double(), reader.double(), reader.double(), reader.double(),
                                                      reader.double(), reader.double(), reader.double())
        var curve: Curve?
        switch kind {
        case 0: curve = try? Curve.spring(response: a, dampingFraction: b, delay: delay)
        case 1: curve = try? Curve.linear(duration: a, delay: delay)
        default: curve = (try? CubicBezier(0.5, y1, 0.5, y2)).flatMap { try? Curve.bezier($0, duration: a, delay: delay) }
        }
        guard var accepted = curve else { return [] }
        if let moving = try? accepted.withInitialVelocity(velocity) { accepted = moving }
        var problems: [String] = []
        for (key, value) in accepted.wireDictionary(sampleRate: rate) {
            if case .double(let number) = value, !number.isFinite { problems.append("\(key) = \(number)") }
            if case .array(let samples) = value {
                if samples.count > Curve.maxSampleCount + 1 { problems.append("\(samples.count) samples") }
                if samples.contains(where: { if case .double(let x) = $0 { !x.isFinite } else { true } }) { problems.append("a sample is not finite") }
            }
        }
        return problems.map { "\(accepted) at \(rate) Hz: \($0)" }
    }

    /// Mirrors `checkDisplay`.
    static func display(_ bytes: [UInt8]) -> [String] {
        var reader = Reader(bytes: bytes)
        _ = reader.byte()
        let display = DisplayInfo(width: reader.double(), height: reader.double(), notchWidth: reader.double(),
                                  notchHeight: reader.double(), scale: reader.double())
        let settings = PlannerSettings(display: display)
        var cover = ViewNode(kind: .view, props: NodeProps(), children: [])
        cover.props.width = 40
        cover.props.height = 40
        cover.props.shared = SharedMark(id: "cover")
        var content = SceneContent(compactLeading: OwnedView(owner: "m/a", view: cover), compactTrailing: OwnedView(owner: "m/a", view: cover))
        let pill = PlannerScene(presentation: .pill, content: content, settings: settings)
        content.expanded = .activity(OwnedView(owner: "m/a", view: ViewNode(kind: .vstack, props: NodeProps(), children: [cover])))
        let open = PlannerScene(presentation: .expanded, content: content, settings: settings)
        let plan = TransitionPlanner.plan(from: pill, to: open, action: PlanAction(cause: .open, serial: 1), settings: settings)
        var rects = [plan.chrome.fromRect, plan.chrome.toRect] + plan.scene.nodes.map(\.rect)
        rects += plan.elements.flatMap { [$0.fromRect, $0.toRect] }
        return rects.filter { ![$0.x, $0.y, $0.width, $0.height].allSatisfy(\.isFinite) }.map { "rect \($0) on \(display)" }
    }
}

@Suite struct FuzzTests {
    static let iterations = 3000

    @Test func classStringParserSurvivesMutations() {
        let seed = SeededGenerator.runSeed()
        var rng = SeededGenerator(seed: seed)
        var pool = FuzzCorpus.classStrings
        for _ in 0..<Self.iterations {
            let input = FuzzCorpus.mutate(pool.randomElement(using: &rng)!, &rng, pool: pool)
            FuzzCorpus.classString(input)
            if pool.count < 64 { pool.append(input) }
        }
        // Seen with seed \(seed): reaching here means no crash.
        #expect(pool.count >= FuzzCorpus.classStrings.count, "seed \(seed)")
    }

    @Test func tokenParserSurvivesMutations() {
        let seed = SeededGenerator.runSeed()
        var rng = SeededGenerator(seed: seed)
        var parsed = 0
        for _ in 0..<Self.iterations {
            let input = FuzzCorpus.mutate(FuzzCorpus.tokenDocuments.randomElement(using: &rng)!, &rng, pool: FuzzCorpus.tokenDocuments)
            if (try? JSONValue.parse(input)) != nil { parsed += 1 }
            FuzzCorpus.tokens(input)
        }
        // Deep nesting is refused, not a stack overflow.
        #expect(throws: (any Error).self) { try JSONValue.parse(String(repeating: "[", count: 100_000)) }
        #expect(parsed > 0, "seed \(seed): no mutation parsed; the generator is too destructive")
    }

    @Test func viewValidatorSurvivesRandomTrees() {
        let seed = SeededGenerator.runSeed()
        var rng = SeededGenerator(seed: seed)
        for _ in 0..<Self.iterations / 3 {
            FuzzCorpus.view(FuzzCorpus.node(&rng))
        }
    }

    @Test func curveAndDisplayNumbersSurviveExtremeBytes() {
        let seed = SeededGenerator.runSeed()
        var rng = SeededGenerator(seed: seed)
        var problems: [String] = []
        for _ in 0..<Self.iterations / 3 {
            problems += NumberFuzz.curve(NumberFuzz.bytes(&rng, doubles: 7))
            if problems.count > 3 { break }
        }
        for _ in 0..<Self.iterations / 30 {
            problems += NumberFuzz.display(NumberFuzz.bytes(&rng, doubles: 5))
            if problems.count > 3 { break }
        }
        #expect(problems.isEmpty, "seed \(seed): \(problems.prefix(3))")
    }
}
