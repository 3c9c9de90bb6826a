import Testing
@testable import NookBus
@testable import NookCore
import NookTestSupport

/// The Nook wire codec: contract values <-> D-Bus values, and the errors it names.
@Suite struct WireCodecTests {
    static let cover = RawNode(
        kind: "image",
        props: [
            "uri": .string("file:///cover.png"), "width": .double(40), "height": .double(40),
            "shared": .dictionary(["id": .string("cover"), "style": .string("resize"), "is_source": .bool(true)]),
            "padding": .structure([.double(1), .double(2), .double(3), .double(4)]),
        ])
    static let view = RawNode(
        kind: "hstack", props: ["spacing": .double(4), "classes": .string("group/hero gap-2")],
        children: [
            cover,
            RawNode(kind: "text", props: ["text": .string("Song ✓"), "timer_end": .int(1_800_000_000_000_000)]),
            RawNode(kind: "view", props: [
                "name": .string("CoverArt"),
                "params": .dictionary([
                    "colors": .array([.string("#fff"), .string("#000")]),
                    "mixed": .array([.int(1), .string("a"), .bool(false)]),
                    "nested": .dictionary(["deep": .uint(7)]),
                    "empty": .array([]),
                ]),
            ]),
        ])

    @Test func propValuesRoundTripThroughTheirWireForm() throws {
        let samples: [PropValue] = [
            .bool(true), .int(-5), .uint(.max), .double(2.5), .string(""),
            .array([]), .array([.double(1), .double(2)]), .array([.int(1), .string("x")]),
            .dictionary([:]), .dictionary(["a": .dictionary(["b": .array([.bool(false)])])]),
            .structure([.string("m"), .string("a")]), .node(Self.view),
            .array([.structure([.string("m"), .string("a")]), .structure([.string("n"), .string("b")])]),
        ]
        for sample in samples {
            #expect(try PropValue(wire: sample.wireValue, at: "v") == sample, "\(sample)")
            // Every encoding is a valid D-Bus value.
            try sample.wireValue.validate()
        }
    }

    @Test func homogeneousArraysAreTypedAndMixedOnesAreVariants() {
        #expect(PropValue.array([.double(1), .double(2)]).wireValue.signature == "ad")
        #expect(PropValue.array([.structure([.string("m"), .string("a")])]).wireValue.signature == "a(ss)")
        #expect(PropValue.array([.dictionary(["k": .bool(true)])]).wireValue.signature == "aa{sv}")
        #expect(PropValue.array([.int(1), .string("x")]).wireValue.signature == "av")
        #expect(PropValue.array([]).wireValue.signature == "av")
    }

    @Test func everyDBusTypeMapsStructurally() throws {
        let cases: [(DBusValue, PropValue)] = [
            (.byte(7), .uint(7)), (.bool(true), .bool(true)), (.int16(-3), .int(-3)), (.uint16(3), .uint(3)),
            (.int32(-4), .int(-4)), (.uint32(4), .uint(4)), (.int64(.min), .int(.min)), (.uint64(.max), .uint(.max)),
            (.double(-0.5), .double(-0.5)), (.string("s"), .string("s")), (.objectPath("/a/b"), .string("/a/b")),
            (.signature("a{sv}"), .string("a{sv}")), (.variant(.variant(.int32(1))), .int(1)),
            (.array(element: "y", [.byte(1), .byte(2)]), .array([.uint(1), .uint(2)])),
            (.dictionary(key: "s", value: "s", [.init(.string("k"), .string("v"))]), .dictionary(["k": .string("v")])),
            (.structure([.double(1), .string("x")]), .structure([.double(1), .string("x")])),
        ]
        for (wire, expected) in cases {
            #expect(try PropValue(wire: wire, at: "v") == expected, "\(wire.signature)")
        }
    }

    @Test func viewNodesRoundTripAndChildrenAreVariants() throws {
        let wire = Self.view.wireValue
        #expect(wire.signature == RawNode.wireSignature)
        guard case .structure(let fields) = wire, case .array(let element, let children) = fields[2] else {
            Issue.record("not a node: \(wire)")
            return
        }
        #expect(element == "v" && children.count == 3)
        #expect(try RawNode(wire: wire, at: "expanded") == Self.view)
        // A view inside an a{sv} is a variant holding a node.
        let spec = DBusValue.dictionary(key: "s", value: "v", [.init(.string("minimal"), .variant(wire))])
        #expect(try WireCodec.dictionary(spec, at: "") == ["minimal": .node(Self.view)])
    }

