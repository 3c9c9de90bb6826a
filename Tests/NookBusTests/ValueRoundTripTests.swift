import Testing
import NookBus
import NookTestSupport
import Glibc

/// Every D-Bus type travels through a real dbus-daemon and back unchanged.
@Suite struct ValueRoundTripTests {
    static let samples: [DBusValue] = [
        .byte(0), .byte(255),
        .bool(true), .bool(false),
        .int16(.min), .uint16(.max),
        .int32(-42), .uint32(.max),
        .int64(.min), .uint64(.max),
        .double(3.25), .double(-0.0), .double(.infinity), .double(.leastNonzeroMagnitude),
        .string(""), .string("héllo, nook ✓"),
        .objectPath("/org/nook/Nook1"), .signature("a{sv}"),
        .array(element: "s", []), .array(element: "i", [.int32(1), .int32(2)]),
        .array(element: "ay", [.array(element: "y", [.byte(1), .byte(2)])]),
        .dictionary(key: "s", value: "v", []),
        .vardict(["width": .double(20), "name": .string("cover"), "nested": .vardict(["deep": .bool(true)])]),
        .dictionary(key: "u", value: "as", [.init(.uint32(7), .array(element: "s", [.string("a")]))]),
        .structure([.string("x"), .int64(5), .structure([.double(1), .double(2), .double(3), .double(4)])]),
        .variant(.variant(.int32(9))),
        .array(element: "v", [.variant(.string("a")), .variant(.uint64(1))]),
    ]

    @Test func everyTypeRoundTripsExactly() async throws {
        try await PrivateBus.with { bus in
            let fixture = try await EchoFixture.make(on: bus.address)
            for sample in Self.samples {
                let reply = try await fixture.call("Echo", [.variant(sample)])
                #expect(reply == [.variant(sample)], "round trip of \(sample.signature)")
            }
            await fixture.close()
        }
    }

    @Test func nanRoundTripsBitForBit() async throws {
        try await PrivateBus.with { bus in
            let fixture = try await EchoFixture.make(on: bus.address)
            let nan = Double(bitPattern: 0x7FF8_0000_0000_1234)
            let reply = try await fixture.call("Echo", [.variant(.double(nan))])
            guard case .variant(.double(let back)) = reply.first else { Issue.record("not a double: \(reply)"); return }
            #expect(back.bitPattern == nan.bitPattern)
            await fixture.close()
        }
    }

    @Test func unixFileDescriptorsArriveAsFreshDescriptors() async throws {
        try await PrivateBus.with { bus in
            let fixture = try await EchoFixture.make(on: bus.address, acceptsDescriptors: true)
            var fds: [Int32] = [0, 0]
            #expect(pipe(&fds) == 0)
            defer { close(fds[0]); close(fds[1]) }
            let reply = try await fixture.call("Echo", [.variant(.unixFD(fds[1]))])
            guard case .variant(.unixFD(let received)) = reply.first else { Issue.record("no fd in \(reply)"); return }
            #expect(received != fds[1])
            // Writing through the received descriptor reaches our pipe: it is the same file.
            var byte: UInt8 = 7
            #expect(write(received, &byte, 1) == 1)
            var back: UInt8 = 0
            #expect(read(fds[0], &back, 1) == 1 && back == 7)
            close(received)
            await fixture.close()
        }
    }

    /// A view node `(sa{sv}av)` whose children nest ten levels deep, as the contract carries views.
    static func viewNode(depth: Int) -> DBusValue {
        let children: [DBusValue] = depth == 0 ? [] : [.variant(viewNode(depth: depth - 1)), .variant(viewNode(depth: 0))]
        return .structure([
            .string(depth == 0 ? "text" : "vstack"),
            .vardict(["spacing": .double(Double(depth)), "shared": .vardict(["id": .string("cover"), "is_source": .bool(true)]),
                      "padding": .structure([.double(1), .double(2), .double(3), .double(4)])]),
            .array(element: "v", children),
        ])
    }

    @Test func viewNodeTenLevelsDeepRoundTrips() async throws {
        try await PrivateBus.with { bus in
            let fixture = try await EchoFixture.make(on: bus.address)
            let node = Self.viewNode(depth: 10)
            #expect(try await fixture.call("EchoNode", [node]) == [node])
            #expect(try await fixture.call("Echo", [.variant(node)]) == [.variant(node)])
            await fixture.close()
        }
    }
}
