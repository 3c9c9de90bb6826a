import Synchronization
import Testing
import NookBus
import NookCore
import NookTestSupport

/// `DBusMethod.readingProps(at:)` reads an `a{sv}` argument straight into props. Whatever a
/// client sends, the handler must see what the general way gives (`WireCodec.dictionary` of
/// the decoded argument), and the same error where that refuses it; plain forms must actually
/// take the straight way.
@Suite struct PropReaderTests {
    static let path: ObjectPath = "/org/nook/Test/Props"
    static let interface = "org.nook.Test.Props"

    /// What a handler made of argument 1: the props, or the refusal's text; and whether they
    /// came straight.
    struct Seen: Equatable {
        var props: [String: PropValue]?
        var refusal: String?
        var straight: Bool
    }

    static func seen(_ call: MethodCall) -> Seen {
        if let props = call.props[1] { return Seen(props: props, straight: true) }
        do { return Seen(props: try WireCodec.dictionary(call.arguments[1], at: ""), straight: false) } catch {
            return Seen(refusal: error.description, straight: false)
        }
    }

    @Test func propsReadStraightEqualWhatTheGeneralWayReads() async throws {
        let seed = SeededGenerator.runSeed()
        var random = SeededGenerator(seed: seed)
        let last = Locked<Seen?>(nil)
        let method = { (name: String) in
            DBusMethod(name, in: [DBusArgument("id", "s"), DBusArgument("record", "a{sv}")]) { call in
                last.withLock { $0 = Self.seen(call) }
                return []
            }
        }
        let interfaces = [DBusInterface(Self.interface, methods: [method("Straight").readingProps(at: 1), method("General")])]
        var samples: [[String: DBusValue]] = [
            [:],
            ["every int": .variant(.structure([.byte(1), .int16(-2), .uint16(3), .int32(-4), .uint32(5), .int64(-6), .uint64(7)]))],
            ["node": .variant(RawNode(kind: "vstack", props: ["spacing": .double(2)], children: [RawNode(kind: "text")]).wireValue)],
            ["nested variant": .variant(.variant(.string("x")))],
            ["a{ss}": .variant(.dictionary(key: "s", value: "s", [DBusValue.DictEntry(.string("a"), .string("b"))]))],
            // The general way's own cases: refused, or read with its byte budget.
            ["keyed by int": .variant(.dictionary(key: "i", value: "s", [DBusValue.DictEntry(.int32(1), .string("b"))]))],
            ["twice": .variant(.dictionary(key: "s", value: "v", [DBusValue.DictEntry(.string("a"), .variant(.bool(true))),
                                                                  DBusValue.DictEntry(.string("a"), .variant(.bool(false)))]))],
            ["bytes": .variant(.array(element: "y", [.byte(1), .byte(2)]))],
            ["path": .variant(.objectPath("/a/b")), "signature": .variant(.signature("a{sv}"))],
            ["child not a node": .variant(.structure([.string("view"), .dictionary(key: "s", value: "v", []), .array(element: "v", [.variant(.string("x"))])]))],
        ]
        for _ in 0..<60 { samples.append(Self.randomRecord(&random, depth: 3)) }
        try await PrivateBus.with { bus in
            let server = try await BusConnection.connect(to: .address(bus.address))
            _ = try await server.export(interfaces, at: Self.path)
            let client = try await BusConnection.connect(to: .address(bus.address))
            var straightCount = 0
            for record in samples {
                let argument = DBusValue.dictionary(key: "s", value: "v", record.sorted { $0.key < $1.key }.map { DBusValue.DictEntry(.string($0.key), $0.value) })
                var outcomes: [Seen?] = []
                for member in ["Straight", "General"] {
                    last.withLock { $0 = nil }
                    _ = try await client.call(destination: server.uniqueName, path: Self.path, interface: Self.interface, member: member,
                                              arguments: [.string("id"), argument])
                    outcomes.append(last.withLock { $0 })
                }
                guard let straight = outcomes[0], let general = outcomes[1] else {
                    Issue.record("a handler did not run for \(record)")
                    continue
                }
                #expect(!general.straight)
                #expect(straight.props == general.props && straight.refusal == general.refusal, "\(record) (\(SeededGenerator.replay(seed)))")
                if straight.straight { straightCount += 1 }
            }
            // The hand-picked plain records and most random ones (those without bytes, paths or
            // signatures) are read straight.
            #expect(straightCount >= 5 + samples.count / 4, "only \(straightCount) of \(samples.count) read straight")
            for connection in [server, client] { await connection.close() }
        }
    }

