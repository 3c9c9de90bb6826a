import Foundation
import NookBus
import NookCore
import NookNotifications
import NookTestSupport
import Synchronization
import Testing

/// nook-notifications against the real nookd on a private bus, driven by clients nobody here
/// wrote: Debian's `notify-send` (libnotify) and python-dbus. A subscribed renderer
/// connection must get the plans; `nookctl press` presses the controls.
@Suite(.serialized) struct NotificationsBridgeTests {
    static let display = PythonExamplesTests.display

    /// The bridge, nookd, a renderer that keeps scenes and a watcher of the spec's signals.
    struct Fixture {
        let bus: PrivateBus
        let temp: TemporaryDirectory
        let nookd: NookdProcess
        let bridge: PackageProcess
        let scenes: SceneNodes
        let observer: BrokerClient
        let signals: NotificationSignals

        static func start(_ bus: PrivateBus, _ temp: TemporaryDirectory, bridgeArguments: [String] = []) async throws -> Fixture {
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let scenes = try await SceneNodes.subscribe(bus, display: NotificationsBridgeTests.display)
            let observer = try await BrokerClient.connect(bus)
            let signals = try await NotificationSignals.watch(bus)
            let bridge = try await startBridge(bus, temp, bridgeArguments)
            return Fixture(bus: bus, temp: temp, nookd: nookd, bridge: bridge, scenes: scenes, observer: observer, signals: signals)
        }

        /// The bridge's state directory (its history): in the test's directory, never the user's.
        static func bridgeState(_ temp: TemporaryDirectory) -> URL { temp.url.appendingPathComponent("bridge-state/nook") }

        /// Starts nook-notifications and waits until it serves.
        static func startBridge(_ bus: PrivateBus, _ temp: TemporaryDirectory, _ arguments: [String] = []) async throws -> PackageProcess {
            let bridge = try PackageProcess("nook-notifications", ["--address", bus.address, "--state-dir", bridgeState(temp).path] + arguments,
                                            logDirectory: temp.url,
                                            // The test's own rules file (none unless a test writes it), never the user's.
                                            environment: ["XDG_RUNTIME_DIR": temp.url.path, "XDG_CONFIG_HOME": temp.url.appendingPathComponent("config").path])
            let up = await eventually { bridge.log.contains("serving org.freedesktop.Notifications") || !bridge.isRunning }
            guard up, bridge.isRunning else { throw TestSupportError("nook-notifications did not start: \(bridge.log)") }
            return bridge
        }

        var environment: [String: String] {
            var environment = ProcessInfo.processInfo.environment
            environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
            return environment
        }

        func notifySend(_ arguments: [String]) async throws -> Tools.Result {
            try await Tools.run("notify-send", arguments, environment: environment)
        }

        /// Runs a python-dbus script; `notifications` is the server's interface in it.
        func python(_ body: String) async throws -> Tools.Result {
            let script = """
                import dbus
                bus = dbus.bus.BusConnection(\(pythonString(bus.address)))
                notifications = dbus.Interface(bus.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications"),
                                               "org.freedesktop.Notifications")
                \(body)
                """
            return try await Tools.run("/usr/bin/python3", ["-c", script])
        }

        /// Every `text` of the scenes' nodes of notification `id`.
        func texts(_ id: Int) -> [String] {
            scenes.nodes(owner: "notifications/n\(id)").compactMap { if case .string(let text)? = $0["text"] { text } else { nil } }
        }

        func stop() async {
            #expect(await bridge.stop(SIGTERM) == 0, "\(bridge.log)")
            await scenes.close()
            await observer.close()
            await signals.close()
            await nookd.stop()
        }
    }

    @Test func notifySendPostsAndReplacesInPlace() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nook = try await Fixture.start(bus, temp)
            // `-t 0`: never expires, so a loaded machine cannot let it lapse (10 s by default)
            // before the `-r` below, which would then post a new notification.
            let posted = try await nook.notifySend(["-p", "-t", "0", "-a", "Builder", "Build done", "All <b>42</b> tests &amp; lints passed"])
            #expect(posted.status == 0, "\(posted.stderr)")
            #expect(posted.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
            // The pill's summary, and the peek's body: its markup drawn as runs, their text the
            // body's with the markup taken out.
            #expect(await eventually { nook.texts(1).contains("Build done") }, "\(nook.texts(1))\n\(nook.bridge.log)")
            #expect(await eventually { nook.texts(1).joined().contains("All 42 tests & lints passed") }, "\(nook.texts(1))")
            #expect(try await nook.observer.activities() == ["notifications/n1"])

