import NookCore
import NookTestSupport
import Testing

@testable import NookBroker

/// `ActivityFields` (StartActivity's spec and UpdateActivity's changes read in one pass) must
/// give each read the value a lookup by name gave, the unknown keys `FieldReader.unknownKeys`
/// listed, and the payload size `checkPayload` charged.
@Suite struct ActivityFieldsTests {
    @Test func theKeysAreUpdateKeys() {
        #expect(Set(CallKey.allCases.map(\.name)) == Registry.updateKeys)
        #expect(CallKey.allCases.count == Registry.updateKeys.count)
        #expect(Registry.slotKeys.map { $0.slot! } == ActivitySlot.allCases)
        #expect(Registry.slotKeys.map(\.name) == ActivitySlot.allCases.map(\.rawValue))
        for key in CallKey.allCases {
            #expect(CallKey.named(key.name) == key)
            #expect(key.slot.map(\.rawValue) == (ActivitySlot(rawValue: key.name) == nil ? nil : key.name))
        }
    }

    @Test func namedFindsNothingElse() {
        var names = ["", "peeks", "pee", "Module", "modula", "removE", "minimax", "animatf", "expandex", "sequenca", "lifetimf",
                     "relevancf", "animatioj", "stale_datf", "dismiss_datf", "compact_leadinf", "compact_trailinf",
                     "accessibility_labex", "é", "expanded ", "module\u{0}"]
        for key in CallKey.allCases {
            var bytes = Array(key.name.utf8)
            for index in bytes.indices {
                let saved = bytes[index]
                bytes[index] = saved == UInt8(ascii: "q") ? UInt8(ascii: "r") : UInt8(ascii: "q")
                names.append(String(decoding: bytes, as: UTF8.self))
                bytes[index] = saved
            }
        }
        let byName = Dictionary(uniqueKeysWithValues: CallKey.allCases.map { ($0.name, $0) })
        for name in names { #expect(CallKey.named(name) == byName[name], "\(name)") }
    }

    @Test func randomCallsReadAsLookupsDid() {
        let seed = SeededGenerator.runSeed(pinned: 0x5EED_0017)
        var rng = SeededGenerator(seed: seed)
        let pool = CallKey.allCases.map(\.name) + ["zeta", "colour", "", "Module", "peek_", "dismissal"]
        let values: [PropValue] = [
            .string("x"), .int(3), .bool(true), .double(-1.5), .array([.string("peek")]),
            .node(RawNode(kind: "text", props: ["text": .string("hi")])), .dictionary(["a": .uint(1)]),
        ]
        for round in 0..<5_000 {
            var fields: [String: PropValue] = [:]
            for _ in 0..<Int.random(in: 0...8, using: &rng) {
                fields[pool.randomElement(using: &rng)!] = values.randomElement(using: &rng)!
            }
            let given = ActivityFields(fields)
            for key in CallKey.allCases { #expect(given[key] == fields[key.name], "\(SeededGenerator.replay(seed)) round \(round)") }
            let reader = FieldReader<RegistryError>(fields: fields, call: "UpdateActivity", subject: "song", record: "changes")
            let update = given.unknownKeys { _ in true }
            #expect(reader.unknownKeyDiagnostics(update, module: "m") == reader.unknownKeys(known: Registry.updateKeys, module: "m"))
            let start = given.unknownKeys { $0 != .animate && $0 != .animation && $0 != .remove }
            #expect(reader.unknownKeyDiagnostics(start, module: "m") == reader.unknownKeys(known: Registry.startKeys, module: "m"))
            #expect(given.payloadBytes == fields.reduce(0) { $0 + 9 + $1.key.utf8.count + $1.value.estimatedWireBytes })
        }
    }

    @Test func aLazyContextReadsAsTheWrittenOne() {
        for id in ["song", "bad id", String(repeating: "é", count: 300), "\"q\"", ""] {
            let lazy = FieldReader<RegistryError>(fields: ["x": .bool(true)], call: "UpdateActivity", subject: id, record: "changes")
            let written = FieldReader<RegistryError>(fields: ["x": .bool(true)], context: "UpdateActivity \"\(InputQuote.text(id))\" changes")
            #expect(lazy.context == written.context)
            #expect(lazy.error("k", "m") == written.error("k", "m"))
            #expect(lazy.unknownKeys(known: [], module: "m") == written.unknownKeys(known: [], module: "m"))
        }
    }
}
