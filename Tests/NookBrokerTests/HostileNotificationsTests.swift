import Foundation
import NookBus
import NookCore
import NookNotifications
import NookTestSupport
import Testing

/// Issue 40, part 6: hostile input to nook-notifications, sent by python-dbus (and
/// `notify-send`) to the real bridge and nookd on a private bus. Each test sends what a
/// broken or malicious client would, then checks the documented treatment (docs/
/// notifications.md, "Limits"), that the bridge still answers `GetServerInformation`, and
/// that its peak RSS grew by a bounded amount (skipped under sanitizers,
/// `Hostile.measuresMemoryGrowth`).
@Suite(.serialized) struct HostileNotificationsTests {
    typealias Fixture = NotificationsBridgeTests.Fixture

    /// `GetServerInformation` from a fresh call: the bridge's bus thread is not stuck.
    static func answers(_ nook: Fixture) async -> Bool {
        let reply = try? await nook.observer.connection.call(
            destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications", interface: "org.freedesktop.Notifications",
            member: "GetServerInformation", arguments: [], timeout: TestDeadlines.scaled(.seconds(20)))
        return reply?.count == 4 && reply?.first == .string("Nook")
    }

    static func peak(_ nook: Fixture) throws -> Int { try NotificationsBridgeTests.peakMemory(nook.bridge.pid) }

    static func open(_ nook: Fixture, _ id: Int) async throws {
        _ = try await nook.observer.call("Open", [WireCodec.vardict(["module": .string("notifications"), "activity": .string("n\(id)")])],
                                         interface: "org.nook.Nook1.Control")
    }

    /// Opens notification `id` until `shown` holds: a peek the bridge asks for just after the
    /// `Open` may take the nook over within the same frame, and the renderer never gets the
    /// expanded view (plans collapse per frame), so the `Open` is sent again.
    static func open(_ nook: Fixture, _ id: Int, until shown: @escaping @Sendable () -> Bool) async -> Bool {
        await eventually {
            if shown() { return true }
            try? await open(nook, id)
            return shown()
        }
    }

