import Foundation
import NookBus
import NookTestSupport
import Synchronization
import Testing

/// Image files from outside (a module's `uri`, a notification's icon, a player's cover) are
/// loaded off the GTK main thread, and only regular files are opened for reading: a FIFO as an
/// image used to block nook-renderer's main thread in open() for good. Plans come from a
/// stand-in broker this test owns `org.nook.Nook1` with, so the plan can name any file.
@Suite(.serialized)
struct ImageFileTests {
    /// A plan with the chrome at `chrome` (a `none` curve) and the given scene nodes.
    static func plan(serial: UInt64, chrome: DBusValue, nodes: [DBusValue]) -> DBusValue {
        UndrawablePlanTests.plan(serial: serial, chrome: chrome, nodes: nodes)
    }

    static func image(_ uri: String, path: String, rect: DBusValue) -> DBusValue {
        .vardict(["slot": .string("compact_leading"), "owner": .string("fake"), "path": .string(path), "kind": .string("image"),
                  "uri": .string(uri), "rect": rect])
    }

    static let green: [UInt8] = [0, 255, 0]

    /// Counts the pixels of `colour` inside `x..<x+width`, `y..<y+height`.
    static func count(_ colour: [UInt8], in shot: RGBImage, x: Int, y: Int, width: Int, height: Int) -> Int {
        var found = 0
        for row in y..<(y + height) {
            for column in x..<(x + width) where shot.pixel(x: column, y: row) == colour { found += 1 }
        }
        return found
    }

