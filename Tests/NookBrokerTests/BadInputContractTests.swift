import Foundation
import Testing
import NookBus
import NookCore
import NookTestSupport

/// Bad input over D-Bus, case by case (SPEC, Reliability): each bad call gets its documented
/// error (docs/broker.md, Errors) or diagnostic, nookd keeps serving, and another module's
/// state and plans are untouched. `BadInputTests` throws random input; this suite names cases.
@Suite(.serialized) struct BadInputContractTests {
    typealias Spec = BrokerIntegrationTests

    /// Starts nookd, a bystander module with one activity and a renderer, runs `body`, then
    /// checks the bystander still publishes and its plan reaches the renderer. `body` gets the
    /// bus, nookd, the noisy module, and a probe doing that same check whenever called.
    static func withBroker(
        _ body: (PrivateBus, NookdProcess, BrokerClient, @escaping @Sendable () async throws -> Bool) async throws -> Void
    ) async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let bystander = try await BrokerClient.connect(bus)
            try await bystander.register("calm")
            try await bystander.start("steady", Spec.spec(label: "steady", relevance: 1000))
            let renderer = try await ControlRenderTests.Renderer.subscribe(bus)
            let noisy = try await BrokerClient.connect(bus)
            try await noisy.register("noisy")
            try await noisy.start("a", Spec.spec(relevance: 1))

            let probe: @Sendable () async throws -> Bool = {
                let marker = "still here \(UUID().uuidString.prefix(8))"
                try await bystander.update("steady", ["compact_trailing": .node(Spec.text(marker))])
                return await renderer.plan { "\($0)".contains(marker) } != nil
            }
            try await body(bus, nookd, noisy, probe)