    /// The rule: an `image-data` whose fields do not agree (width, height, rowstride, channels,
    /// bits or the pixels' length) is refused with the reason logged, the notification is shown
    /// without it, and no PNG is written.
    @Test func aLyingImageDataIsRefusedAndTheNotificationShownWithoutIt() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nook = try await Fixture.start(bus, temp)
            let posted = try await nook.python("""
                def image(w, h, stride, alpha, bits, channels, size):
                    return dbus.Struct((w, h, stride, alpha, bits, channels, dbus.ByteArray(b"\\x80" * size)), signature="iiibiiay")
                cases = [
                    image(64, 64, 256, True, 8, 4, 100),                  # far fewer bytes than 64x64 needs
                    image(64, 64, 10, True, 8, 4, 64 * 64 * 4),           # a rowstride shorter than a row
                    image(64, 64, 2**31 - 1, True, 8, 4, 64 * 64 * 4),    # a rowstride past any buffer
                    image(-64, 64, 256, True, 8, 4, 64 * 64 * 4),         # a negative width
                    image(0, 0, 0, True, 8, 4, 0),                        # no pixels at all
                    image(64, 64, 256, False, 8, 4, 64 * 64 * 4),         # 4 channels, no alpha
                    image(64, 64, 512, True, 16, 4, 64 * 64 * 8),         # 16 bits a sample
                    image(64, 64, 320, True, 8, 5, 64 * 64 * 5),          # 5 channels
                    image(1, 512, 4, True, 8, 4, 4),                      # a height its bytes do not hold
                    dbus.Struct((64, 64, 256, True, 8, 4, "pixels"), signature="iiibiis"),  # pixels that are not bytes
                ]
                for data in cases: print(notifications.Notify("Liar", 0, "", "lying image", "", [], {"image-data": data}, 0))
                """)
            #expect(posted.stdout == (1...10).map { "\($0)\n" }.joined(), "\(posted.stdout) \(posted.stderr)")
            #expect(await Self.answers(nook), "\(nook.bridge.log)")
            for reason in [
                "image-data: 100 bytes, 64x64 needs 16384",
                "image-data: rowstride 10 for rows of 256 bytes",
                "image-data: rowstride 2147483647 for rows of 256 bytes",
                "image-data: -64x64 is outside 1...512",
                "image-data: 0x0 is outside 1...512",
                "image-data: 4 channels with has_alpha false",
                "image-data: bits_per_sample 16, only 8 is read",
                "image-data: 5 channels with has_alpha true",
                "image-data: 4 bytes, 1x512 needs 2048",
                "image-data: pixels are not 'ay'",
            ] {
                #expect(await eventually { nook.bridge.log.contains(reason) }, "\(reason) not in \(nook.bridge.log)")
            }
            #expect(await eventually { (try? await nook.observer.activities())?.count == 10 }, "\(nook.bridge.log)")
            // Shown without an image: no PNG written, no node naming one.
            let images = (try? FileManager.default.contentsOfDirectory(atPath: temp.url.path).filter { $0.hasPrefix("nook-notifications-") }) ?? []
            for directory in images {
                let files = (try? FileManager.default.contentsOfDirectory(atPath: temp.url.appendingPathComponent(directory).path)) ?? []
                #expect(files.isEmpty, "\(files)")
            }
            let uris = (1...10).flatMap { nook.scenes.nodes(owner: "notifications/n\($0)").compactMap { $0["uri"] } }
            #expect(!uris.contains { if case .string(let uri) = $0 { uri.hasSuffix(".png") } else { false } }, "\(uris)")
            #expect(nook.bridge.isRunning)
            await nook.stop()
        }
    }

    /// The rule: a 10 MB body (D-Bus carries it: a message may be 128 MiB) is read to 64 KiB
    /// and cut to 1024 bytes; ten in a row leave the bridge answering, and its peak RSS grows
    /// by the messages in flight (two at most: the next is read while the last is handled, each
    /// its 10 MiB of bytes and 10 MiB of text), not by ten bodies kept (200 MiB).
    @Test func tenMegabyteBodiesAreCutAndMemoryStaysBounded() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nook = try await Fixture.start(bus, temp)
            let before = try Self.peak(nook)
            let posted = try await nook.python("""
                body = "x" * (10 * 1024 * 1024)
                for n in range(10): print(notifications.Notify("Big", 0, "", "Huge body %d" % n, body, [], {}, 0, timeout=\(25 * TestDeadlines.scale)))
                """)
            #expect(posted.stdout == (1...10).map { "\($0)\n" }.joined(), "\(posted.stdout) \(posted.stderr)")
            #expect(await Self.answers(nook), "\(nook.bridge.log)")
            #expect(await eventually { (try? await nook.observer.activities())?.count == 10 }, "\(nook.bridge.log)")
            #expect(nook.bridge.log.contains("body of 10485760 bytes cut to 1024"), "\(nook.bridge.log.suffix(2000))")
            // The expanded view's body: 1021 bytes of it and `…`.
            #expect(await Self.open(nook, 10) { nook.texts(10).contains { $0.hasPrefix("xxxx") && $0.utf8.count == 1024 } }, "\(nook.texts(10))")
            let longest = (1...10).flatMap { nook.texts($0) }.map(\.utf8.count).max() ?? 0
            #expect(longest <= 1024, "a text of \(longest) bytes")
            let grown = try Self.peak(nook) - before
            print("bridge peak RSS grew by \(grown / 1024) KiB for ten 10 MiB bodies")
            #expect(grown < 64 * 1024 * 1024 || !Hostile.measuresMemoryGrowth, "peak RSS grew by \(grown / 1024) KiB")
            #expect(nook.bridge.isRunning)
            await nook.stop()
        }
    }

    /// The rule: 10,000 actions keep 8 buttons, and markup 10,000 tags deep is read as text
    /// (the tags dropped, their text kept) in bounded work; repeated, neither grows the bridge.
    @Test func tenThousandActionsAndTenThousandNestedTagsAreBounded() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nook = try await Fixture.start(bus, temp)
            let script = """
                import time
                actions = []
                for i in range(10000): actions += ["a%d" % i, "Action %d " % i + "y" * 100]
                deep = "<b>" * 10000 + "deep" + "</b>" * 10000
                mixed = "<i><u><a href='x'>" * 3334 + "mixed" + "</a></u></i>" * 3334
                unclosed = "<b>" * 10000 + "unclosed"
                began = time.monotonic()
                print(notifications.Notify("Many", 0, "", "Many actions", "c", actions, {}, 0))
                print(notifications.Notify("Deep", 0, "", "Deep", deep, [], {}, 0))
                print(notifications.Notify("Deep", 0, "", "Mixed", mixed, [], {}, 0))
                print(notifications.Notify("Deep", 0, "", "Unclosed", unclosed, [], {}, 0))
                print(notifications.Notify("Deep", 0, "", deep, "summary", [], {}, 0))
                print("took", time.monotonic() - began)
                """
            let first = try await nook.python(script)
            #expect(first.stdout.hasPrefix("1\n2\n3\n4\n5\ntook "), "\(first.stdout) \(first.stderr)")
            #expect(await Self.answers(nook), "\(nook.bridge.log)")
            #expect(await eventually { (try? await nook.observer.activities())?.count == 5 }, "\(nook.bridge.log)")
            #expect(nook.bridge.log.contains("10000 actions, the first 8 kept"), "\(nook.bridge.log)")
            let actions: @Sendable () -> Set<DBusValue> = { Set(nook.scenes.nodes(owner: "notifications/n1").compactMap { $0["action"] }) }
            #expect(await Self.open(nook, 1) { actions().count == 8 }, "\(actions())")
            // The tags' text; "mixed" is followed by the start of a closing tag the 64 KiB read
            // cut in two, kept as text as any `<` without its `>` is.
            for (id, text) in [(2, "deep"), (3, "mixed"), (4, "unclosed")] {
                #expect(await Self.open(nook, id) { nook.texts(id).contains { $0 == text || $0.hasPrefix(text + "</") } }, "n\(id): \(nook.texts(id))")
            }
            // A summary of deep markup is cut to 256 bytes.
            let summary = nook.texts(5).map(\.utf8.count).max() ?? 0
            #expect(summary <= 256, "\(summary)")

            // The same again, three times: the peak stays where the first round left it.
            let warm = try Self.peak(nook)
            for _ in 0..<3 {
                let again = try await nook.python(script)
                #expect(again.status == 0, "\(again.stderr)")
            }
            #expect(await Self.answers(nook), "\(nook.bridge.log)")
            let grown = try Self.peak(nook) - warm
            print("bridge peak RSS grew by \(grown / 1024) KiB over three more rounds of 10,000 actions and deep markup")
            #expect(grown < 16 * 1024 * 1024 || !Hostile.measuresMemoryGrowth, "peak RSS grew by \(grown / 1024) KiB")
            #expect(!nook.nookd.log.contains("InvalidView"), "\(nook.nookd.log.suffix(2000))")
            #expect(nook.bridge.isRunning)
            await nook.stop()
        }
    }

    /// The rule: an `image-path` or `app_icon` naming a device (`/dev/zero`, which never ends),
    /// a FIFO (which blocks whoever opens it), a directory or a huge file (20 GiB, sparse) is
    /// never passed on: the bridge only calls `stat`, logs why, shows the notification without
    /// it, and answers the next call at once.
    @Test func anImagePathToADeviceAFIFOOrAHugeFileIsNeverOpened() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nook = try await Fixture.start(bus, temp)
            let fifo = temp.url.appendingPathComponent("pipe.png").path
            #expect(mkfifo(fifo, 0o600) == 0)
            let huge = temp.url.appendingPathComponent("huge.png")
            try Hostile.sparseFile(huge, bytes: 20 << 30)
            let cases: [(path: String, reason: String)] = [
                ("/dev/zero", "is a character device, not a regular file"),
                (fifo, "is a FIFO, not a regular file"),
                (temp.url.path, "is a directory, not a regular file"),
                (huge.path, "is \(Int64(20) << 30) bytes, more than the 16777216 bytes read"),
            ]
            let calls = cases.map { path, _ in
                "print(notifications.Notify(\"Odd\", 0, \(pythonString(path)), \"odd file\", \"b\", [], {\"image-path\": \(pythonString("file://" + path))}, 0))"
            }.joined(separator: "\n")
            let posted = try await nook.python(calls)
            #expect(posted.stdout == "1\n2\n3\n4\n", "\(posted.stdout) \(posted.stderr)")
            // notify-send (libnotify) with /dev/zero as its icon.
            let sent = try await nook.notifySend(["-p", "-t", "0", "-i", "/dev/zero", "Device icon", "hi"])
            #expect(sent.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "5", "\(sent.stdout) \(sent.stderr)")
            #expect(await Self.answers(nook), "\(nook.bridge.log)")
            for (index, (path, reason)) in cases.enumerated() {
                for hint in ["app_icon", "image-path"] {
                    let line = "notification \(index + 1): \(hint) '\(path)' \(reason); shown without it"
                    #expect(await eventually { nook.bridge.log.contains(line) }, "\(line) not in \(nook.bridge.log)")
                }
            }
            // (libnotify passes the icon on as app_icon or as a hint: either is refused.)
            #expect(await eventually {
                nook.bridge.log.split(separator: "\n").contains { $0.contains("notification 5: ") && $0.contains("'/dev/zero' is a character device") }
            }, "\(nook.bridge.log)")
            #expect(await eventually { (try? await nook.observer.activities())?.count == 5 }, "\(nook.bridge.log)")
            // No node anywhere names them; each shows the default icon.
            for id in 1...5 {
                #expect(await eventually { nook.scenes.nodes(owner: "notifications/n\(id)").contains { $0["uri"] == .string("dialog-information-symbolic") } },
                        "n\(id): \(nook.scenes.nodes(owner: "notifications/n\(id)"))")
            }
            let uris = (1...5).flatMap { nook.scenes.nodes(owner: "notifications/n\($0)").compactMap { $0["uri"] } }
            for (path, _) in cases { #expect(!uris.contains(.string("file://" + path)), "\(path): \(uris)") }
            #expect(!uris.contains(.string("file:///dev/zero")))
            #expect(nook.bridge.isRunning)
            await nook.stop()
        }
    }
}
