import Testing
import NookBus
import NookTestSupport
import Foundation

/// Tools nobody here wrote talk to an object NookBus exports.
@Suite struct InteropTests {
    @Test func busctlCallsAndIntrospects() async throws {
        try await PrivateBus.with { bus in
            let fixture = try await EchoFixture.make(on: bus.address)
            let call = try await Tools.run("busctl", ["--address=\(bus.address)", "call", EchoFixture.name, EchoObject.path.rawValue,
                                                      EchoObject.interface, "Add", "ii", "40", "2"])
            #expect(call.status == 0, "\(call.stderr)")
            #expect(call.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "i 42")
            let introspect = try await Tools.run("busctl", ["--address=\(bus.address)", "introspect", "--xml-interface",
                                                            EchoFixture.name, EchoObject.path.rawValue])
            #expect(introspect.status == 0, "\(introspect.stderr)")
            #expect(introspect.stdout.contains("<method name=\"EchoNode\">"))
            #expect(introspect.stdout.contains("<arg name=\"node\" type=\"(sa{sv}av)\" direction=\"in\"/>"))
            let table = try await Tools.run("busctl", ["--address=\(bus.address)", "introspect", EchoFixture.name, EchoObject.path.rawValue])
            #expect(table.status == 0, "\(table.stderr)")
            #expect(table.stdout.contains(".Count") && table.stdout.contains("emits-change writable"))
            let property = try await Tools.run("busctl", ["--address=\(bus.address)", "get-property", EchoFixture.name,
                                                          EchoObject.path.rawValue, EchoObject.interface, "Name"])
            #expect(property.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "s \"echo\"")
            await fixture.close()
        }
    }

    @Test func gdbusCallsIntrospectsAndPings() async throws {
        try await PrivateBus.with { bus in
            let fixture = try await EchoFixture.make(on: bus.address)
            let call = try await Tools.run("gdbus", ["call", "--address", bus.address, "--dest", EchoFixture.name,
                                                     "--object-path", EchoObject.path.rawValue, "--method", "\(EchoObject.interface).Add", "40", "2"])
            #expect(call.status == 0, "\(call.stderr)")
            #expect(call.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "(42,)")
            let introspect = try await Tools.run("gdbus", ["introspect", "--address", bus.address, "--dest", EchoFixture.name,
                                                           "--object-path", EchoObject.path.rawValue])
            #expect(introspect.status == 0, "\(introspect.stderr)")
            #expect(introspect.stdout.contains("interface org.nook.Test.Second"))
            #expect(introspect.stdout.contains("readwrite i Count"))
            let failure = try await Tools.run("gdbus", ["call", "--address", bus.address, "--dest", EchoFixture.name,
                                                        "--object-path", EchoObject.path.rawValue, "--method", "\(EchoObject.interface).Fail",
                                                        "org.nook.Nook1.Error.InvalidId", "bad id"])
            #expect(failure.status != 0)
            #expect(failure.stderr.contains("org.nook.Nook1.Error.InvalidId"))
            let ping = try await Tools.run("gdbus", ["call", "--address", bus.address, "--dest", EchoFixture.name,
                                                     "--object-path", EchoObject.path.rawValue, "--method", "org.freedesktop.DBus.Peer.Ping"])
            #expect(ping.status == 0, "\(ping.stderr)")
            await fixture.close()
        }
    }
}