    /// `readingProps(at:views:)`: a view key holding a node the one-pass checks pass arrives as
    /// the validator's own view in `MethodCall.views` (and not in the props); one they do not
    /// pass sends the whole record the general way, so the validator names what is wrong; a
    /// view key holding anything else, and other keys' nodes, stay in the props as they were.
    @Test func viewsReadStraightAreTheValidatorsViews() async throws {
        struct Seen: Sendable {
            var props: [String: PropValue]?
            var views: [String: ReadView]
        }
        let last = Locked<Seen?>(nil)
        let reading = ViewReading(keys: ["expanded", "minimal"], limits: .standard)
        let method = DBusMethod("Views", in: [DBusArgument("id", "s"), DBusArgument("record", "a{sv}")]) { call in
            last.withLock { $0 = Seen(props: call.props[1], views: call.views[1] ?? [:]) }
            return []
        }.readingProps(at: 1, views: reading)
        let good = RawNode(kind: "vstack", props: ["spacing": .double(4), "shared": .dictionary(["id": .string("cover")])],
                           children: [RawNode(kind: "text", props: ["text": .string("Building 40%"), "font_size": .int(13)]),
                                      RawNode(kind: "progress", props: ["value": .double(0.4)])])
        let unknownKey = RawNode(kind: "text", props: ["text": .string("x"), "colour": .string("#fff")])
        let outOfRange = RawNode(kind: "progress", props: ["value": .double(2)])
        let unknownSymbol = RawNode(kind: "image", props: ["symbol": .string("no.such.symbol")])
        try await PrivateBus.with { bus in
            let server = try await BusConnection.connect(to: .address(bus.address))
            _ = try await server.export([DBusInterface(Self.interface, methods: [method])], at: Self.path)
            let client = try await BusConnection.connect(to: .address(bus.address))
            func send(_ record: [String: DBusValue]) async throws -> Seen? {
                last.withLock { $0 = nil }
                let argument = DBusValue.dictionary(key: "s", value: "v", record.sorted { $0.key < $1.key }.map { DBusValue.DictEntry(.string($0.key), $0.value) })
                _ = try await client.call(destination: server.uniqueName, path: Self.path, interface: Self.interface, member: "Views",
                                          arguments: [.string("id"), argument])
                return last.withLock { $0 }
            }
            // Good views straight; the rest of the record, a view key's string and another key's node, in the props.
            let seen = try await send(["expanded": .variant(good.wireValue), "minimal": .variant(RawNode(kind: "text").wireValue),
                                       "peek": .variant(good.wireValue), "relevance": .variant(.double(0.5))])
            let validated = try ViewValidator().validate(good, slot: "expanded")
            #expect(seen?.views["expanded"]?.root == validated.root)
            #expect(seen?.views["expanded"]?.wireBytes == good.estimatedWireBytes)
            #expect(seen?.views["minimal"]?.root == ViewNode(kind: .text))
            #expect(seen?.props == ["peek": .node(good), "relevance": .double(0.5)])
            let string = try await send(["expanded": .variant(.string("not a view"))])
            #expect(string?.props == ["expanded": .string("not a view")] && string?.views.isEmpty == true)
            let nested = try await send(["expanded": .variant(.variant(good.wireValue))])
            #expect(nested?.props == ["expanded": .node(good)] && nested?.views.isEmpty == true)
            // What the validator would refuse or comment on: the general way, for all of the record.
            for bad in [unknownKey, outOfRange, unknownSymbol] {
                let seen = try await send(["minimal": .variant(RawNode(kind: "text").wireValue), "expanded": .variant(bad.wireValue)])
                #expect(seen != nil && seen?.props == nil && seen?.views.isEmpty == true, "\(bad)")
            }
            for connection in [server, client] { await connection.close() }
        }
    }

