import NookCore
import Testing
@testable import NookBus

/// What byte budgets charge a message with (`MarshalledSize`): D-Bus marshalling, alignment
/// included. Known sizes, and the two ways to write a plan's `a{sv}` (a `WireTape`, a
/// dictionary) sized alike.
@Suite struct MarshalledSizeTests {
    @Test func basicValuesTakeWhatTheSpecificationSays() {
        #expect(DBusValue.string("ab").marshalledSize == 7)
        #expect(DBusValue.uint64(1).marshalledSize == 8)
        #expect(DBusValue.bool(true).marshalledSize == 4)
        // A struct of a byte and a double: the double aligns to 8.
        #expect(DBusValue.structure([.byte(1), .double(2)]).marshalledSize == 16)
        // a{sv} holding "k" -> "x": the array's length (4), padding to the entry's 8, the key
        // (4 + 1 + nul: 14), the variant's signature "s" (1 + 1 + nul: 17), padding to 20, the
        // string (4 + 1 + nul): 26.
        let record: [String: DBusValue] = ["k": .string("x")]
        #expect(DBusValue.vardict(record).marshalledSize == 26)
        // An empty array of doubles: its length, padded to the element's boundary.
        #expect(DBusValue.array(element: "d", []).marshalledSize == 8)
    }

    /// A tape and its dictionary are the same bytes on the wire, so they measure the same.
    @Test func aTapeMeasuresAsItsDictionary() {
        let props: [String: PropValue] = [
            "serial": .uint(7), "cause": .string("activity_updated"), "fresh_window": .bool(false), "delay": .double(0.25),
            "rect": .structure([.double(1), .double(2), .double(3), .double(4)]),
            "chrome": .dictionary(["curve": .dictionary(["type": .string("spring"), "response": .double(0.4)]), "radius": .double(9)]),
            "slots": .array([.dictionary(["slot": .string("peek"), "owner": .string("m/a")]), .dictionary(["slot": .string("minimal")])]),
            "causes": .array([.string("a"), .string("bb")]),
            "empty": .array([]),
            "mixed": .array([.int(1), .string("x")]),
            "triple": .structure([.double(1), .string("x"), .bool(true)]),
        ]
        let tape = WireTape(dictionary: props)
        #expect(tape.marshalledSize == WireCodec.vardict(props).marshalledSize)
    }
}
