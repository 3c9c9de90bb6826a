import NookBus
import NookCore

/// Issue 21 item 2: a planned `TransitionPlan` to the bytes of its `Plan` signal, the step
/// `Broker+Delivery` makes per plan (the plan's wire form, the prepared signal) and per
/// renderer (the message written). Two plans: the publish bench's (`SmallScenePublish`: one
/// text change in the pill, a compact `scene_delta`) and the 10,000-node content update's
/// (the whole scene). Messages are written and dropped, not sent (`UnsentSignalWriter`), so
/// the socket is not in the figure.
struct WireEncodeCase: Sendable {
    let name: String
    let plan: TransitionPlan
    let base: (serial: UInt64, scene: PlannerScene)?
    let compact: Bool

    /// The publish bench's plan: the third update after warming up, against the plan before it.
    static func publish() -> WireEncodeCase {
        var publish = SmallScenePublish()
        for _ in 0..<20 { _ = publish.next() }
        let before = publish.plan(to: publish.destination(for: publish.nextContent()))
        publish.didSend(before.plan)
        let update = publish.plan(to: publish.destination(for: publish.nextContent()))
        return WireEncodeCase(name: "publish plan (compact scene_delta)", plan: update.sent,
                              base: (before.plan.serial, before.plan.scene), compact: true)
    }

    /// The 10,000-node content update's plan, with its whole scene (a renderer without deltas).
    static func update() -> WireEncodeCase {
        let settings = PlannerSettings(display: DisplayInfo(width: 1512, height: 982, notchWidth: 200, notchHeight: 32, scale: 2))
        let before = PlannerScene(presentation: .expanded, content: PlannerBenchmarkScenes.update(nodes: 10_000, value: "a"), settings: settings)
        let after = PlannerScene(presentation: .expanded, content: PlannerBenchmarkScenes.update(nodes: 10_000, value: "b"), settings: settings)
        let plan = TransitionPlanner.plan(from: before, to: after, action: PlanAction(cause: .activityUpdated, serial: 2), settings: settings)
        return WireEncodeCase(name: "10,000-node update plan (whole scene)", plan: plan, base: nil, compact: false)
    }

    /// One plan to one written message, as the delivery does it (`wireTape`).
    func write(with writer: UnsentSignalWriter) throws {
        let tape = plan.wireTape(sampleRate: nil, base: base, compact: compact)
        try writer.write(PreparedSignal(path: "/org/nook/Nook1", interface: NookContract.Render.interface, member: "Plan", tape: tape))
    }

    /// The same through the plan's `wireDictionary`, as the delivery did before the tape.
    func writeFromDictionary(with writer: UnsentSignalWriter) throws {
        let wire = plan.wireDictionary(sampleRate: nil, base: base, compact: compact)
        try writer.write(PreparedSignal(path: "/org/nook/Nook1", interface: NookContract.Render.interface, member: "Plan", vardict: wire))
    }
}

/// Times `WireEncodeCase.write` (the tape) and `writeFromDictionary` alternately for both
/// plans; prints rows, returns the p50 figures and the tape's ratio to the dictionary's.
func runWireEncodeBenchmark() throws -> [Figure] {
    print("wire encoding: a plan to its written Plan message (wire form, prepared signal, message), not sent")
    print("  case                                        way           runs    p50 (µs)    p99 (µs)")
    let writer = try UnsentSignalWriter()
    let clock = ContinuousClock()
    var figures: [Figure] = []
    for (encodeCase, runs) in [(WireEncodeCase.publish(), 5_000), (WireEncodeCase.update(), 30)] {
        var tape = Samples(), dictionary = Samples()
        for _ in 0..<max(2, runs / 10) {
            try encodeCase.write(with: writer)
            try encodeCase.writeFromDictionary(with: writer)
        }
        for _ in 0..<runs {
            let start = clock.now
            try encodeCase.write(with: writer)
            let middle = clock.now
            try encodeCase.writeFromDictionary(with: writer)
            tape.append((middle - start).microseconds)
            dictionary.append((clock.now - middle).microseconds)
        }
        for (way, samples) in [("tape", tape), ("dictionary", dictionary)] {
            print("  \(encodeCase.name.padding(42))  \(way.padding(10))\(String(runs).leftPadding(6))"
                  + "\(fmt(samples.p50).leftPadding(12))\(fmt(samples.p99).leftPadding(12))")
        }
        figures.append(Figure(name: "wire encoding, \(encodeCase.name), p50", value: tape.p50, unit: "µs",
                              goal: "none (informational; ratio to the dictionary way)", ratio: tape.p50 / dictionary.p50, met: nil))
    }
    return figures
}

/// `--profile wire|wire-update[-dictionary]`: `WireEncodeCase.write` (or `writeFromDictionary`)
/// `runs` times, untimed, for callgrind.
func runWireEncodeProfile(_ encodeCase: WireEncodeCase, dictionary: Bool, runs: Int) throws -> Int {
    let writer = try UnsentSignalWriter()
    for _ in 0..<runs { try dictionary ? encodeCase.writeFromDictionary(with: writer) : encodeCase.write(with: writer) }
    return runs
}