            // -r: the same activity, new content (from the same app: docs/security.md).
            let replaced = try await nook.notifySend(["-p", "-t", "0", "-a", "Builder", "-r", "1", "Build failed", "1 test failed"])
            #expect(replaced.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
            #expect(await eventually { nook.texts(1).contains("Build failed") }, "\(nook.texts(1))")
            #expect(try await nook.observer.activities() == ["notifications/n1"])
            #expect(nook.scenes.causes.contains("activity_updated"), "\(nook.scenes.causes)")

            // CloseNotification, from the connection that sent the notification last: the
            // activity ends and NotificationClosed says reason 3.
            _ = try await nook.python("""
                notifications.Notify("Builder", 1, "", "Build failed", "closing", [], {}, 0)
                notifications.CloseNotification(dbus.UInt32(1))
                """)
            #expect(await eventually { nook.signals.closed.contains(Closed(id: 1, reason: 3)) }, "\(nook.signals.closed)")
            #expect(await eventually { (try? await nook.observer.activities()) == [] })
            #expect(!nook.nookd.log.contains("InvalidView"))
            await nook.stop()
        }
    }

    @Test func closeNotificationOfAnIdNotLiveRepliesTheSpecsEmptyError() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nook = try await Fixture.start(bus, temp)
            // Spec 1.2, CloseNotification: "If the notification no longer exists, an empty
            // D-BUS Error message is sent back." The first close works; the second, and an id
            // never handed out, get the error and no NotificationClosed.
            let closes = try await nook.python("""
                print(notifications.Notify("Clock", 0, "", "Tea", "ready", [], {}, 0))
                def close(id):
                    try:
                        notifications.CloseNotification(dbus.UInt32(id))
                        print("closed", id)
                    except dbus.exceptions.DBusException as error:
                        print("error", id, error.get_dbus_name(), repr(error.get_dbus_message()))
                close(1)
                close(1)
                close(4242)
                close(0)
                """)
            #expect(closes.stdout == """
                1
                closed 1
                error 1 org.freedesktop.DBus.Error.InvalidArgs ''
                error 4242 org.freedesktop.DBus.Error.InvalidArgs ''
                error 0 org.freedesktop.DBus.Error.InvalidArgs ''

                """, "\(closes.stdout) \(closes.stderr)")
            #expect(await eventually { nook.signals.closed == [Closed(id: 1, reason: 3)] }, "\(nook.signals.closed)")
            #expect(await eventually { (try? await nook.observer.activities()) == [] })
            // The bridge still serves: the next Notify gets the next id.
            let next = try await nook.notifySend(["-p", "-t", "0", "After", "the errors"])
            #expect(next.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2", "\(next.stderr)")
            #expect(nook.signals.closed == [Closed(id: 1, reason: 3)])
            await nook.stop()
        }
    }

    @Test func anActionPressedThroughNookctlReachesNotifySendWait() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nook = try await Fixture.start(bus, temp)
            // `-t 0`: it must not lapse (10 s by default) before the press on a loaded machine.
            async let waiting = nook.notifySend(["-t", "0", "--action=ok=OK", "--action=later=Later", "--wait", "Update ready", "Restart now?"])
            #expect(await eventually { (try? await nook.observer.activities()) == ["notifications/n1"] }, "\(nook.bridge.log)")
            let nookctl = try PackageProcess.executable("nookctl").path
            let press = try await Tools.run(nookctl, ["--address", bus.address, "press", "notifications/n1", "ok"])
            #expect(press.status == 0, "\(press.stderr)")
            let result = try await waiting
            #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "ok", "\(result.stdout) \(result.stderr)")
            // ActionInvoked, then NotificationClosed reason 2 (not resident), and the activity is gone.
            #expect(nook.signals.invoked.contains(Invoked(id: 1, key: "ok")), "\(nook.signals.invoked)")
            #expect(await eventually { nook.signals.closed.contains(Closed(id: 1, reason: 2)) }, "\(nook.signals.closed)")
            // ActivationToken is declared (spec 1.2) but never sent: no token reaches the
            // bridge with a press (docs/notifications.md); a made-up one would be refused.
            #expect(nook.signals.tokens.isEmpty, "\(nook.signals.tokens)")
            let introspected = try await nook.python("print(bus.get_object('org.freedesktop.Notifications', '/org/freedesktop/Notifications').Introspect(dbus_interface='org.freedesktop.DBus.Introspectable'))")
            #expect(introspected.stdout.contains("<signal name=\"ActivationToken\">"), "\(introspected.stdout) \(introspected.stderr)")
            #expect(await eventually { (try? await nook.observer.activities()) == [] })
            await nook.stop()
        }
    }

    /// A client may answer `ActionInvoked` at once with `CloseNotification` (libnotify's
    /// `notify-send --wait` does): the press has already ended the notification, so it is
    /// closed once, reason 2 (dismissed by the user), never reason 3 (closed by a call).
    /// Seen once in a loaded full run before the fix: `notify-send --wait` got reason 3.
    @Test func aCloseAnsweringActionInvokedFindsItAlreadyDismissed() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nook = try await Fixture.start(bus, temp)
            let presses = 12
            let client = try LineProcess(python: """
                import dbus, sys
                from dbus.mainloop.glib import DBusGMainLoop
                from gi.repository import GLib
                DBusGMainLoop(set_as_default=True)
                bus = dbus.bus.BusConnection(\(pythonString(bus.address)))
                notifications = dbus.Interface(bus.get_object("org.freedesktop.Notifications", "/org/freedesktop/Notifications"),
                                               "org.freedesktop.Notifications")
                def invoked(id, key):
                    notifications.CloseNotification(id, reply_handler=lambda: None, error_handler=lambda e: None)
                bus.add_signal_receiver(invoked, signal_name="ActionInvoked", dbus_interface="org.freedesktop.Notifications")
                ids = [int(notifications.Notify("Updater", 0, "", "Update %d" % n, "Restart?", ["ok", "OK"], {}, 0)) for n in range(\(presses))]
                print("posted", " ".join(map(str, ids)), flush=True)
                GLib.MainLoop().run()
                """)
            defer { client.stop() }
            let posted = try #require(await client.line(startingWith: "posted")).split(separator: " ").dropFirst().compactMap { UInt32($0) }
            #expect(posted.count == presses)
            #expect(await eventually(timeout: .seconds(60)) { (try? await nook.observer.activities())?.count == presses }, "\(nook.bridge.log)")
            let nookctl = try PackageProcess.executable("nookctl").path
            for id in posted {
                let press = try await Tools.run(nookctl, ["--address", bus.address, "press", "notifications/n\(id)", "ok"])
                #expect(press.status == 0, "\(press.stderr)")
            }
            #expect(await eventually(timeout: .seconds(60)) { nook.signals.closed.count >= presses }, "\(nook.signals.closed)")
            #expect(Set(nook.signals.closed) == Set(posted.map { Closed(id: $0, reason: 2) }), "\(nook.signals.closed)")
            #expect(nook.signals.closed.count == presses, "closed twice: \(nook.signals.closed)")
            #expect(await eventually { (try? await nook.observer.activities()) == [] })
            await nook.stop()
        }
    }

    @Test func pythonDbusHintsMapToProgressUrgencyAndImage() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nook = try await Fixture.start(bus, temp, bridgeArguments: ["--default-timeout", "1"])
            let picture = temp.url.appendingPathComponent("picture.png").path
            try Data(try RawImage(width: 2, height: 2, rowstride: 6, hasAlpha: false, bitsPerSample: 8, channels: 3, pixels: [UInt8](repeating: 200, count: 12)).png)
                .write(to: URL(fileURLWithPath: picture))
            let posted = try await nook.python("""
                print(notifications.Notify("Copier", 0, "", "Copying", "42 of 100 files", [],
                      {"value": 42, "urgency": dbus.Byte(2), "image-path": \(pythonString(picture))}, -1))
                print(notifications.Notify("Chat", 0, "", "Quiet", "low urgency", [], {"urgency": dbus.Byte(0)}, 0))
                print(notifications.Notify("Mail", 0, "", "New mail", "normal urgency", [], {}, -1))
                """)
            #expect(posted.stdout == "1\n2\n3\n", "\(posted.stderr)")
            // Timeout -1 with a default of 1 s: the normal one expires (reason 1); the critical
            // one never does, the low one has timeout 0. Critical sorts first.
            #expect(await eventually { nook.signals.closed.contains(Closed(id: 3, reason: 1)) }, "\(nook.signals.closed)")
            #expect(try await nook.observer.activities() == ["notifications/n1", "notifications/n2"])
            // The image-path is a readable file: the expanded view draws it.
            // value 42 -> a progress node at 0.42 in the expanded view (the peek may be overtaken by the next one's).
            let progress: @Sendable () -> [DBusValue] = {
                nook.scenes.nodes(owner: "notifications/n1").filter { $0["kind"] == .string("progress") }.compactMap { $0["value"] }
            }
            let uris: @Sendable () -> [DBusValue] = { nook.scenes.nodes(owner: "notifications/n1").compactMap { $0["uri"] } }
            // Opened until drawn: the burst's peek may follow the Open within a frame.
            #expect(await HostileNotificationsTests.open(nook, 1) { uris().contains(.string("file://" + picture)) }, "\(uris())")
            #expect(await eventually { progress().contains(.double(0.42)) }, "\(progress())\n\(nook.bridge.log)")
            #expect(nook.signals.closed == [Closed(id: 3, reason: 1)])
            // The low one never peeked: no scene had its peek slot.
            #expect(!nook.scenes.nodes(owner: "notifications/n2").contains { $0["slot"] == .string("peek") })
            await nook.stop()
        }
    }

    @Test func badInputIsBoundedAndTheBridgeStaysUp() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nook = try await Fixture.start(bus, temp)
            let posted = try await nook.python("""
                print(notifications.Notify("Big", 0, "", "Huge body", "x" * (1024 * 1024), [], {}, 0))
                print(notifications.Notify("Broken", 0, "", "Broken markup", "a <b>bold & <i unclosed &bogus; <", [], {}, 0))
                print(notifications.Notify("Gone", 0, "/nonexistent/icon.png", "No image", "b", [], {"image-path": "/nonexistent/x.png"}, 0))
                actions = []
                for i in range(10000): actions += ["a%d" % i, "Action %d" % i]
                print(notifications.Notify("Many", 0, "", "Many actions", "c", actions, {}, 0))
                print(notifications.Notify("Pixels", 0, "", "Bad pixels", "d", [],
                      {"image-data": dbus.Struct((100000, 100000, 400000, True, 8, 4, dbus.ByteArray(b"1234")), signature="iiibiiay")}, 0))
                print(notifications.GetServerInformation()[3])
                """)
            #expect(posted.status == 0, "\(posted.stderr)")
            #expect(posted.stdout == "1\n2\n3\n4\n5\n1.2\n", "\(posted.stdout) \(posted.stderr)")
            #expect(await eventually { (try? await nook.observer.activities())?.count == 5 }, "\(nook.bridge.log)")
            // Every text the nook got is within the documented bounds.
            let longest = (1...5).flatMap { nook.texts($0) }.map(\.utf8.count).max() ?? 0
            #expect(longest <= 1024, "a text of \(longest) bytes")
            // The expanded view draws the markup: the broken rest stays text, in the bold run. Opened
            // until drawn: the burst's one peek (at n5) may follow the Open within a frame.
            #expect(await HostileNotificationsTests.open(nook, 2) { nook.texts(2).contains(" bold & <i unclosed &bogus; <") }, "\(nook.texts(2))")
            // The 10,000 actions: 8 buttons in the expanded view.
            let actions: @Sendable () -> Set<DBusValue> = { Set(nook.scenes.nodes(owner: "notifications/n4").compactMap { $0["action"] }) }
            #expect(await HostileNotificationsTests.open(nook, 4) { actions().count == 8 }, "\(actions())")
            #expect(nook.bridge.log.contains("10000 actions, the first 8 kept"), "\(nook.bridge.log)")
            #expect(nook.bridge.log.contains("image-path '/nonexistent/x.png' does not exist"), "\(nook.bridge.log)")
            #expect(nook.bridge.log.contains("image-data: 100000x100000 is outside 1...512"))
            #expect(nook.bridge.isRunning)
            #expect(!nook.nookd.log.contains("InvalidView"), "\(nook.nookd.log.suffix(2000))")
            await nook.stop()
        }
    }

    /// Issue 38, finding 8: a FIFO as the app icon (`notify-send -i FIFO`) or the image-path is
    /// never passed to the renderer, which would block opening it; the bridge says why, shows the
    /// notification without it, and serves the next one.
    @Test func aFIFOAsIconOrImageIsRefusedAndTheNextNotificationIsServed() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nook = try await Fixture.start(bus, temp)
            let fifo = temp.url.appendingPathComponent("icon.png").path
            #expect(mkfifo(fifo, 0o600) == 0)
            let icon = try await nook.notifySend(["-p", "-t", "0", "-i", fifo, "FIFO icon", "hi"])
            #expect(icon.status == 0 && icon.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(icon.stdout) \(icon.stderr)")
            let image = try await nook.python("""
                print(notifications.Notify("Pipe", 0, \(pythonString(fifo)), "FIFO image", "b", [], {"image-path": \(pythonString(fifo))}, 0))
                """)
            #expect(image.stdout == "2\n", "\(image.stdout) \(image.stderr)")
            let next = try await nook.notifySend(["-p", "-t", "0", "After", "still served"])
            #expect(next.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "3", "\(next.stdout) \(next.stderr)")
            #expect(await eventually { nook.texts(3).contains("After") }, "\(nook.texts(3))\n\(nook.bridge.log)")
            #expect(await eventually { (try? await nook.observer.activities())?.count == 3 }, "\(nook.bridge.log)")

            // Each refusal names the notification, the hint and why.
            let refusals = nook.bridge.log.split(separator: "\n").filter { $0.contains("'\(fifo)' is a FIFO, not a regular file; shown without it") }
            #expect(refusals.contains { $0.contains("notification 1: ") }, "\(nook.bridge.log)")
            #expect(refusals.contains { $0.contains("notification 2: app_icon") }, "\(nook.bridge.log)")
            #expect(refusals.contains { $0.contains("notification 2: image-path") }, "\(nook.bridge.log)")
            // No node anywhere names the FIFO; the icons fall back to the default.
            for id in [1, 2] {
                _ = try await nook.observer.call("Open", [WireCodec.vardict(["module": .string("notifications"), "activity": .string("n\(id)")])],
                                                 interface: "org.nook.Nook1.Control")
                #expect(await eventually {
                    nook.scenes.nodes(owner: "notifications/n\(id)").contains { $0["uri"] == .string("dialog-information-symbolic") }
                }, "n\(id): \(nook.scenes.nodes(owner: "notifications/n\(id)"))")
            }
            let uris = (1...3).flatMap { nook.scenes.nodes(owner: "notifications/n\($0)").compactMap { $0["uri"] } }
            #expect(!uris.contains(.string("file://" + fifo)), "\(uris)")
            #expect(nook.bridge.isRunning)
            await nook.stop()
        }
    }

    @Test func aHugeImageDataIsSkippedUnreadAndMemoryStaysBounded() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nook = try await Fixture.start(bus, temp)
            let before = try Self.peakMemory(nook.bridge.pid)
            // 4096x4095 RGBA, 64 MiB less 16 KiB of pixels: the largest that fits, as D-Bus caps
            // an array (here the hints) at 64 MiB; then 256x256 with pixels past the bound;
            // then 512x512 RGBA, the largest image kept.
            // libnotify's and dbus-python's 25 s reply timeout, lengthened like every test deadline
            // under a sanitizer: reading 64 MiB under ThreadSanitizer takes longer than 25 s.
            let replyTimeout = 25 * TestDeadlines.scale
            let posted = try await nook.python("""
                def image(width, height, size):
                    return dbus.Struct((width, height, width * 4, True, 8, 4, dbus.ByteArray(b"\\x80" * size)), signature="iiibiiay")
                print(notifications.Notify("Camera", 0, "", "Huge", "4096x4095", [], {"image-data": image(4096, 4095, 4096 * 4095 * 4)}, 0, timeout=\(replyTimeout)))
                print(notifications.Notify("Camera", 0, "", "Padded", "256x256", [], {"image-data": image(256, 256, 2 * 1024 * 1024)}, 0, timeout=\(replyTimeout)))
                print(notifications.Notify("Camera", 0, "", "Largest", "512x512", [], {"image-data": image(512, 512, 512 * 512 * 4)}, 0, timeout=\(replyTimeout)))
                """)
            #expect(posted.stdout == "1\n2\n3\n", "\(posted.stdout) \(posted.stderr)")
            #expect(await eventually { (try? await nook.observer.activities())?.count == 3 }, "\(nook.bridge.log)")
            #expect(nook.bridge.log.contains("notification 1 from"), "\(nook.bridge.log)")
            #expect(nook.bridge.log.contains("image-data: 4096x4095 is outside 1...512"), "\(nook.bridge.log)")
            #expect(nook.bridge.log.contains("image-data: 2097152 bytes of pixels, more than \(RawImage.maxPixelBytes); not read"), "\(nook.bridge.log)")
            #expect(!nook.bridge.log.contains("notification 3 from"), "the 512x512 image is kept: \(nook.bridge.log)")
            // The kept one is drawn in the expanded view from its PNG file.
            let uris: @Sendable () -> [DBusValue] = { nook.scenes.nodes(owner: "notifications/n3").compactMap { $0["uri"] } }
            #expect(await HostileNotificationsTests.open(nook, 3) { uris().contains { if case .string(let uri) = $0 { uri.hasSuffix("/3.png") } else { false } } },
                    "\(uris())")
            // The skipped pixels cost the message's bytes, not their decoded values (a 64 MiB
            // array read byte by byte into values would take gigabytes): peak RSS grows by
            // less than twice the largest message.
            let grown = try Self.peakMemory(nook.bridge.pid) - before
            #expect(grown < 2 * 64 * 1024 * 1024 || !Hostile.measuresMemoryGrowth, "peak RSS grew by \(grown / 1024) KiB")
            print("bridge peak RSS grew by \(grown / 1024) KiB for a 64 MiB image-data")
            #expect(nook.bridge.isRunning)
            await nook.stop()
        }
    }

    /// A process's peak resident memory (`VmHWM`), in bytes.
    static func peakMemory(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kib = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { throw TestSupportError("no VmHWM in /proc/\(pid)/status") }
        return kib * 1024
    }

    @Test func aFloodIsBoundedOldestFirst() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nook = try await Fixture.start(bus, temp, bridgeArguments: ["--max-live", "8"])
            let posted = try await nook.python("""
                for i in range(1000): notifications.Notify("Flood", 0, "", "n %d" % i, "", [], {}, 0)
                print("sent")
                """)
            #expect(posted.stdout == "sent\n", "\(posted.stderr)")
            // The newest 8 stay; the 992 before them are closed oldest first with reason 1.
            let expected = (993...1000).map { "notifications/n\($0)" }
            let settled = await eventually { (try? await nook.observer.activities())?.sorted() == expected.sorted() }
            let live = try await nook.observer.activities()
            #expect(settled, "\(live)")
            #expect(await eventually { nook.signals.closed.count == 992 }, "\(nook.signals.closed.count)")
            #expect(nook.signals.closed.map(\.id) == (1...992).map { UInt32($0) })
            #expect(nook.signals.closed.allSatisfy { $0.reason == 1 })
            #expect(nook.bridge.isRunning)
            await nook.stop()
        }
    }

    /// A program reporting progress as fast as its calls are answered (400 `Notify` replacing
    /// one notification, back to back) costs the broker at most one `UpdateActivity` per
    /// `publishInterval`, counted by `dbus-monitor` on the private bus, and the last one shows.
    @Test func aProgressFloodReachesTheBrokerAtMostOnceAFrame() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nook = try await Fixture.start(bus, temp)
            let monitor = try PackageProcess(try Tools.path(of: "dbus-monitor"), [
                "--address", bus.address,
                "type='method_call',destination='\(NookNames.busName)',member='UpdateActivity'",
                "type='method_call',member='GetState'",
            ], logDirectory: temp.url)
            defer { Task { await monitor.stop() } }
            #expect(await eventually(timeout: .seconds(30)) {
                _ = try? await nook.observer.call("GetState", [], interface: NookNames.controlInterface)
                return monitor.log.contains("member=GetState")
            }, "dbus-monitor saw nothing: \(monitor.log)")
            let posted = try await nook.python("""
                import time
                id = notifications.Notify("make", 0, "", "Building", "step 0", [], {}, 0)
                began = time.monotonic()
                for i in range(1, 401): id = notifications.Notify("make", id, "", "Building", "step %d" % i, [], {"value": dbus.Int32(i // 4)}, 0)
                print(id, time.monotonic() - began)
                """)
            let fields = posted.stdout.split(separator: " ")
            #expect(fields.first == "1", "\(posted.stdout)\(posted.stderr)")
            let seconds = try #require(fields.last.flatMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }, "\(posted.stdout)")
            #expect(await eventually { nook.texts(1).contains("step 400") }, "\(nook.texts(1))\n\(nook.bridge.log)")
            // Every update is in the monitor's log once the last one is.
            #expect(await eventually { monitor.log.contains(#"string "step 400""#) }, "\(monitor.log.suffix(2000))")
            let updates = monitor.log.split(separator: "\n").filter { $0.hasPrefix("method call") && $0.contains("member=UpdateActivity") }.count
            // One batch per interval while the calls came, one for the last of them, one of slack
            // for the batch the first call began.
            let interval = BridgeSettings(imageDirectory: "").publishInterval
            let bound = Int(seconds / (Double(interval.components.attoseconds) / 1e18)) + 2
            print("400 progress updates in \(seconds) s: \(updates) UpdateActivity calls (at most \(bound))")
            #expect(updates >= 1 && updates <= bound, "\(updates) UpdateActivity calls for 400 Notify in \(seconds) s")
            await nook.stop()
        }
    }

    @Test func anotherDaemonKeepsTheNameUnlessReplaced() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let other = try PackageProcess("/usr/bin/python3", ["-u", "-c", """
                import dbus, dbus.mainloop.glib
                from gi.repository import GLib
                dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
                bus = dbus.bus.BusConnection(\(pythonString(bus.address)))
                bus.request_name("org.freedesktop.Notifications", dbus.bus.NAME_FLAG_ALLOW_REPLACEMENT)
                bus.add_signal_receiver(lambda name: (print("lost", name), loop.quit()), "NameLost", "org.freedesktop.DBus")
                print("owner", flush=True)
                loop = GLib.MainLoop()
                loop.run()
                """], logDirectory: temp.url)
            #expect(await eventually { other.log.contains("owner") }, "\(other.log)")
            let refused = try PackageProcess("nook-notifications", ["--address", bus.address], logDirectory: temp.url)
            #expect(await refused.waitForExit())
            #expect(refused.exitStatus == 3)
            #expect(refused.log.contains("org.freedesktop.Notifications is owned by"), "\(refused.log)")
            #expect(refused.log.contains("python3"), "the owner's command is named: \(refused.log)")

            let replacing = try PackageProcess("nook-notifications", ["--address", bus.address, "--replace"], logDirectory: temp.url)
            #expect(await eventually { replacing.log.contains("serving org.freedesktop.Notifications") }, "\(replacing.log)")
            #expect(await eventually { other.log.contains("lost org.freedesktop.Notifications") }, "\(other.log)")
            #expect(await replacing.stop(SIGTERM) == 0, "\(replacing.log)")
            _ = await other.stop(SIGTERM)
            await nookd.stop()
        }
    }
}

struct Closed: Hashable, Sendable {
    let id: UInt32
    let reason: UInt32
}

struct Invoked: Hashable, Sendable {
    let id: UInt32
    let key: String
}

/// The spec's `NotificationClosed` and `ActionInvoked`, as any client on the bus sees them.
final class NotificationSignals: Sendable {
    let connection: BusConnection
    private let seen = Locked<(closed: [Closed], invoked: [Invoked], tokens: [String])>(([], [], []))

    private init(connection: BusConnection) { self.connection = connection }

    static func watch(_ bus: PrivateBus) async throws -> NotificationSignals {
        let connection = try await BusConnection.connect(to: .address(bus.address))
        let watcher = NotificationSignals(connection: connection)
        _ = try await connection.addMatch(MatchRule(interface: "org.freedesktop.Notifications", member: "NotificationClosed")) { signal in
            guard case .uint32(let id)? = signal.arguments.first, case .uint32(let reason)? = signal.arguments.last else { return }
            watcher.seen.withLock { $0.closed.append(Closed(id: id, reason: reason)) }
        }
        _ = try await connection.addMatch(MatchRule(interface: "org.freedesktop.Notifications", member: "ActionInvoked")) { signal in
            guard case .uint32(let id)? = signal.arguments.first, case .string(let key)? = signal.arguments.last else { return }
            watcher.seen.withLock { $0.invoked.append(Invoked(id: id, key: key)) }
        }
        _ = try await connection.addMatch(MatchRule(interface: "org.freedesktop.Notifications", member: "ActivationToken")) { signal in
            guard case .string(let token)? = signal.arguments.last else { return }
            watcher.seen.withLock { $0.tokens.append(token) }
        }
        return watcher
    }

    var closed: [Closed] { seen.withLock { $0.closed } }
    var invoked: [Invoked] { seen.withLock { $0.invoked } }
    var tokens: [String] { seen.withLock { $0.tokens } }
    func close() async { await connection.close() }
}

/// A Python string literal of `text`.
func pythonString(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
}

