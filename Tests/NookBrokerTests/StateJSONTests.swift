import Foundation
import Testing
@testable import NookBroker
import NookCore

/// The state writer encodes the registry with `StateJSON` (straight from the live records,
/// reusing unchanged modules' and activities' bytes between saves); the file must be exactly
/// what `JSONEncoder` writes for the same `StateFile`, whatever the values and whatever
/// changed since the last save.
@Suite struct StateJSONTests {
    /// Strings that need every kind of escape, and keys whose order depends on how they sort.
    static let awkward = "quote \" backslash \\ slash / \u{0}\u{1}\u{8}\u{9}\u{a}\u{b}\u{c}\u{d}\u{1f}\u{7f} é ✓ 🎵 \u{2028}"
    static let doubles: [Double] = [0, -0.0, 1, -1, 0.1, 2.5, 1e300, -1e-300, 5e-324, 123456789.125, 1e16, 1e15, 0.000001, .greatestFiniteMagnitude]

    static func registry() throws -> Registry {
        var registry = try PersistenceTests().populated()
        _ = try registry.register(
            module: "rules", info: ["display_name": .string(awkward), "version": .string("1/2"), "rules": .dictionary(["rules.named.card": .string("size-10 opacity-50")])],
            caller: ":1.3", now: .zero)
        var params: [String: PropValue] = [:]
        for (index, value) in doubles.enumerated() { params["d\(index)"] = .double(value) }
        for key in ["a10", "a9", "B", "a", "_x", "é", "Z", "a_b", "a-b", "a.b", "", "10", "9"] { params[key] = .string(awkward + key) }
        params["ints"] = .array([.int(.min), .int(.max), .int(0), .uint(.max), .uint(0)])
        params["nested"] = .dictionary(["b": .array([.bool(true), .bool(false)]), "A": .structure([.string("/")])])
        var spec = Fixtures.spec(label: awkward, relevance: 0.3, sequence: 1)
        spec["expanded"] = .node(RawNode(kind: "vstack", props: ["spacing": .double(2.5)], children: [
            RawNode(kind: "view", props: ["name": .string("Card"), "params": .dictionary(params)]),
            Fixtures.text(awkward),
        ]))
        spec["lifetime"] = .string("detached")
        spec["dismiss_date"] = .int(1_800_000_000_000_000)
        spec["stale_date"] = .int(1_700_000_000_000_000)
        _ = try registry.startActivity("odd", spec: spec, caller: ":1.3", now: .zero)
        _ = try registry.setContent(slot: "home", view: Fixtures.text(awkward), caller: ":1.3", now: .zero)
        return registry
    }

    static func expected(_ state: PersistedState) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(state.file)
    }

    static func check(_ store: StateStore, _ state: PersistedState, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let written = try await store.encoded(state)
        let expected = try Self.expected(state)
        #expect(written == expected, "\(Self.firstDifference(written, expected))", sourceLocation: sourceLocation)
        #expect(try JSONDecoder().decode(StateFile.self, from: written) == state.file, sourceLocation: sourceLocation)
    }

    static func firstDifference(_ a: Data, _ b: Data) -> String {
        let index = Array(zip(a, b)).firstIndex { $0 != $1 } ?? min(a.count, b.count)
        let from = max(0, index - 80)
        return "at byte \(index):\n  written  \(String(decoding: a.dropFirst(from).prefix(160), as: UTF8.self))\n  expected \(String(decoding: b.dropFirst(from).prefix(160), as: UTF8.self))"
    }

    @Test func theWriterGivesTheBytesJSONEncoderGives() async throws {
        let registry = try Self.registry()
        let store = StateStore(directory: URL(fileURLWithPath: "/nonexistent"))
        try await Self.check(store, PersistedState(registry: .init()))
        try await Self.check(store, PersistedState(
            registry: registry, presentation: .dictionary(["state": .string("pill")]), settings: ["reduce_motion": .bool(true)],
            tokens: ["motion.hideDip": .string("150ms")]))
    }

    /// Every kind of stored value on its own, non-finite doubles included (views refuse them,
    /// but the writer handles any `PropValue`).
    @Test func everyValueAsJSONEncoderWritesIt() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let values: [PropValue] = Self.doubles.map(PropValue.double) + [
            .double(.nan), .double(.infinity), .double(-.infinity), .bool(true), .bool(false), .int(.min), .uint(.max),
            .string(Self.awkward), .array([]), .structure([.int(1), .string("/")]), .dictionary([:]),
            .dictionary(["a10": .int(1), "a9": .int(2), "B": .int(3), "a": .int(4), "_": .int(5), "é": .int(6), "Z": .int(7)]),
            .node(RawNode(kind: "text", props: ["text": .string("x")], children: [RawNode(kind: "spacer")])),
        ]
        for value in values {
            var json = StateJSON()
            json.value(value)
            let expected = try encoder.encode(StoredValue(value))
            #expect(Data(json.bytes) == expected, "\(value): \(String(decoding: json.bytes, as: UTF8.self)) vs \(String(decoding: expected, as: UTF8.self))")
        }
    }

    /// Bytes kept from the last save are reused only while what they were made from is equal:
    /// every change shows in the next save, and gone modules and activities leave it.
    @Test func reusedBytesFollowEveryChange() async throws {
        var registry = try Self.registry()
        let store = StateStore(directory: URL(fileURLWithPath: "/nonexistent"))
        try await Self.check(store, PersistedState(registry: registry))
        let steps: [(String, (inout Registry) throws -> Void)] = [
            ("an update of one activity", { _ = try $0.updateActivity("song", changes: ["relevance": .double(7)], caller: ":1.1", now: .zero) }),
            ("a view changed", { _ = try $0.updateActivity("odd", changes: ["minimal": .node(Fixtures.text("m2"))], caller: ":1.3", now: .zero) }),
            ("a new activity", { _ = try $0.startActivity("new", spec: Fixtures.spec(), caller: ":1.2", now: .zero) }),
            ("module content", { _ = try $0.setContent(slot: "compact_leading", view: Fixtures.text("♫"), caller: ":1.1", now: .zero) }),
            ("an activity ended", { _ = try $0.endActivity("egg", options: [:], caller: ":1.2", now: .zero) }),
            ("a dismissal", { _ = try $0.dismiss(ActivityRef(module: "timer", activity: "new"), options: [:], now: .zero) }),
            ("the owner left", { _ = $0.connectionLeft(":1.1", now: .zero) }),
            ("a module gone", { _ = $0.expire(now: BrokerTime(seconds: 1000)) }),
            ("nothing", { _ in }),
        ]
        for (what, change) in steps {
            try change(&registry)
            let state = PersistedState(registry: registry)
            let written = try await store.encoded(state)
            let expected = try Self.expected(state)
            #expect(written == expected, "after \(what): \(Self.firstDifference(written, expected))")
        }
    }
}