            #expect(nookd.isRunning, "\(nookd.log)")
            #expect(try await probe(), "the bystander's update never reached the renderer: \(nookd.log.suffix(2000))")
            #expect(try await bystander.activities().first == "calm/steady")
            for client in [noisy, bystander, renderer.client] { await client.close() }
            #expect(await nookd.stop() == 0, "\(nookd.log.suffix(2000))")
        }
    }

    /// Every method of the three interfaces, read from nookd's own introspection, called with
    /// a wrong signature: `InvalidArgs` naming the expected and the received signature.
    @Test func everyMethodRefusesAWrongSignatureNamingBoth() async throws {
        try await Self.withBroker { _, _, noisy, _ in
            let reply = try await noisy.connection.call(
                destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: "org.freedesktop.DBus.Introspectable", member: "Introspect")
            let members = IntrospectionTests.members(try decode(reply[0], as: String.self))
            var checked = 0
            for interface in ["org.nook.Nook1.Modules", "org.nook.Nook1.Control", "org.nook.Nook1.Render"] {
                let methods = (members[interface] ?? []).filter { $0.hasPrefix("method ") }
                #expect(!methods.isEmpty, "\(interface) exports no methods")
                for line in methods {
                    let name = String(line.dropFirst("method ".count).prefix { $0 != "(" })
                    let inside = line.drop { $0 != "(" }.dropFirst().dropLast()
                    let expected = inside.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                        .filter { $0.hasPrefix("in ") }.map { $0.split(separator: " ")[1] }.joined()
                    // Something no method takes: an int32 (and for no-argument methods, the same).
                    let wrong: [DBusValue] = expected == "i" ? [.string("x")] : [.int32(7)]
                    let got = expected == "i" ? "s" : "i"
                    let error = await expectDBusError(.invalidArgs, containing: "'\(expected)'") {
                        try await noisy.call(name, wrong, interface: interface)
                    }
                    #expect(error?.message.contains("'\(got)'") == true, "\(interface).\(name): \(String(describing: error))")
                    #expect(error?.message.contains(name) == true, "\(interface).\(name): \(String(describing: error))")
                    // Missing arguments too (for methods that take some).
                    if !expected.isEmpty {
                        _ = await expectDBusError(.invalidArgs, containing: "'\(expected)'") {
                            try await noisy.call(name, [], interface: interface)
                        }
                    }
                    checked += 1
                }
            }
            #expect(checked >= 25, "only \(checked) methods checked")
            #expect(try await noisy.activities().contains("noisy/a"))
        }
    }

    /// Unknown keys are diagnosed (`unknown-key`), not refused; invalid ids are refused with
    /// `InvalidId` naming the id.
    @Test func unknownKeysAreDiagnosedAndInvalidIdsRefused() async throws {
        try await Self.withBroker { bus, _, noisy, _ in
            try await noisy.update("a", ["sparkle": .bool(true), "zz_future": .string("x")])
            #expect(await eventually { noisy.diagnosticCodes.contains("unknown-key") }, "\(noisy.diagnosticCodes)")
            var spec = Spec.spec()
            spec["glitter"] = .double(1)
            try await noisy.start("b", spec)
            #expect(await eventually { noisy.diagnosticCodes.filter { $0 == "unknown-key" }.count >= 2 }, "\(noisy.diagnosticCodes)")
            let fresh = try await BrokerClient.connect(bus)
            for id in ["", "has space", "a/b", "ünïcode", "UPPER!", String(repeating: "x", count: 300)] {
                _ = await expectDBusError(.invalidId, containing: "\"\(id.prefix(16))") { try await fresh.register(id) }
                _ = await expectDBusError(.invalidId, containing: "\"\(id.prefix(16))") { try await noisy.start(id, Spec.spec()) }
            }
            await fresh.close()
            #expect(try await noisy.activities().contains("noisy/b"))
        }
    }

    /// NaN and negative sizes in a view are `InvalidView` at the prop's path; NaN relevance
    /// is `InvalidArgs` naming the key.
    @Test func nanAndNegativeSizesAreRefusedAtTheirPath() async throws {
        try await Self.withBroker { _, _, noisy, _ in
            for (key, value) in [("width", Double.nan), ("height", -4), ("min_width", .infinity), ("max_height", -.infinity)] {
                let node = RawNode(kind: "hstack", children: [RawNode(kind: "text", props: ["text": .string("x"), key: .double(value)])])
                _ = await expectDBusError(.invalidView, containing: "expanded/0.\(key)") {
                    try await noisy.update("a", ["expanded": .node(node)])
                }
            }
            let padded = RawNode(kind: "text", props: ["text": .string("x"), "padding": .structure([.double(1), .double(-1), .double(.nan), .double(0)])])
            _ = await expectDBusError(.invalidView, containing: "padding") { try await noisy.update("a", ["expanded": .node(padded)]) }
            _ = await expectDBusError(.invalidArgs, containing: "'relevance'") { try await noisy.update("a", ["relevance": .double(.nan)]) }
            _ = await expectDBusError(.invalidArgs, containing: "'relevance'") { try await noisy.update("a", ["relevance": .double(.infinity)]) }
        }
    }

    /// Trees past the node limit are refused; depth is bounded by D-Bus itself (a message
    /// nests at most 64 containers, three per view level), far below `maxDepth` (32): the
    /// deepest view that can cross the bus is accepted, a deeper one never reaches nookd.
    @Test func treesOverTheLimitsAreRefused() async throws {
        try await Self.withBroker { bus, _, noisy, _ in
            let wide = RawNode(kind: "vstack", children: Array(repeating: Spec.text("row"), count: ViewLimits.standard.maxNodes + 1))
            _ = await expectDBusError(.limitsExceeded, containing: "\(ViewLimits.standard.maxNodes) nodes") {
                try await noisy.update("a", ["expanded": .node(wide)])
            }
            let fits = RawNode(kind: "vstack", children: Array(repeating: Spec.text("row"), count: ViewLimits.standard.maxNodes - 1))
            try await noisy.update("a", ["expanded": .node(fits)])
            func deep(_ levels: Int) -> RawNode {
                var node = Spec.text("leaf")
                for _ in 0..<levels { node = RawNode(kind: "vstack", children: [node]) }
                return node
            }
            // SetContent carries the node at the top level: one struct, then an array, a variant
            // and a struct per level. 20 levels are 61 nested containers and cross the bus.
            try await noisy.call("SetContent", [.string("home"), deep(20).wireValue])
            // 21 levels make 64: dbus-daemon refuses the message and disconnects its sender (on a
            // connection of its own here); nookd never sees it and keeps serving.
            for levels in [21, 40] {
                let reckless = try await BrokerClient.connect(bus)
                try await reckless.register("deep\(levels)")
                do {
                    try await reckless.call("SetContent", [.string("home"), deep(levels).wireValue])
                    Issue.record("a \(levels)-level view crossed the bus")
                } catch let error as DBusError {
                    #expect(error.name == DBusError.StandardError.noReply.rawValue || error.name == DBusError.StandardError.disconnected.rawValue, "\(levels): \(error)")
                } catch {
                    Issue.record("\(levels): \(error)")
                }
                #expect(await eventually { await !reckless.connection.isOpen }, "the bus kept a connection that sent an invalid message")
                await reckless.close()
            }
            #expect(try await noisy.activities().contains("noisy/a"))
        }
    }

    /// Payloads past `maxPayloadBytes` (1 MiB), up to 32 MiB, are `LimitsExceeded` naming the
    /// limit, and nookd keeps serving.
    @Test func payloadsPastTheSizeLimitAreRefused() async throws {
        try await Self.withBroker { _, nookd, noisy, _ in
            func changes(bytes: Int) -> [String: PropValue] {
                let chunk = String(repeating: "p", count: 1000)
                var changes: [String: PropValue] = [:]
                for index in 0..<(bytes / 1024) { changes["zz_pad_\(index)"] = .string(chunk) }
                return changes
            }
            // The private bus (like a session bus) passes messages this large; nookd refuses
            // them by its own limit, naming it.
            for bytes in [(1 << 20) + 4096, 2 << 20, 8 << 20, (32 << 20) - (64 << 10)] {
                _ = await expectDBusError(.limitsExceeded, containing: "maxPayloadBytes") { try await noisy.update("a", changes(bytes: bytes)) }
            }
            #expect(nookd.isRunning)
        }
    }

    /// Alias cycles in SetTokens are `InvalidTheme` naming a token on the cycle; nothing of
    /// the rejected set is applied.
    @Test func aliasCyclesInSetTokensAreRefusedWhole() async throws {
        try await Self.withBroker { _, _, noisy, _ in
            let control = "org.nook.Nook1.Control"
            let before = try Vardict(try await noisy.call("GetTokens", interface: control)[0])
            for tokens: [String: PropValue] in [
                ["transition.peek": .string("{transition.convert}"), "transition.convert": .string("{transition.peek}")],
                ["transition.peek": .string("{transition.peek}")],
                ["transition.peek": .string("{transition.open}"), "transition.open": .string("{transition.close}"),
                 "transition.close": .string("{transition.peek}")],
            ] {
                let error = await expectDBusError(.invalidTheme, containing: "transition.") {
                    try await noisy.call("SetTokens", [WireCodec.vardict(tokens)], interface: control)
                }
                #expect(error?.message.lowercased().contains("cycle") == true, "\(String(describing: error))")
            }
            let after = try Vardict(try await noisy.call("GetTokens", interface: control)[0])
            #expect(before == after, "a refused SetTokens changed the tokens")
        }
    }

    /// 10,000 updates from one module, sent as fast as it can without waiting for replies:
    /// coalesced, nookd keeps serving, and another module's update published mid-flood reaches
    /// the renderer (after the flood's backlog: nookd serves calls in arrival order). How long
    /// the bystander waits is a speed, so it is not asserted here (docs/PERFORMANCE.md).
    @Test func aFloodOfUpdatesDoesNotStarveOtherModules() async throws {
        try await Self.withBroker { _, nookd, noisy, probe in
            let total = 10_000
            var during: Task<Bool, Error>?
            var sent = 0
            while sent < total {
                // Paced in batches of ten, as a hostile module would; halfway through, the
                // bystander publishes and its plan must get through while the flood goes on.
                let batch = (sent..<min(total, sent + 10)).map {
                    [DBusValue.string("a"), WireCodec.vardict(["compact_trailing": .node(Spec.text("flood \($0)"))])]
                }
                try await noisy.connection.perform { connection in
                    for arguments in batch {
                        try connection.callNoReply(
                            destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: "org.nook.Nook1.Modules",
                            member: "UpdateActivity", arguments: arguments)
                    }
                }
                sent += batch.count
                if during == nil, sent >= total / 2 { during = Task { try await probe() } }
                await Task.yield()
            }
            #expect(try await during!.value, "the bystander's plan did not get through")
            // A call after the flood is answered (in order), and the final state is the last update.
            try await noisy.update("a", ["compact_trailing": .node(Spec.text("flood done"))])
            #expect(nookd.isRunning)
            #expect(try await noisy.activities().contains("noisy/a"))
        }
    }
}
