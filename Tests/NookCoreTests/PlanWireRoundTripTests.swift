import NookTestSupport
import Testing
@testable import NookCore

private typealias F = PlannerFixture
private typealias G = PlannerPropertyTests

/// `ReceivedPlan(wire:)` and `Curve(wire:)` are the exact inverses of the encoders: random
/// plans (surface and content transitions, interruptions, Reduce Motion, hide dips, sampled
/// curves, `scene_delta`s) read back equal, field for field, with nothing to warn about.
@Suite struct PlanWireRoundTripTests {
    static func decode(_ wire: [String: PropValue], held: (serial: UInt64, scene: WireScene)? = nil) throws -> (ReceivedPlan, [String]) {
        var warnings: [String] = []
        let plan = try ReceivedPlan(wire: .dictionary(wire), held: held, warnings: &warnings)
        return (plan, warnings)
    }

    /// Random plans: each with the scene before it (sent as serial 2, a delta's base).
    /// - Returns: the seed.
    static func randomPlans(_ count: Int, _ body: (_ round: Int, _ plan: TransitionPlan, _ before: PlannerScene) throws -> Void) rethrows -> UInt64 {
        let seed = SeededGenerator.runSeed()
        var generator = G.Generator(rng: SeededGenerator(seed: seed))
        let presentations: [Presentation] = [.hidden, .pill, .peek, .expanded, .companion]
        for round in 0..<count {
            var content = generator.content()
            if generator.chance(0.3) { content.companion = F.owned("music", generator.view()) }
            let settings = F.settings(reduceMotion: generator.chance(0.15))
            let first = F.scene(presentations.randomElement(using: &generator.rng)!, content, settings)
            let second = F.scene(presentations.randomElement(using: &generator.rng)!, generator.chance(0.5) ? content : generator.content(), settings)
            let third = F.scene(presentations.randomElement(using: &generator.rng)!, generator.chance(0.5) ? content : generator.content(), settings)
            let cause: PlanCause = [.open, .close, .peek, .endPeek, .activityUpdated, .show, .hide].randomElement(using: &generator.rng)!
            let earlier = F.plan(first, second, cause: cause, serial: 2, via: generator.chance(0.5) ? .claim : .hover, settings: settings)
            // Half the time the second plan interrupts the first (velocities, initial velocities).
            let inFlight = generator.chance(0.5) ? InFlightPlan(plan: earlier, elapsed: Double.random(in: 0...0.4, using: &generator.rng)) : nil
            let plan = F.plan(second, third, cause: .open, serial: 3, settings: settings, inFlight: inFlight)
            try body(round, plan, second)
        }
        return seed
    }

    @Test func randomPlansReadBackExactly() throws {
        var failures: [String] = []
        let seed = try Self.randomPlans(200) { round, plan, second in
            let expected = plan.withScene(plan.scene.wireScene)
            for (form, wire, held) in [
                ("whole", plan.wireDictionary(), nil),
                ("sampled", plan.wireDictionary(sampleRate: 60), nil),
                ("delta", plan.wireDictionary(base: (2, second)), (UInt64(2), second.wireScene)),
                ("compact delta", plan.wireDictionary(base: (2, second), compact: true), (UInt64(2), second.wireScene)),
            ] as [(String, [String: PropValue], (serial: UInt64, scene: WireScene)?)] {
                let (decoded, warnings) = try Self.decode(wire, held: held)
                if decoded != expected { failures.append("round \(round) \(form): \(Self.difference(decoded, expected))") }
                if !warnings.isEmpty { failures.append("round \(round) \(form): warnings \(warnings)") }
            }
        }
        #expect(failures.isEmpty, "seed \(seed) (NOOK_TEST_SEED=\(seed) replays it): \(failures.count) failures, first: \(failures.prefix(3))")
    }

    /// The first field that differs, for a readable failure.
    static func difference(_ a: ReceivedPlan, _ b: ReceivedPlan) -> String {
        if a.chrome != b.chrome { return "chrome \(a.chrome) vs \(b.chrome)" }
        if a.elements != b.elements { return "elements \(a.elements) vs \(b.elements)" }
        if a.layout != b.layout { return "layout \(a.layout) vs \(b.layout)" }
        if a.slots != b.slots { return "slots \(a.slots) vs \(b.slots)" }
        if a.reveals != b.reveals { return "reveals \(a.reveals) vs \(b.reveals)" }
        if a.diagnostics != b.diagnostics { return "diagnostics \(a.diagnostics) vs \(b.diagnostics)" }
        if a.scene.nodes != b.scene.nodes {
            let pair = zip(a.scene.nodes, b.scene.nodes).first { $0 != $1 }
            return "scene nodes (\(a.scene.nodes.count) vs \(b.scene.nodes.count)) \(pair.map { "\($0.0) vs \($0.1)" } ?? "")"
        }
        if a.scene != b.scene { return "scene frame \(a.scene.presentation) \(String(describing: a.scene.chrome)) vs \(b.scene.presentation) \(String(describing: b.scene.chrome))" }
        return "header \(a.serial) \(a.cause) \(a.causes) \(a.fontFamily) vs \(b.serial) \(b.cause) \(b.causes) \(b.fontFamily)"
    }

