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
