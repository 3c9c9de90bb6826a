import Testing
import NookBus
import NookCore
import NookTestSupport

/// A plan's `a{sv}` is written straight into each unicast message from its props
/// (`prepareSignal(…, vardict:)`), without the `DBusValue` tree `WireCodec.vardict` builds.
/// Both must put the same values, of the same types, on the wire.
@Suite struct PreparedVardictTests {
    static let rule = MatchRule(path: EchoObject.path, interface: EchoObject.interface, member: "Pinged")

    /// Hand-picked shapes (typed and mixed arrays, an empty structure, nested nodes), then
    /// random props: each arrives exactly as its `WireCodec.vardict` form.
    @Test func propsWrittenStraightArriveAsTheirWireValue() async throws {
        let seed = SeededGenerator.runSeed()
        var random = SeededGenerator(seed: seed)
        var samples: [[String: PropValue]] = [
            [:],
            ["b": .bool(true), "x": .int(.min), "t": .uint(.max), "d": .double(-0.5), "s": .string("héllo ✓")],
            ["typed": .array([.double(1), .double(2)]), "mixed": .array([.double(1), .string("a")]), "empty": .array([])],
            ["dicts": .array([.dictionary(["a": .int(1)]), .dictionary([:])]), "empty structure": .structure([])],
            ["pair": .structure([.string("a"), .structure([.double(1), .array([.bool(false)])])])],
            ["node": .node(RawNode(kind: "hstack", props: ["spacing": .double(4)], children: [
                RawNode(kind: "text", props: ["text": .string("t")]), RawNode(kind: "spacer"),
            ]))],
        ]
        for _ in 0..<40 { samples.append(Self.randomProps(&random, depth: 3)) }
        try await PrivateBus.with { bus in
            let emitter = try await BusConnection.connect(to: .address(bus.address))
            let target = try await BusConnection.connect(to: .address(bus.address))
            var received = try await target.signals(matching: Self.rule).makeAsyncIterator()
            for props in samples {
                try await emitter.perform { bus in
                    let straight = bus.prepareSignal(path: EchoObject.path, interface: EchoObject.interface, member: "Pinged", vardict: props)
                    try bus.emit(straight, to: target.uniqueName)
                    try bus.emitSignal(path: EchoObject.path, interface: EchoObject.interface, member: "Pinged",
                                       arguments: [WireCodec.vardict(props)], destination: target.uniqueName)
                }
                let first = await received.next()?.arguments, second = await received.next()?.arguments
                #expect(first == second && first == [WireCodec.vardict(props)], "\(props) (\(SeededGenerator.replay(seed)))")
            }
            for connection in [emitter, target] { await connection.close() }
        }
    }

    /// The same for a method call's last argument (`call(…, vardict:)`: a module's
    /// `UpdateActivity`), against what the callee receives.
    @Test func aCallsRecordWrittenStraightArrivesAsItsWireValue() async throws {
        let seed = SeededGenerator.runSeed()
        var random = SeededGenerator(seed: seed)
        var samples: [[String: PropValue]] = [
            [:],
            ["expanded": .node(RawNode(kind: "vstack", props: ["spacing": .double(4)], children: [RawNode(kind: "text", props: ["text": .string("0:03")])])),
             "sequence": .uint(7), "dismiss_date": .int(1_800_000_000_000_000)],
        ]
        for _ in 0..<30 { samples.append(Self.randomProps(&random, depth: 3)) }
        try await PrivateBus.with { bus in
            let echo = try await EchoFixture.make(on: bus.address)
            for props in samples {
                let reply = try await echo.client.call(
                    destination: EchoFixture.name, path: EchoObject.path, interface: EchoObject.interface, member: "EchoRecord",
                    arguments: [.string("song")], vardict: props)
                #expect(reply == [.string("song"), WireCodec.vardict(props)], "\(props) (\(SeededGenerator.replay(seed)))")
            }
            await echo.close()
        }
    }

