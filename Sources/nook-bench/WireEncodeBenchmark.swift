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

    /// The plan's signal as the delivery prepares it once per plan (`WirePlan`).
    func prepared() -> PreparedSignal {
        PreparedSignal(path: "/org/nook/Nook1", interface: NookContract.Render.interface, member: "Plan",
                       plan: WirePlan(plan, sampleRate: nil, base: base, compact: compact))
    }

    /// One plan to one written message, as the delivery does it: prepared, and written straight
    /// from the plan, its size counted on the way (session 34; before, a walk of its own).
    func write(with writer: UnsentSignalWriter) throws {
        try writer.write(prepared(), countingBytes: true)
    }

    /// The same through a `WireTape` written once and replayed, as the delivery did before
    /// session 33.
    func writeFromTape(with writer: UnsentSignalWriter) throws {
        let signal = PreparedSignal(path: "/org/nook/Nook1", interface: NookContract.Render.interface, member: "Plan",
                                    tape: plan.wireTape(sampleRate: nil, base: base, compact: compact))
        _ = signal.marshalledSize
        try writer.write(signal)
    }

    /// The same through the plan's `wireDictionary`, as the delivery did before the tape.
    func writeFromDictionary(with writer: UnsentSignalWriter) throws {
        let wire = plan.wireDictionary(sampleRate: nil, base: base, compact: compact)
        try writer.write(PreparedSignal(path: "/org/nook/Nook1", interface: NookContract.Render.interface, member: "Plan", vardict: wire))
    }
}

/// Times `WireEncodeCase.write` (straight from the plan), `writeFromTape` and
/// `writeFromDictionary` in turn for both plans; then, for the plan prepared once, one more
/// renderer's message (a fan-out's cost per renderer): written again from the plan, and replayed
/// from a tape. Prints rows, returns the p50 figures and their ratios to the dictionary way.
func runWireEncodeBenchmark() throws -> [Figure] {
    print("wire encoding: a plan to its written Plan message (wire form, prepared signal, message), not sent")
    print("  case                                        way                        runs    p50 (µs)    p99 (µs)")
    let writer = try UnsentSignalWriter()
    let clock = ContinuousClock()
    var figures: [Figure] = []
    for (encodeCase, runs) in [(WireEncodeCase.publish(), 5_000), (WireEncodeCase.update(), 30)] {
        let ways: [(String, () throws -> Void)] = [
            ("plan, written straight", { try encodeCase.write(with: writer) }),
            ("tape", { try encodeCase.writeFromTape(with: writer) }),
            ("dictionary", { try encodeCase.writeFromDictionary(with: writer) }),
        ]
        let prepared = encodeCase.prepared()
        let tape = PreparedSignal(path: "/org/nook/Nook1", interface: NookContract.Render.interface, member: "Plan",
                                  tape: encodeCase.plan.wireTape(sampleRate: nil, base: encodeCase.base, compact: encodeCase.compact))
        let again: [(String, () throws -> Void)] = [
            ("another renderer, straight", { try writer.write(prepared) }),
            ("another renderer, tape", { try writer.write(tape) }),
        ]
        let all = ways + again
        var samples = Array(repeating: Samples(), count: all.count)
        for _ in 0..<max(2, runs / 10) { for (_, way) in all { try way() } }
        for _ in 0..<runs {
            for (index, (_, way)) in all.enumerated() {
                let start = clock.now
                try way()
                samples[index].append((clock.now - start).microseconds)
            }
        }
        for (index, (name, _)) in all.enumerated() {
            print("  \(encodeCase.name.padding(42))  \(name.padding(26))\(String(runs).leftPadding(6))"
                  + "\(fmt(samples[index].p50).leftPadding(12))\(fmt(samples[index].p99).leftPadding(12))")
        }
        figures.append(Figure(name: "wire encoding, \(encodeCase.name), p50", value: samples[0].p50, unit: "µs",
                              goal: "none (informational; ratio to the dictionary way)", ratio: samples[0].p50 / samples[2].p50, met: nil))
        figures.append(Figure(name: "wire encoding, \(encodeCase.name), another renderer, p50", value: samples[3].p50, unit: "µs",
                              goal: "none (informational; ratio to replaying a tape)", ratio: samples[3].p50 / samples[4].p50, met: nil))
    }
    return figures
}

/// `--profile wire|wire-update[-dictionary]`: `WireEncodeCase.write` (or `writeFromDictionary`)
/// `runs` times, untimed, for a profiler.
func runWireEncodeProfile(_ encodeCase: WireEncodeCase, dictionary: Bool, runs: Int) throws -> Int {
    let writer = try UnsentSignalWriter()
    for _ in 0..<runs { try dictionary ? encodeCase.writeFromDictionary(with: writer) : encodeCase.write(with: writer) }
    return runs
}
