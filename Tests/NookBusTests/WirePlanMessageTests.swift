import Testing
import NookBus
import NookCore
import NookTestSupport

/// A plan written straight into each renderer's message (`prepareSignal(…, plan:)`, as nookd
/// delivers) arrives as exactly the `a{sv}` of its `wireDictionary`: the same values, types and
/// key order, so the same bytes; and the signal's `marshalledSize`, and the bytes a send counts
/// as it writes the message when asked (`countingBytes`), are the dictionary's. Whole
/// scenes, deltas, compact deltas and sampled curves, Reduce Motion, shared elements.
@Suite struct WirePlanMessageTests {
    static let display = DisplayInfo(width: 1512, height: 982, notchWidth: 200, notchHeight: 32, scale: 2)

    static func node(_ kind: NodeKind, _ children: [ViewNode] = [], _ configure: (inout NodeProps) -> Void = { _ in }) -> ViewNode {
        var props = NodeProps()
        configure(&props)
        return ViewNode(kind: kind, props: props, children: children)
    }

    static func content(title: String, progress: Double) -> SceneContent {
        let cover = { (side: Double) in
            node(.view) {
                $0.name = "CoverArt"
                $0.width = side
                $0.height = side
                $0.shared = SharedMark(id: "cover", style: .resize, properties: .frame, isSource: true)
            }
        }
        let expanded = node(.vstack, [
            cover(120), node(.text) { $0.text = title; $0.fontSize = 17; $0.classes = "font-bold group/row" },
            node(.progress) { $0.value = progress }, node(.text) { $0.timerEnd = 1_800_000_000_000_000; $0.monospacedDigits = true },
        ]) { $0.padding = EdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4) }
        return SceneContent(
            compactLeading: OwnedView(owner: "music/song", view: cover(20)),
            compactTrailing: OwnedView(owner: "music/song", view: node(.image) { $0.symbol = "waveform" }), minimal: [],
            peek: OwnedView(owner: "music/song", view: node(.hstack, [cover(48), node(.text) { $0.text = title }])),
            expanded: .activity(OwnedView(owner: "music/song", view: expanded)))
    }

    /// Plans with the arguments their delivery writes them with.
    static func cases() -> [(name: String, plan: TransitionPlan, sampleRate: Double?, base: (serial: UInt64, scene: PlannerScene)?, compact: Bool)] {
        var out: [(String, TransitionPlan, Double?, (serial: UInt64, scene: PlannerScene)?, Bool)] = []
        for reduceMotion in [false, true] {
            let settings = PlannerSettings(display: display, reduceMotion: reduceMotion)
            let pill = PlannerScene(presentation: .pill, content: content(title: "One", progress: 0.25), settings: settings)
            let open = PlannerScene(presentation: .expanded, content: content(title: "One", progress: 0.25), settings: settings)
            let update = PlannerScene(presentation: .expanded, content: content(title: "Two", progress: 0.5), settings: settings)
            let opening = TransitionPlanner.plan(from: pill, to: open, action: PlanAction(cause: .open, serial: 2), settings: settings)
            let updating = TransitionPlanner.plan(from: open, to: update, action: PlanAction(cause: .activityUpdated, serial: 3), settings: settings)
            let motion = reduceMotion ? "reduce motion" : "motion"
            out.append(("open, whole scene, \(motion)", opening, nil, nil, false))
            out.append(("open, sampled, \(motion)", opening, 60, nil, false))
            out.append(("update, delta, \(motion)", updating, nil, (2, open), false))
            out.append(("update, compact delta, \(motion)", updating, nil, (2, open), true))
            out.append(("update, compact delta, sampled, \(motion)", updating, 120, (2, open), true))
        }
        return out
    }

    @Test func aPlanWrittenStraightArrivesAsItsDictionary() async throws {
        let cases = Self.cases()
        try await PrivateBus.with { bus in
            let emitter = try await BusConnection.connect(to: .address(bus.address))
            let target = try await BusConnection.connect(to: .address(bus.address))
            var received = try await target.signals(matching: PreparedVardictTests.rule).makeAsyncIterator()
            for (name, plan, sampleRate, base, compact) in cases {
                let wire = plan.wireDictionary(sampleRate: sampleRate, base: base, compact: compact)
                let sizes = try await emitter.perform { bus in
                    let wirePlan = WirePlan(plan, sampleRate: sampleRate, base: base, compact: compact)
                    let straight = bus.prepareSignal(path: EchoObject.path, interface: EchoObject.interface, member: "Pinged", plan: wirePlan)
                    // Twice, as to two renderers: the plan is written again for each; the first
                    // send counts the body's bytes as it writes them (nookd's byte budget).
                    let sent = [try bus.emit(straight, to: target.uniqueName, countingBytes: true),
                                try bus.emit(straight, to: target.uniqueName)]
                    let dictionary = bus.prepareSignal(path: EchoObject.path, interface: EchoObject.interface, member: "Pinged", vardict: wire)
                    let tape = bus.prepareSignal(path: EchoObject.path, interface: EchoObject.interface, member: "Pinged", tape: wirePlan.tape)
                    let counted = sent + [try bus.emit(dictionary, to: target.uniqueName, countingBytes: true),
                                          try bus.emit(tape, to: target.uniqueName, countingBytes: true)]
                    return (straight: straight.marshalledSize, dictionary: dictionary.marshalledSize, tape: tape.marshalledSize, counted: counted)
                }
                let first = await received.next()?.arguments, second = await received.next()?.arguments
                let third = await received.next()?.arguments, fourth = await received.next()?.arguments
                #expect(first == [WireCodec.vardict(wire)], "\(name)")
                #expect(second == first && third == first && fourth == first, "\(name)")
                let expected = WireCodec.vardict(wire).marshalledSize
                #expect(sizes.straight == expected && sizes.dictionary == expected && sizes.tape == expected, "\(name): \(sizes)")
                #expect(sizes.counted == [expected, nil, expected, expected], "\(name): the bytes each send counted, \(sizes.counted)")
            }
            for connection in [emitter, target] { await connection.close() }
        }
    }
}