    @Test func aFIFOAsAnImageIsRefusedAndTheRendererGoesOnDrawing() async throws {
        let xvfb = try await XvfbServer.start()
        defer { xvfb.stop() }
        try await PrivateBus.with { bus in
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nook-renderer-images-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }
            // A FIFO nobody ever writes to (open() for reading waits for a writer), and a
            // green 16 x 16 PNG, a regular file that loads.
            let fifo = scratch.appendingPathComponent("cover.png").path
            #expect(mkfifo(fifo, 0o600) == 0)
            let picture = scratch.appendingPathComponent("green.png").path
            let made = try await Tools.run("convert", ["-size", "16x16", "xc:#00ff00", "PNG24:" + picture])
            #expect(made.status == 0, "\(made.stderr)")

            // The stand-in broker: Subscribe answers with the pill holding both images.
            let broker = try await BusConnection.connect(to: .address(bus.address), description: "fake-nookd")
            let subscriber = Locked<String?>(nil)
            let pill = UndrawablePlanTests.rect(656, 0, 200, 32)
            let first = Self.plan(serial: 1, chrome: pill, nodes: [
                Self.image("file://" + fifo, path: "compact_leading/0", rect: UndrawablePlanTests.rect(664, 6, 20, 20)),
                Self.image("file://" + picture, path: "compact_leading/1", rect: UndrawablePlanTests.rect(820, 6, 20, 20)),
            ])
            _ = try await broker.export([
                DBusInterface("org.nook.Nook1.Render", methods: [
                    DBusMethod("Subscribe", in: [DBusArgument("display", "a{sv}")], out: [DBusArgument("handle", "o"), DBusArgument("plan", "a{sv}")]) { call in
                        subscriber.withLock { $0 = call.sender }
                        return [.objectPath("/org/nook/Nook1/subscribers/1"), first]
                    },
                ]),
            ], at: "/org/nook/Nook1")
            try await broker.requestName("org.nook.Nook1")

            let renderer = try PackageProcess("nook-renderer", ["--address", bus.address, "--verbose"], logDirectory: scratch,
                                              environment: ["DISPLAY": xvfb.display, "WAYLAND_DISPLAY": nil, "GDK_BACKEND": "x11"])
            defer { Task { await renderer.stop() } }

            // The FIFO is refused, saying why; the PNG loads off the main thread and is drawn
            // once it has (the renderer draws again when a load finishes).
            let refused = await eventually(timeout: .seconds(120), poll: .milliseconds(50)) {
                renderer.log.contains("cannot load image 'file://\(fifo)': it is a FIFO, not a regular file")
            }
            #expect(refused, "\(renderer.log)")
            let greenDrawn = await eventually(timeout: .seconds(120), poll: .milliseconds(100)) {
                guard let shot = try? await xvfb.screenshot(rows: 40) else { return false }
                return Self.count(Self.green, in: shot, x: 818, y: 4, width: 24, height: 24) >= 300
            }
            #expect(greenDrawn, "the PNG never appeared in its place:\n\(renderer.log)")
            let unique = try #require(subscriber.withLock { $0 })

            // A later plan still reaches the screen: the chrome grows to 400 x 80, the FIFO
            // image still in it (its refusal is remembered, nothing is opened again).
            try await broker.emitSignal(path: "/org/nook/Nook1", interface: "org.nook.Nook1.Render", member: "Plan",
                                        arguments: [Self.plan(serial: 2, chrome: UndrawablePlanTests.rect(556, 0, 400, 80), nodes: [
                                            Self.image("file://" + fifo, path: "compact_leading/0", rect: UndrawablePlanTests.rect(564, 6, 20, 20)),
                                        ])],
                                        destination: unique)
            let grown = await eventually(timeout: .seconds(120), poll: .milliseconds(100)) {
                guard renderer.log.contains("frame serial=2"), let shot = try? await xvfb.screenshot(rows: 120) else { return false }
                return shot.pixel(x: 600, y: 70) == [0, 0, 0] && shot.pixel(x: 600, y: 100) != [0, 0, 0]
            }
            #expect(grown, "the plan after the FIFO was not drawn:\n\(renderer.log)")
            #expect(renderer.log.components(separatedBy: "cannot load image 'file://\(fifo)'").count == 2, "logged more than once:\n\(renderer.log)")
            #expect(renderer.isRunning)
            await renderer.stop()
            await broker.close()
        }
    }

    /// Files that are regular but not images the renderer takes: the wrong type, too large a
    /// file, too many pixels. Each is refused with its reason, and the renderer goes on.
    @Test func filesOfTheWrongTypeOrSizeAreRefusedWithTheReason() async throws {
        let xvfb = try await XvfbServer.start()
        defer { xvfb.stop() }
        try await PrivateBus.with { bus in
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nook-renderer-images-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: scratch) }
            let text = scratch.appendingPathComponent("notes.png").path
            try Data("just some words, not a picture\n".utf8).write(to: URL(fileURLWithPath: text))
            let huge = scratch.appendingPathComponent("huge.png").path
            #expect(FileManager.default.createFile(atPath: huge, contents: nil))
            #expect(truncate(huge, 17 * 1024 * 1024) == 0)
            // A PNG whose header says 20000 x 20000 (1.6 GB decoded): refused on reading the
            // header, before any pixel is decoded, so its one row of data never matters.
            let wide = scratch.appendingPathComponent("wide.png").path
            let made = try await Tools.run("/usr/bin/python3", ["-c", """
                import struct, sys, zlib
                def chunk(kind, data): return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
                header = struct.pack(">IIBBBBB", 20000, 20000, 8, 0, 0, 0, 0)
                open(sys.argv[1], "wb").write(b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", header)
                    + chunk(b"IDAT", zlib.compress(b"\\x00" * 20001)) + chunk(b"IEND", b""))
                """, wide])
            #expect(made.status == 0, "\(made.stderr)")
            let device = "/dev/zero"

            let broker = try await BusConnection.connect(to: .address(bus.address), description: "fake-nookd")
            let nodes = [text, huge, wide, device].enumerated().map { index, path in
                Self.image("file://" + path, path: "compact_leading/\(index)", rect: UndrawablePlanTests.rect(664 + Double(index) * 24, 6, 20, 20))
            }
            let first = Self.plan(serial: 1, chrome: UndrawablePlanTests.rect(656, 0, 200, 32), nodes: nodes)
            _ = try await broker.export([
                DBusInterface("org.nook.Nook1.Render", methods: [
                    DBusMethod("Subscribe", in: [DBusArgument("display", "a{sv}")], out: [DBusArgument("handle", "o"), DBusArgument("plan", "a{sv}")]) { _ in
                        [.objectPath("/org/nook/Nook1/subscribers/1"), first]
                    },
                ]),
            ], at: "/org/nook/Nook1")
            try await broker.requestName("org.nook.Nook1")
            let renderer = try PackageProcess("nook-renderer", ["--address", bus.address, "--verbose"], logDirectory: scratch,
                                              environment: ["DISPLAY": xvfb.display, "WAYLAND_DISPLAY": nil, "GDK_BACKEND": "x11"])
            defer { Task { await renderer.stop() } }
            let reasons = [
                (text, "not a PNG, JPEG, GIF, WebP or SVG image"),
                (huge, "it is 17825792 bytes, more than the 16 MiB limit"),
                (wide, "it is 20000x20000 pixels, more than 16384 on a side or 16777216 in all"),
                (device, "it is a character device, not a regular file"),
            ]
            for (path, reason) in reasons {
                #expect(await eventually(timeout: .seconds(120), poll: .milliseconds(50)) {
                    renderer.log.contains("cannot load image 'file://\(path)': \(reason)")
                }, "\(path): \(renderer.log)")
            }
            #expect(renderer.isRunning)
            await renderer.stop()
            await broker.close()
        }
    }
}
