import Testing
import NookBus
import NookTestSupport

@Suite struct PropertyTests {
    static let properties = "org.freedesktop.DBus.Properties"

    @Test func getSetAndGetAllWork() async throws {
        try await PrivateBus.with { bus in
            let fixture = try await EchoFixture.make(on: bus.address)
            #expect(try await fixture.call("Get", [.string(EchoObject.interface), .string("Count")], interface: Self.properties) == [.variant(.int32(0))])
            _ = try await fixture.call("Set", [.string(EchoObject.interface), .string("Count"), .variant(.int32(7))], interface: Self.properties)
            let all = try await fixture.call("GetAll", [.string(EchoObject.interface)], interface: Self.properties)
            #expect(try Vardict(#require(all.first)).values == ["Count": .int32(7), "Name": .string("echo")])
            await fixture.close()
        }
    }

    @Test func propertyErrorsAreSpecific() async throws {
        try await PrivateBus.with { bus in
            let fixture = try await EchoFixture.make(on: bus.address)
            let readOnly = await #expect(throws: DBusError.self) {
                try await fixture.call("Set", [.string(EchoObject.interface), .string("Name"), .variant(.string("x"))], interface: Self.properties)
            }
            #expect(readOnly?.standardError == .propertyReadOnly)
            let wrongType = await #expect(throws: DBusError.self) {
                try await fixture.call("Set", [.string(EchoObject.interface), .string("Count"), .variant(.string("x"))], interface: Self.properties)
            }
            #expect(wrongType?.standardError == .invalidArgs && wrongType?.message.contains("'i'") == true)
            let unknown = await #expect(throws: DBusError.self) {
                try await fixture.call("Get", [.string(EchoObject.interface), .string("Nope")], interface: Self.properties)
            }
            #expect(unknown?.standardError == .unknownProperty)
            await fixture.close()
        }
    }

    @Test func propertiesChangedIsEmittedOnSetAndOnRequest() async throws {
        try await PrivateBus.with { bus in
            let fixture = try await EchoFixture.make(on: bus.address)
            let rule = MatchRule(path: EchoObject.path, interface: Self.properties, member: "PropertiesChanged")
            var changes = try await fixture.client.signals(matching: rule).makeAsyncIterator()
            _ = try await fixture.call("Set", [.string(EchoObject.interface), .string("Count"), .variant(.int32(3))], interface: Self.properties)
            let first = try #require(await changes.next())
            #expect(first.arguments[0] == .string(EchoObject.interface))
            #expect(try Vardict(first.arguments[1]).values == ["Count": .int32(3)])
            try await fixture.server.emitPropertiesChanged(path: EchoObject.path, interface: EchoObject.interface, changed: ["Name": .string("echo")])
            let second = try #require(await changes.next())
            #expect(try Vardict(second.arguments[1]).values == ["Name": .string("echo")])
            await fixture.close()
        }
    }
}