    @Test func randomCurvesReadBackExactly() throws {
        let seed = SeededGenerator.runSeed()
        var rng = SeededGenerator(seed: seed)
        var failures: [String] = []
        for round in 0..<500 {
            let delay = Double.random(in: 0...1, using: &rng)
            var curve: Curve
            switch round % 4 {
            case 0:
                curve = try Curve.spring(response: Double.random(in: 0.05...2, using: &rng), dampingFraction: Double.random(in: 0.1...1.5, using: &rng),
                                         delay: delay, source: "transition.convert")
                if Bool.random(using: &rng) { curve = try curve.withInitialVelocity(Double.random(in: -20...20, using: &rng)) }
            case 1:
                let points = try CubicBezier(Double.random(in: 0...1, using: &rng), Double.random(in: -1...2, using: &rng),
                                             Double.random(in: 0...1, using: &rng), Double.random(in: -1...2, using: &rng))
                curve = try Curve.bezier(points, duration: Double.random(in: 0...2, using: &rng), delay: delay, source: "override")
            case 2: curve = try Curve.linear(duration: Double.random(in: 0...2, using: &rng), delay: delay)
            default: curve = try Curve.none(source: "chrome").withDelay(delay)
            }
            var warnings: [String] = []
            for (sampleRate, compact) in [(nil, false), (120.0, false), (nil, true)] as [(Double?, Bool)] {
                let read = try Curve(wire: WireFields(path: "curve", fields: curve.wireDictionary(sampleRate: sampleRate, compact: compact)), warnings: &warnings)
                if read != curve { failures.append("round \(round) compact \(compact): \(read) vs \(curve)") }
            }
            if !warnings.isEmpty { failures.append("round \(round): \(warnings)") }
        }
        #expect(failures.isEmpty, "seed \(seed) (NOOK_TEST_SEED=\(seed) replays it): \(failures.prefix(3))")
    }

    @Test func aBadKeyIsNamedWithBothTypes() throws {
        let plan = F.openSong()
        var wire = plan.wireDictionary()
        guard case .dictionary(var chrome)? = wire["chrome"] else { Issue.record("no chrome"); return }
        chrome["to_rect"] = .string("big")
        wire["chrome"] = .dictionary(chrome)
        #expect(throws: WireFieldError(key: "chrome.to_rect", message: "expected type (dddd), found s", kind: .wrongType)) { try Self.decode(wire) }
        #expect(throws: WireFieldError(key: "(argument)", message: "expected type a{sv}, found s", kind: .wrongType)) {
            var warnings: [String] = []
            _ = try ReceivedPlan(wire: .string("not a plan"), warnings: &warnings)
        }
    }

    /// Contract 1.1, "Smaller plans": a content update that carries `scene_delta` leaves out
    /// what the reader knows (the delta's unchanged frame, a chrome that stays where the scene
    /// says, a spring's derived values, zero delays) and reads back as the whole plan does;
    /// the whole-scene plan keeps every v1 key.
    @Test func aContentUpdateWithADeltaIsCompactAndReadsAsTheWholePlan() throws {
        let before = F.scene(.expanded, F.songContent(expanded: .activity(F.owned("music/song", F.songExpanded))))
        let after = F.scene(.expanded, F.songContent(expanded: .activity(F.owned("music/song",
            F.vstack([F.cover(120), F.text("Song title", size: 17), F.text("Artest")])))))
        let plan = F.plan(before, after, cause: .activityUpdated, serial: 2)
        let compact = plan.wireDictionary(base: (1, before), compact: true)
        let whole = plan.wireDictionary()
        // A renderer that declared `scene_delta` alone keeps every v1 key around the delta.
        let plainDelta = plan.wireDictionary(base: (1, before))
        if case .dictionary(let chrome)? = plainDelta["chrome"], case .dictionary(let curve)? = chrome["curve"],
           case .dictionary(let delta)? = plainDelta["scene_delta"] {
            #expect(Set(chrome.keys) == ["from_rect", "to_rect", "from_radius", "to_radius", "curve"])
            #expect(Set(curve.keys).isSuperset(of: ["stiffness", "damping", "mass", "settle_duration", "delay"]))
            #expect(Set(delta.keys).isSuperset(of: ["base", "removed", "upserted", "presentation", "chrome"]))
        } else {
            Issue.record("no scene_delta or chrome curve in \(plainDelta.keys.sorted())")
        }
        let (readPlain, _) = try Self.decode(plainDelta, held: (1, before.wireScene))
        guard case .dictionary(let delta)? = compact["scene_delta"], case .dictionary(let chrome)? = compact["chrome"],
              case .dictionary(let curve)? = chrome["curve"], case .dictionary(let wholeChrome)? = whole["chrome"],
              case .dictionary(let wholeCurve)? = wholeChrome["curve"]
        else {
            Issue.record("no scene_delta or chrome curve in \(compact.keys.sorted())")
            return
        }
        #expect(Set(delta.keys) == ["base", "removed", "upserted"])
        #expect(Set(chrome.keys) == ["curve"])
        #expect(Set(curve.keys) == ["type", "response", "damping_fraction", "source"])
        #expect(Set(wholeChrome.keys) == ["from_rect", "to_rect", "from_radius", "to_radius", "curve"])
        #expect(Set(wholeCurve.keys).isSuperset(of: ["stiffness", "damping", "mass", "settle_duration", "delay"]))
        let (read, warnings) = try Self.decode(compact, held: (1, before.wireScene))
        let (readWhole, _) = try Self.decode(whole)
        #expect(read == readWhole, "\(Self.difference(read, readWhole))")
        #expect(readPlain == readWhole, "\(Self.difference(readPlain, readWhole))")
        #expect(warnings.isEmpty)
    }

    @Test func aDeltaAgainstAnotherSceneIsRefusedAtItsBase() throws {
        let plan = F.openSong()
        let pill = F.scene(.pill, F.songContent())
        let wire = plan.wireDictionary(base: (1, pill))
        #expect(wire["scene_delta"] != nil)
        #expect(throws: WireFieldError.self) { try Self.decode(wire, held: (7, pill.wireScene)) }
        do { _ = try Self.decode(wire) } catch let error as WireFieldError { #expect(error.key == WireScene.deltaBaseKey) }
    }
}
