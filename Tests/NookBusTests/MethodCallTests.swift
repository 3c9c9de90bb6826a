import Testing
@testable import NookBus
import NookTestSupport
import Foundation

@Suite struct MethodCallTests {
    @Test func typedArgumentsAndRepliesWork() async throws {
        try await PrivateBus.with { bus in
            let fixture = try await EchoFixture.make(on: bus.address)
            #expect(try await fixture.call("Add", [.int32(40), .int32(2)]) == [.int32(42)])
            #expect(try await fixture.call("Hello", interface: "org.nook.Test.Second") == [.string("hello")])
            await fixture.close()
        }
    }

    @Test func aByteArrayOverTheMethodsBoundIsSkippedUnread() async throws {
        try await PrivateBus.with { bus in
            let fixture = try await EchoFixture.make(on: bus.address)
            let eight = DBusValue.array(element: "y", (1...8).map { .byte($0) })
            #expect(try await fixture.call("Bytes", [eight]) == [.uint32(8), .array(element: "u", [])])
            let nine = DBusValue.array(element: "y", (1...9).map { .byte($0) })
            #expect(try await fixture.call("Bytes", [nine]) == [.uint32(0), .array(element: "u", [.uint32(9)])])
            // Bytes read in one piece come back as they went.
            let all = DBusValue.array(element: "y", (0...255).map { .byte(UInt8($0)) })
            #expect(try await fixture.call("Echo", [.variant(all)]) == [.variant(all)])
            await fixture.close()
        }
    }

    @Test func workAfterTheReplyRunsBeforeTheNextMessage() async throws {
        try await PrivateBus.with { bus in
            let fixture = try await EchoFixture.make(on: bus.address)
            #expect(try await fixture.call("CountThenBump") == [.int32(0)])
            #expect(try await fixture.call("CountThenBump") == [.int32(1)])
            let count = try await fixture.call("Get", [.string(EchoObject.interface), .string("Count")], interface: "org.freedesktop.DBus.Properties")
            #expect(count == [.variant(.int32(2))])
            await fixture.close()
        }
    }

    @Test func errorsTravelWithTheirNames() async throws {
        try await PrivateBus.with { bus in
            let fixture = try await EchoFixture.make(on: bus.address)
            let thrown = await #expect(throws: DBusError.self) {
                try await fixture.call("Fail", [.string("org.nook.Nook1.Error.InvalidId"), .string("id 'a b' has a space")])
            }
            #expect(thrown == DBusError(name: "org.nook.Nook1.Error.InvalidId", message: "id 'a b' has a space"))
            await fixture.close()
        }
    }

    @Test func wrongArgumentSignatureIsRefusedNamingBoth() async throws {
        try await PrivateBus.with { bus in
            let fixture = try await EchoFixture.make(on: bus.address)
            let thrown = await #expect(throws: DBusError.self) { try await fixture.call("Add", [.string("forty")]) }
            #expect(thrown?.standardError == .invalidArgs)
            #expect(thrown?.message.contains("'ii'") == true && thrown?.message.contains("'s'") == true)
            await fixture.close()
        }
    }

    @Test func unknownMembersGetStandardErrors() async throws {
        try await PrivateBus.with { bus in
            let fixture = try await EchoFixture.make(on: bus.address)
            let method = await #expect(throws: DBusError.self) { try await fixture.call("Nope") }
            #expect(method?.standardError == .unknownMethod)
            let interface = await #expect(throws: DBusError.self) { try await fixture.call("Echo", interface: "org.nook.Missing") }
            #expect(interface?.standardError == .unknownInterface)
            let service = await #expect(throws: DBusError.self) {
                try await fixture.client.call(destination: "org.nook.Nobody", path: "/", interface: "org.nook.X", member: "Y")
            }
            #expect(service?.standardError == .serviceUnknown)
            await fixture.close()
        }
    }

    @Test func deferredHandlersReplyWhenDone() async throws {
        try await PrivateBus.with { bus in
            let fixture = try await EchoFixture.make(on: bus.address)
            async let first = fixture.call("Later", [.string("a")])
            async let second = fixture.call("Later", [.string("b")])
            #expect(try await [first, second] == [[.string("a")], [.string("b")]])
            await fixture.close()
        }
    }

    @Test func callsTimeOutWithNoReply() async throws {
        try await PrivateBus.with { bus in
            let fixture = try await EchoFixture.make(on: bus.address)
            let thrown = await #expect(throws: DBusError.self) { try await fixture.call("Never", timeout: .milliseconds(200)) }
            #expect(thrown?.standardError == .noReply || thrown?.standardError == .timeout, "got \(String(describing: thrown))")
            await fixture.close()
        }
    }

    @Test func callsAfterCloseThrowDisconnected() async throws {
        try await PrivateBus.with { bus in
            let fixture = try await EchoFixture.make(on: bus.address)
            await fixture.client.close()
            await #expect(throws: BusError.disconnected) { try await fixture.call("Add", [.int32(1), .int32(1)]) }
            await fixture.server.close()
        }
    }

    @Test func senderCredentialsAreOurUidAndPid() async throws {
        try await PrivateBus.with { bus in
            let fixture = try await EchoFixture.make(on: bus.address)
            let credentials = try await fixture.server.credentials(of: fixture.client.uniqueName)
            #expect(credentials == PeerCredentials(uid: getuid(), pid: UInt32(getpid())))
            await fixture.close()
        }
    }

    /// Code inside `perform` stays on the bus thread across a call: no hop through the pool.
    @Test func performKeepsCallersOnTheBusThread() async throws {
        try await PrivateBus.with { bus in
            let fixture = try await EchoFixture.make(on: bus.address)
            let stayed = try await fixture.client.perform { client in
                var onThread = true
                for i in Int32(0)..<20 {
                    _ = try await client.call(destination: EchoFixture.name, path: EchoObject.path, interface: EchoObject.interface,
                                              member: "Add", arguments: [.int32(i), .int32(1)])
                    onThread = onThread && client.executor.isCurrentThread
                }
                return onThread
            }
            #expect(stayed)
            await fixture.close()
        }
    }

    @Test func manyConcurrentCallersAllGetTheirOwnReplies() async throws {
        try await PrivateBus.with { bus in
            let fixture = try await EchoFixture.make(on: bus.address)
            let sums = try await withThrowingTaskGroup(of: (Int32, [DBusValue]).self) { group in
                for i in Int32(0)..<200 { group.addTask { (i, try await fixture.call("Add", [.int32(i), .int32(i)])) } }
                return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
            }
            #expect(sums.count == 200)
            #expect(sums.allSatisfy { $0.value == [.int32($0.key * 2)] })
            await fixture.close()
        }
    }
}