    /// `readingView(at:limits:)`, a module's `SetContent`: a view argument that passes the
    /// one-pass checks arrives as the validator's own view in `MethodCall.viewArguments`; one
    /// that does not is read the general way, for the validator to name what is wrong.
    @Test func aViewArgumentReadStraightIsTheValidatorsView() async throws {
        let last = Locked<(straight: ReadView?, general: DBusValue?)?>(nil)
        let method = DBusMethod("Content", in: [DBusArgument("slot", "s"), DBusArgument("view", "(sa{sv}av)")]) { call in
            last.withLock { $0 = (call.viewArguments[1], call.viewArguments[1] == nil ? call.arguments[1] : nil) }
            return []
        }.readingView(at: 1, limits: { var limits = ViewLimits.standard; limits.maxNodes = 3; return limits }())
        let good = RawNode(kind: "vstack", props: ["spacing": .double(4)], children: [RawNode(kind: "text", props: ["text": .string("Today")])])
        let tooMany = RawNode(kind: "vstack", children: Array(repeating: RawNode(kind: "spacer"), count: 3))
        let unknownKey = RawNode(kind: "text", props: ["colour": .string("#fff")])
        try await PrivateBus.with { bus in
            let server = try await BusConnection.connect(to: .address(bus.address))
            _ = try await server.export([DBusInterface(Self.interface, methods: [method])], at: Self.path)
            let client = try await BusConnection.connect(to: .address(bus.address))
            for (raw, straight) in [(good, true), (tooMany, false), (unknownKey, false)] {
                last.withLock { $0 = nil }
                _ = try await client.call(destination: server.uniqueName, path: Self.path, interface: Self.interface, member: "Content",
                                          arguments: [.string("home"), raw.wireValue])
                let seen = last.withLock { $0 }
                if straight {
                    #expect(seen?.straight?.root == (try ViewValidator().validate(raw, slot: "home")).root)
                    #expect(seen?.straight?.wireBytes == raw.estimatedWireBytes)
                } else {
                    #expect(seen?.straight == nil && seen?.general == raw.wireValue, "\(raw)")
                }
            }
            for connection in [server, client] { await connection.close() }
        }
    }

    static func randomRecord(_ random: inout SeededGenerator, depth: Int) -> [String: DBusValue] {
        var record: [String: DBusValue] = [:]
        for index in 0..<Int(random.next(upTo: 5)) { record["k\(index)"] = .variant(randomValue(&random, depth: depth)) }
        return record
    }

    /// Any D-Bus value a client might send inside a variant (no file descriptors).
    static func randomValue(_ random: inout SeededGenerator, depth: Int) -> DBusValue {
        let kinds: UInt64 = depth > 0 ? 19 : 13
        switch random.next(upTo: kinds) {
        case 0: return .byte(UInt8(truncatingIfNeeded: random.next()))
        case 1: return .bool(random.next(upTo: 2) == 0)
        case 2: return .int16(Int16(truncatingIfNeeded: random.next()))
        case 3: return .uint16(UInt16(truncatingIfNeeded: random.next()))
        case 4: return .int32(Int32(truncatingIfNeeded: random.next()))
        case 5: return .uint32(UInt32(truncatingIfNeeded: random.next()))
        case 6: return .int64(Int64(bitPattern: random.next()))
        case 7: return .uint64(random.next())
        case 8: return .double(Double(Int64(bitPattern: random.next()) % 10_000) / 8)
        case 9, 10: return .string("s\(random.next(upTo: 100))")
        case 11: return random.next(upTo: 8) == 0 ? .objectPath("/p") : .string("plain")
        case 12: return random.next(upTo: 8) == 0 ? .array(element: "y", [.byte(1)]) : .double(1)
        case 13:
            let items = (0..<Int(random.next(upTo: 4))).map { _ in DBusValue.variant(randomValue(&random, depth: depth - 1)) }
            return .array(element: "v", items)
        case 14: return .array(element: "d", (0..<Int(random.next(upTo: 4))).map { _ in .double(Double(random.next(upTo: 100))) })
        case 15:
            let record = randomRecord(&random, depth: depth - 1)
            return .dictionary(key: "s", value: "v", record.sorted { $0.key < $1.key }.map { DBusValue.DictEntry(.string($0.key), $0.value) })
        case 16: return .structure((0..<Int(1 + random.next(upTo: 3))).map { _ in randomValue(&random, depth: depth - 1) })
        case 17: return .variant(randomValue(&random, depth: depth - 1))
        default:
            let props = randomRecord(&random, depth: depth - 1)
            let children = (0..<Int(random.next(upTo: 3))).map { _ in DBusValue.variant(RawNode(kind: "text").wireValue) }
            return .structure([.string("view"), .dictionary(key: "s", value: "v", props.sorted { $0.key < $1.key }.map { DBusValue.DictEntry(.string($0.key), $0.value) }),
                               .array(element: "v", children)])
        }
    }
}
