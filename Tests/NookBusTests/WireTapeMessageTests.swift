import Testing
import NookBus
import NookCore
import NookTestSupport

/// A `WireTape` written into a message (`prepareSignal(…, tape:)`) arrives as exactly the
/// `a{sv}` its dictionary does (`prepareSignal(…, vardict:)`, `WireCodec.vardict`): the same
/// values, types and key order, so the same bytes. With `WireTapeTests` (a plan's tape is the
/// tape of its `wireDictionary`), a plan's bytes do not depend on which way it is written.
@Suite struct WireTapeMessageTests {
    @Test func aTapeArrivesAsItsDictionary() async throws {
        let seed = SeededGenerator.runSeed()
        var random = SeededGenerator(seed: seed)
        var samples: [[String: PropValue]] = [
            [:],
            ["b": .bool(false), "x": .int(-3), "t": .uint(.max), "d": .double(0.25), "s": .string("héllo ✓")],
            // Four doubles (a rect's `(dddd)`), and other structures.
            ["rect": .structure([.double(1), .double(-2), .double(3.5), .double(0)]), "pair": .structure([.double(1), .double(2)]),
             "mixed": .structure([.double(1), .double(2), .double(3), .string("4")])],
            // Arrays: of dictionaries, of strings, empty, of doubles, mixed; nested dictionaries.
            ["dicts": .array([.dictionary(["z": .int(1), "a": .structure([.double(1), .double(2), .double(3), .double(4)])]), .dictionary([:])]),
             "strings": .array([.string("b"), .string("a")]), "empty": .array([]), "doubles": .array([.double(1)]),
             "mixed": .array([.string("a"), .dictionary([:])]), "inner": .dictionary(["k": .dictionary(["rect_": .array([])])])],
            ["node": .node(RawNode(kind: "text", props: ["text": .string("t")]))],
        ]
        for _ in 0..<60 { samples.append(PreparedVardictTests.randomProps(&random, depth: 3)) }
        try await PrivateBus.with { bus in
            let emitter = try await BusConnection.connect(to: .address(bus.address))
            let target = try await BusConnection.connect(to: .address(bus.address))
            var received = try await target.signals(matching: PreparedVardictTests.rule).makeAsyncIterator()
            for props in samples {
                try await emitter.perform { bus in
                    let tape = bus.prepareSignal(path: EchoObject.path, interface: EchoObject.interface, member: "Pinged",
                                                 tape: WireTape(dictionary: props))
                    try bus.emit(tape, to: target.uniqueName)
                    let dictionary = bus.prepareSignal(path: EchoObject.path, interface: EchoObject.interface, member: "Pinged", vardict: props)
                    try bus.emit(dictionary, to: target.uniqueName)
                }
                let first = await received.next()?.arguments, second = await received.next()?.arguments
                #expect(first == second && first == [WireCodec.vardict(props)], "\(props) (\(SeededGenerator.replay(seed)))")
            }
            for connection in [emitter, target] { await connection.close() }
        }
    }
}
