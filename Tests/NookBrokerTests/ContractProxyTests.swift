import Foundation
import Testing
import NookBus
import NookCore
import NookTestSupport

/// The generated side of the contract (`NookContract`, the typed proxies) against the XML it
/// comes from, read here by the tests' own parser, and against the real nookd.
@Suite struct ContractProxyTests {
    static let notificationsFile = IntrospectionTests.contractFile
        .deletingLastPathComponent().appendingPathComponent("org.nook.Notifications1.xml")

    /// The descriptors in the form `IntrospectionTests.members` writes the XML's members.
    static func lines(methods: [ContractMethod], signals: [ContractSignal], properties: [ContractProperty]) -> [String] {
        methods.map { method in
            let arguments = method.inputs.map { "in \($0.signature) \($0.name)" } + method.outputs.map { "out \($0.signature) \($0.name)" }
            return "method \(method.name)(\(arguments.joined(separator: ", ")))"
        } + signals.map { signal in
            "signal \(signal.name)(\(signal.arguments.map { "\($0.signature) \($0.name)" }.joined(separator: ", ")))"
        } + properties.map { "property \($0.name) \($0.signature)" }
    }

    /// Every member of every interface, with its arguments' names, types and directions, is
    /// in `NookContract` as the XML declares it (properties by name and type).
    @Test func theDescriptorsAreTheXMLsMembers() throws {
        let nook = IntrospectionTests.members(try String(contentsOf: IntrospectionTests.contractFile, encoding: .utf8))
        let notifications = IntrospectionTests.members(try String(contentsOf: Self.notificationsFile, encoding: .utf8))
        func declared(_ members: [String]?) -> [String] {
            // The tests' parser adds the access to a property; the descriptor has none to add.
            (members ?? []).map { $0.hasPrefix("property ") ? $0.split(separator: " ").prefix(3).joined(separator: " ") : $0 }.sorted()
        }
        typealias C = NookContract
        #expect(Self.lines(methods: C.Modules.methods, signals: C.Modules.signals, properties: C.Modules.properties).sorted() == declared(nook[C.Modules.interface]))
        #expect(Self.lines(methods: C.Control.methods, signals: C.Control.signals, properties: C.Control.properties).sorted() == declared(nook[C.Control.interface]))
        #expect(Self.lines(methods: C.Render.methods, signals: C.Render.signals, properties: C.Render.properties).sorted() == declared(nook[C.Render.interface]))
        #expect(Self.lines(methods: C.Notifications.methods, signals: C.Notifications.signals, properties: C.Notifications.properties).sorted()
                == declared(notifications[C.Notifications.interface]))
        #expect(C.Notifications.busName == "org.freedesktop.Notifications" && C.Notifications.path == "/org/nook/Notifications1")
        #expect(C.Control.busName == "org.nook.Nook1" && C.Control.path == "/org/nook/Nook1")
        #expect(C.Control.open.description == "org.nook.Nook1.Control.Open(a{sv}) -> t")
    }

    /// A reply of another shape than the contract's is refused naming the method and both
    /// signatures, never handed on as something else.
    @Test func aReplyOfAnotherShapeIsInvalidArgs() throws {
        #expect(try NookContract.Control.open.output(0, of: [.uint64(7)], as: UInt64.self) == 7)
        for reply: [DBusValue] in [[], [.string("7")], [.uint64(7), .uint64(8)]] {
            do {
                _ = try NookContract.Control.open.output(0, of: reply, as: UInt64.self)
                Issue.record("\(reply) was taken as Open's reply")
            } catch let error as DBusError {
                #expect(error.name == DBusError.StandardError.invalidArgs.rawValue && error.message.contains("Open"), "\(error)")
                #expect(error.message.contains("t"), "\(error)")
            }
        }
        let view = RawNode(kind: "text", props: ["text": .string("x")]).wireValue
        #expect(throws: DBusError.self) { try NookContract.Render.subscribe.output(1, of: [.objectPath("/x"), view], as: DBusValue.self) }
    }

    /// A module, a script and a renderer each reach the real nookd through their proxy, every
    /// kind of member: methods with and without replies, a two-value reply, a signal, and a
    /// property read and written.
    @Test func modulesControlAndRenderReachNookdThroughTheirProxies() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let moduleConnection = try await BusConnection.connect(to: .address(bus.address))
            let rendererConnection = try await BusConnection.connect(to: .address(bus.address))
            let modules = NookModulesProxy(moduleConnection)
            let control = NookControlProxy(rendererConnection)
            let render = NookRenderProxy(rendererConnection)

            let plans = Locked<[DBusValue]>([])
            _ = try await render.onPlan { arguments in plans.withLock { $0.append(contentsOf: arguments) } }
            let subscribed = try await render.subscribe(display: ["width": .double(1920), "height": .double(1080)])
            #expect(subscribed.handle.rawValue.hasPrefix("/org/nook/Nook1"), "\(subscribed.handle)")
            #expect(subscribed.plan["serial"] != nil, "\(subscribed.plan.keys.sorted())")

            try await modules.register(module: "music", info: ["display_name": .string("Music")])
            var spec = BrokerIntegrationTests.spec(relevance: 1).mapValues(\.wireValue)
            spec["expanded"] = BrokerIntegrationTests.text("Song").wireValue
            try await modules.startActivity(activity: "song", spec: spec)
            #expect(try await control.getState()["activity"] == .string("song"))
            #expect(await eventually { !plans.withLock { $0.isEmpty } }, "no Plan signal reached the renderer's onPlan")

            let opened = try await control.open(options: [:])
            #expect(opened > 0)
            #expect(try await control.presentation() == "expanded")
            #expect(try await control.close(options: [:]) > opened)

            #expect(try await control.reduceMotion() == false)
            try await control.setReduceMotion(true)
            #expect(try await control.reduceMotion() == true)

            try await modules.updateActivity(activity: "song", changes: ["relevance": .double(3)])
            try await modules.endActivity(activity: "song", options: ["dismissal": .string("immediate")])
            #expect(try await control.getState()["presentation"] == .string("hidden"))
            await #expect(throws: DBusError.self) { try await modules.endActivity(activity: "song", options: [:]) }
            try await render.unsubscribe()
            await moduleConnection.close()
            await rendererConnection.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }
}