    /// `call(…, vardict:views:)`, how the SDK sends its views: each written straight from its
    /// props arrives as the same bytes as its `RawNode` would (`.node(view.rawNode)`), among
    /// the fields in key order; a key given both ways is refused before anything is sent.
    @Test func viewsWrittenStraightArriveAsTheirRawNodes() async throws {
        var cover = NodeProps()
        cover.width = 20
        cover.height = 20
        cover.name = "CoverArt"
        cover.shared = SharedMark(id: "cover", style: .scale, anchor: .topLeading)
        cover.padding = EdgeInsets(top: 1, leading: 2, bottom: 3, trailing: 4)
        cover.groupState = ["focus": true, "active": false]
        cover.params = ["track": .string("x"), "n": .int(3), "list": .array([.double(1), .double(2)])]
        var label = NodeProps()
        label.text = "Building 40%"
        label.fontWeight = "semibold"
        label.monospacedDigits = true
        label.lineLimit = 2
        var bar = NodeProps()
        bar.value = 0.4
        bar.progressStyle = .circular
        let expanded = ViewNode(kind: .vstack, props: { var p = NodeProps(); p.spacing = 4; p.alignment = .leading; return p }(),
                                children: [ViewNode(kind: .view, props: cover), ViewNode(kind: .text, props: label), ViewNode(kind: .progress, props: bar)])
        let samples: [([String: PropValue], [String: ViewNode])] = [
            ([:], ["expanded": expanded]),
            (["sequence": .uint(7), "relevance": .double(0.5), "zzz": .bool(true)], ["compact_trailing": ViewNode(kind: .text, props: label), "expanded": expanded, "minimal": ViewNode(kind: .spacer)]),
            (["accessibility_label": .string("Build")], [:]),
        ]
        try await PrivateBus.with { bus in
            let echo = try await EchoFixture.make(on: bus.address)
            for (fields, views) in samples {
                let reply = try await echo.client.call(
                    destination: EchoFixture.name, path: EchoObject.path, interface: EchoObject.interface, member: "EchoRecord",
                    arguments: [.string("song")], vardict: fields, views: views)
                var merged = fields
                for (key, view) in views { merged[key] = .node(view.rawNode) }
                #expect(reply == [.string("song"), WireCodec.vardict(merged)], "\(fields) \(views)")
            }
            // A view as a call's argument (a module's `SetContent`): the bytes of its `RawNode`.
            for view in [expanded, ViewNode(kind: .text, props: label), ViewNode(kind: .spacer)] {
                let echoed = try await echo.client.call(
                    destination: EchoFixture.name, path: EchoObject.path, interface: EchoObject.interface, member: "EchoNode",
                    arguments: [], view: view)
                #expect(echoed == [view.rawNode.wireValue], "\(view)")
            }
            await #expect(throws: BusError.self) {
                _ = try await echo.client.call(
                    destination: EchoFixture.name, path: EchoObject.path, interface: EchoObject.interface, member: "EchoRecord",
                    arguments: [.string("song")], vardict: ["expanded": .bool(true)], views: ["expanded": expanded])
            }
            await echo.close()
        }
    }

    static func randomProps(_ random: inout SeededGenerator, depth: Int) -> [String: PropValue] {
        var props: [String: PropValue] = [:]
        for index in 0..<Int(random.next(upTo: 5)) { props["k\(index)"] = randomValue(&random, depth: depth) }
        return props
    }

    static func randomValue(_ random: inout SeededGenerator, depth: Int) -> PropValue {
        let kinds: UInt64 = depth > 0 ? 9 : 5
        switch random.next(upTo: kinds) {
        case 0: return .bool(random.next(upTo: 2) == 0)
        case 1: return .int(Int64(bitPattern: random.next()))
        case 2: return .uint(random.next())
        case 3: return .double(Double(Int64(bitPattern: random.next()) % 10_000) / 8)
        case 4: return .string("s\(random.next(upTo: 100))")
        case 5:
            // Same-typed items half the time, so both typed and `av` arrays come up.
            let same = random.next(upTo: 2) == 0
            let item = randomValue(&random, depth: depth - 1)
            return .array((0..<Int(random.next(upTo: 4))).map { _ in same ? item : randomValue(&random, depth: depth - 1) })
        case 6: return .dictionary(randomProps(&random, depth: depth - 1))
        case 7: return .structure((0..<Int(random.next(upTo: 3))).map { _ in randomValue(&random, depth: depth - 1) })
        default:
            return .node(RawNode(kind: "view", props: randomProps(&random, depth: depth - 1),
                                 children: (0..<Int(random.next(upTo: 3))).map { _ in RawNode(kind: "text", props: ["text": .string("c")]) }))
        }
    }
}
