import NookBus
import Synchronization

/// A test object: echoes values, fails on request, holds a read-write property.
final class EchoObject: Sendable {
    static let path: ObjectPath = "/org/nook/Test"
    static let interface = "org.nook.Test.Echo"
    let counter = Locked<Int32>(0)

    var interfaces: [DBusInterface] {
        [
            DBusInterface(Self.interface, methods: [
                DBusMethod("Echo", in: [DBusArgument("value", "v")], out: [DBusArgument("value", "v")]) { $0.arguments },
                DBusMethod("EchoNode", in: [DBusArgument("node", "(sa{sv}av)")], out: [DBusArgument("node", "(sa{sv}av)")]) { $0.arguments },
                DBusMethod("EchoRecord", in: [DBusArgument("id", "s"), DBusArgument("record", "a{sv}")],
                           out: [DBusArgument("id", "s"), DBusArgument("record", "a{sv}")]) { $0.arguments },
                DBusMethod("Add", in: [DBusArgument("a", "i"), DBusArgument("b", "i")], out: [DBusArgument("sum", "i")]) { call in
                    [.int32(try call.argument(0, as: Int32.self) &+ call.argument(1, as: Int32.self))]
                },
                DBusMethod("Fail", in: [DBusArgument("name", "s"), DBusArgument("message", "s")]) { call in
                    throw DBusError(name: try call.argument(0), message: try call.argument(1))
                },
                DBusMethod("Later", in: [DBusArgument("value", "s")], out: [DBusArgument("value", "s")], deferred: { call in
                    try await Task.sleep(for: .milliseconds(5))
                    return call.arguments
                }),
                Self.bytes,
                // Replies with the count, then bumps it: the bump runs before the next message.
                DBusMethod.replyingFirst("CountThenBump", out: [DBusArgument("count", "i")]) { [self] _ in
                    ([.int32(counter.withLock { $0 })], { self.counter.withLock { $0 += 1 } })
                },
                DBusMethod("Never", deferred: { _ in
                    try await Task.sleep(for: .seconds(3600))
                    return []
                }),
            ], signals: [
                DBusSignal("Pinged", [DBusArgument("text", "s")]),
            ], properties: [
                DBusProperty("Count", "i", get: { [self] in .int32(self.counter.withLock { $0 }) },
                             set: { [self] value in self.counter.withLock { $0 = (try? Int32(dbusValue: value)) ?? 0 } }),
                DBusProperty("Name", "s", get: { .string("echo") }),
            ]),
            DBusInterface("org.nook.Test.Second", methods: [
                DBusMethod("Hello", out: [DBusArgument("greeting", "s")]) { _ in [.string("hello")] },
            ]),
        ]
    }
}

extension EchoObject {
    /// `Bytes(ay) -> (u, au)`: how many bytes it read, and the lengths it skipped (over 8).
    static var bytes: DBusMethod {
        var method = DBusMethod("Bytes", in: [DBusArgument("bytes", "ay")], out: [DBusArgument("read", "u"), DBusArgument("skipped", "au")]) { call in
            guard case .array(_, let items)? = call.arguments.first else { return [] }
            return [.uint32(UInt32(items.count)), .array(element: "u", call.skippedByteArrays.map { .uint32(UInt32($0)) })]
        }
        method.maxByteArrayCount = 8
        return method
    }
}

/// Connects one connection serving `EchoObject` under a well-known name and one client.
struct EchoFixture {
    static let name = "org.nook.Test"
    let server: BusConnection
    let client: BusConnection

    /// `acceptsDescriptors`: both ends negotiate Unix descriptor passing (off by default).
    static func make(on address: String, acceptsDescriptors: Bool = false) async throws -> EchoFixture {
        let server = try await BusConnection.connect(to: .address(address), acceptsDescriptors: acceptsDescriptors)
        try await server.export(EchoObject().interfaces, at: EchoObject.path)
        try await server.requestName(name)
        let client = try await BusConnection.connect(to: .address(address), acceptsDescriptors: acceptsDescriptors)
        return EchoFixture(server: server, client: client)
    }

    func call(_ member: String, _ arguments: [DBusValue] = [], interface: String = EchoObject.interface, timeout: Duration = .seconds(25)) async throws -> [DBusValue] {
        try await client.call(destination: Self.name, path: EchoObject.path, interface: interface, member: member, arguments: arguments, timeout: timeout)
    }

    func close() async {
        await client.close()
        await server.close()
    }
}