    @Test func vardictKeysAreSortedSoEncodingIsDeterministic() {
        let value = WireCodec.vardict(["b": .int(1), "a": .int(2), "c": .int(3)])
        guard case .dictionary(_, _, let entries) = value else { Issue.record("not a dictionary"); return }
        #expect(entries.map(\.key) == [.string("a"), .string("b"), .string("c")])
    }

    @Test func diagnosticsEncodeAsTheContractsRecords() throws {
        let diagnostic = Diagnostic(.idSuffixed, .info, "suffixed", path: "minimal/0.shared.id", module: "music", id: "cover")
        let wire = WireCodec.diagnostics([diagnostic])
        #expect(wire.signature == "aa{sv}")
        guard case .array(_, let items) = wire else { return }
        let record = try WireCodec.dictionary(items[0], at: "")
        #expect(record["code"] == .string("id-suffixed") && record["severity"] == .string("info"))
        #expect(record["module"] == .string("music") && record["id"] == .string("cover"))
        #expect(record["path"] == .string("minimal/0.shared.id"))
    }

    // MARK: Errors name the key path

    struct RefusedCase: CustomTestStringConvertible, Sendable {
        let name: String
        let value: DBusValue
        let path: String
        var testDescription: String { name }
    }

    static let refused: [RefusedCase] = [
        RefusedCase(
            name: "file descriptor in a nested prop",
            value: .dictionary(key: "s", value: "v", [.init(.string("params"), .variant(.vardict(["fd": .unixFD(-1)])))]),
            path: "params.fd"),
        RefusedCase(
            name: "dictionary keyed by integers",
            value: .dictionary(key: "s", value: "v", [.init(.string("map"), .variant(.dictionary(key: "u", value: "s", [])))]),
            path: "map"),
        RefusedCase(
            name: "duplicate key",
            value: .dictionary(key: "s", value: "v", [.init(.string("a"), .variant(.int32(1))), .init(.string("a"), .variant(.int32(2)))]),
            path: "a"),
        RefusedCase(
            name: "file descriptor inside an array",
            value: .dictionary(key: "s", value: "v", [.init(.string("list"), .variant(.array(element: "h", [.unixFD(-1)])))]),
            path: "list.0"),
    ]

    @Test(arguments: refused) func refusedValuesNameTheirPath(_ testCase: RefusedCase) {
        #expect(throws: WireDecodingError.self) { try WireCodec.dictionary(testCase.value, at: "") }
        do { _ = try WireCodec.dictionary(testCase.value, at: "") } catch {
            #expect(error.path == testCase.path)
        }
    }

    @Test func aChildThatIsNotANodeIsNamedByItsPath() {
        let bad = DBusValue.structure([
            .string("vstack"), .vardict([:]),
            .array(element: "v", [.variant(RawNode(kind: "text").wireValue), .variant(.string("oops"))]),
        ])
        do {
            _ = try RawNode(wire: bad, at: "compact_leading")
            Issue.record("accepted a string child")
        } catch {
            #expect(error.path == "compact_leading/1")
            #expect(error.message.contains("(sa{sv}av)"))
        }
    }

    @Test func viewErrorsMapToTheContractsErrors() {
        for code in ViewValidationError.Code.allCases {
            let error = DBusError(ViewValidationError(path: "expanded/0/2.shared.id", code: code, message: "bad"), context: "activity 'a'")
            let expected: NookErrorName =
                code.isLimit ? .limitsExceeded : (code == .invalidId || code == .invalidGroupName) ? .invalidId : .invalidView
            #expect(error.name == expected.rawValue, "\(code)")
            #expect(error.message.hasPrefix("activity 'a': expanded/0/2.shared.id: bad"))
        }
        #expect(DBusError(WireDecodingError(path: "spec.relevance", message: "no")).name == NookErrorName.invalidArgs.rawValue)
    }

    @Test func descriptorsAreFound() {
        #expect(DBusValue.vardict(["a": .array(element: "h", [.unixFD(-1)])]).containsUnixFD)
        #expect(!Self.view.wireValue.containsUnixFD)
    }

    @Test func aViewCrossesARealBusUnchanged() async throws {
        try await PrivateBus.with { bus in
            let fixture = try await EchoFixture.make(on: bus.address)
            let reply = try await fixture.call("EchoNode", [Self.view.wireValue])
            #expect(try RawNode(wire: reply[0], at: "expanded") == Self.view)
            await fixture.close()
        }
    }
}
