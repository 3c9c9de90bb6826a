import Foundation
import NookBus
import NookTestSupport
import Synchronization
import Testing

/// Plans the renderer cannot draw, from a stand-in broker this test owns `org.nook.Nook1`
/// with (nookd only ever sends good plans): the renderer logs what it cannot draw, draws the
/// rest plainly, keeps the last good plan through a broken one, and goes on drawing.
@Suite
struct UndrawablePlanTests {
    static func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> DBusValue {
        .structure([.double(x), .double(y), .double(width), .double(height)])
    }

    /// A plan with the chrome still at `chrome` (a `none` curve) and the given scene nodes.
    static func plan(serial: UInt64, chrome: DBusValue, nodes: [DBusValue]) -> DBusValue {
        .vardict([
            "serial": .uint64(serial), "cause": .string("show"), "from": .string("pill"), "to": .string("pill"),
            "fresh_window": .bool(true),
            "chrome": .vardict(["from_rect": chrome, "to_rect": chrome, "from_radius": .double(12), "to_radius": .double(12),
                                "curve": .vardict(["type": .string("none")])]),
            "scene": .vardict(["presentation": .string("pill"), "nodes": .array(element: "a{sv}", nodes)]),
        ])
    }

    @Test func undrawablePartsAreLoggedAndTheRestDrawnPlainly() async throws {
        let xvfb = try await XvfbServer.start()
        defer { xvfb.stop() }
        try await PrivateBus.with { bus in
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nook-renderer-fake-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }

            // The stand-in broker: Subscribe answers with a plan holding a node of an unknown kind.
            let broker = try await BusConnection.connect(to: .address(bus.address), description: "fake-nookd")
            let subscriber = Locked<String?>(nil)
            let unknownKind = Self.plan(serial: 1, chrome: Self.rect(656, 0, 200, 32), nodes: [
                .vardict(["slot": .string("compact_leading"), "owner": .string("fake"), "path": .string("compact_leading/0"),
                          "kind": .string("hologram"), "rect": Self.rect(664, 6, 20, 20)]),
            ])
            _ = try await broker.export([
                DBusInterface("org.nook.Nook1.Render", methods: [
                    DBusMethod("Subscribe", in: [DBusArgument("display", "a{sv}")], out: [DBusArgument("handle", "o"), DBusArgument("plan", "a{sv}")]) { call in
                        subscriber.withLock { $0 = call.sender }
                        return [.objectPath("/org/nook/Nook1/subscribers/1"), unknownKind]
                    },
                ]),
            ], at: "/org/nook/Nook1")
            try await broker.requestName("org.nook.Nook1")

            let renderer = try PackageProcess("nook-renderer", ["--address", bus.address, "--verbose"], logDirectory: scratch,
                                              environment: ["DISPLAY": xvfb.display, "WAYLAND_DISPLAY": nil, "GDK_BACKEND": "x11"])
            defer { Task { await renderer.stop() } }
            let warned = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                renderer.log.contains("plan drawn plainly: compact_leading/0: unknown node kind \"hologram\"")
            }
            #expect(warned, "\(renderer.log)")
            let unique = try #require(subscriber.withLock { $0 })

            // A broken plan: the chrome's rect is not (dddd). Logged, naming the key; nothing changes.
            var broken = Self.plan(serial: 2, chrome: Self.rect(556, 0, 400, 80), nodes: [])
            if case .dictionary(let k, let v, var entries) = broken, let index = entries.firstIndex(where: { $0.key == .string("chrome") }) {
                entries[index].value = .variant(.vardict(["from_rect": .string("wide"), "to_rect": .string("wide"),
                                                          "curve": .vardict(["type": .string("none")])]))
                broken = .dictionary(key: k, value: v, entries)
            }
            try await broker.emitSignal(path: "/org/nook/Nook1", interface: "org.nook.Nook1.Render", member: "Plan",
                                        arguments: [broken], destination: unique)
            let rejected = await eventually(timeout: .seconds(60), poll: .milliseconds(50)) {
                renderer.log.contains("cannot draw plan (chrome.from_rect")
            }
            #expect(rejected, "\(renderer.log)")

            // A good plan afterwards is drawn: the chrome grows to 400 x 80. Its own unknown kind
            // is logged too (each plan's warnings, not only the first plan's).
            let sparkle = DBusValue.vardict([
                "slot": .string("expanded"), "owner": .string("fake"), "path": .string("expanded/0"),
                "kind": .string("sparkle"), "rect": Self.rect(570, 10, 20, 20),
            ])
            try await broker.emitSignal(path: "/org/nook/Nook1", interface: "org.nook.Nook1.Render", member: "Plan",
                                        arguments: [Self.plan(serial: 3, chrome: Self.rect(556, 0, 400, 80), nodes: [sparkle])],
                                        destination: unique)
            let drawn = await eventually(timeout: .seconds(60), poll: .milliseconds(100)) {
                guard renderer.log.contains("frame serial=3"), let shot = try? await xvfb.screenshot(rows: 120) else { return false }
                return shot.pixel(x: 600, y: 70) == [0, 0, 0] && shot.pixel(x: 600, y: 100) != [0, 0, 0]
            }
            #expect(drawn, "the good plan after the broken one was not drawn:\n\(renderer.log)")
            #expect(renderer.log.contains("plan drawn plainly: expanded/0: unknown node kind \"sparkle\""), "\(renderer.log)")
            #expect(renderer.isRunning)
            await renderer.stop()
            await broker.close()
        }
    }
}

extension RGBImage {
    func pixel(x: Int, y: Int) -> [UInt8] {
        let offset = (y * width + x) * 3
        return Array(bytes[offset..<offset + 3])
    }
}
