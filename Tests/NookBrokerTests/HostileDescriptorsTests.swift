import Foundation
import NookBus
import NookTestSupport
import Testing

/// Issue 38, findings 1 and 2: Unix descriptors sent inside any argument of any call. nookd
/// and nook-notifications duplicated every `h` they read and a refused call never closed its
/// copies, so about 1,100 descriptors in 90 calls ended either process. Neither process
/// negotiates descriptor passing now: the bus daemon refuses such a message to its sender
/// (`org.freedesktop.DBus.Error.NotSupported`), and no descriptor reaches the process at all.
@Suite(.serialized) struct HostileDescriptorsTests {
    /// The number of descriptors `pid` holds open.
    static func openDescriptors(_ pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }

    /// python-dbus (which negotiates descriptor passing) sends 16 descriptors in each of the
    /// calls that leaked: every Control method's vardict, Render.Subscribe and Activate,
    /// Properties.Set, and a module call; 100 rounds, each answered by the bus with
    /// NotSupported. nookd's descriptor count does not grow, it answers, and it survives a
    /// kill -9 and a restart.
    @Test func descriptorsInAnyCallNeverReachNookd() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let client = try await BrokerClient.connect(bus)
            try await client.register("music")
            try await client.start("song", ControlRenderTests.songSpec())
            let before = Self.openDescriptors(nookd.pid)
            let result = try await Hostile.python(bus, """
                import os
                props = dbus.Interface(nook, "org.freedesktop.DBus.Properties")
                fd = os.open("/dev/null", os.O_RDONLY)
                many = lambda: dbus.Dictionary({"x": dbus.Array([dbus.types.UnixFd(fd)] * 16, signature="h")}, signature="sv")
                calls = [
                    lambda: control.Open(many()),
                    lambda: control.Close(many()),
                    lambda: render.Subscribe(many()),
                    lambda: render.Activate(many()),
                    lambda: props.Set("org.nook.Nook1.Control", "ReduceMotion", dbus.Array([dbus.types.UnixFd(fd)] * 16, signature="h", variant_level=1)),
                    lambda: modules.Register("fd", many()),
                ]
                names = {}
                for round in range(100):
                    for call in calls:
                        try:
                            call()
                            names["accepted"] = names.get("accepted", 0) + 1
                        except dbus.DBusException as e:
                            names[e.get_dbus_name()] = names.get(e.get_dbus_name(), 0) + 1
                for name, count in sorted(names.items()):
                    print(name, count)
                """)
            #expect(result.stdout == "org.freedesktop.DBus.Error.NotSupported 600\n", "\(result.stdout) \(result.stderr)")
            let after = Self.openDescriptors(nookd.pid)
            // 9,600 descriptors were sent; a leak of even one a call would show as hundreds.
            #expect(after <= before + 4, "nookd held \(before) descriptors before and \(after) after")
            #expect(try await client.activities() == ["music/song"])
            await client.close()
            let restarted = try await Hostile.expectSurvivesRestart(nookd, bus: bus)
            await restarted.stop()
        }
    }

    /// Finding 2: the same through `Notify`'s hints. The bridge keeps serving and its
    /// descriptor count does not grow.
    @Test func descriptorsInNotificationHintsNeverReachTheBridge() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let fixture = try await NotificationsBridgeTests.Fixture.start(bus, temp)
            let before = Self.openDescriptors(fixture.bridge.pid)
            let result = try await fixture.python("""
                import os
                fd = os.open("/dev/null", os.O_RDONLY)
                hints = dbus.Dictionary({"x": dbus.Array([dbus.types.UnixFd(fd)] * 16, signature="h")}, signature="sv")
                refused = 0
                for round in range(120):
                    try:
                        notifications.Notify("evil", 0, "", "fd", "body", dbus.Array([], signature="s"), hints, -1)
                    except dbus.DBusException as e:
                        if e.get_dbus_name() == "org.freedesktop.DBus.Error.NotSupported":
                            refused += 1
                print("refused", refused)
                print("next", notifications.Notify("good", 0, "", "after", "body", dbus.Array([], signature="s"), dbus.Dictionary({}, signature="sv"), -1))
                """)
            #expect(result.stdout.hasPrefix("refused 120\nnext "), "\(result.stdout) \(result.stderr)")
            #expect(fixture.bridge.isRunning, "\(fixture.bridge.log)")
            let after = Self.openDescriptors(fixture.bridge.pid)
            #expect(after <= before + 4, "the bridge held \(before) descriptors before and \(after) after")
            await fixture.stop()
        }
    }

    /// Finding 2's other half: the notification bridge exited with status 0 when it lost its
    /// bus, so `Restart=on-failure` never brought it back. Both bridges now leave with status 1
    /// when the bus goes away, and 0 for a signal or another daemon taking the name
    /// (NotificationsBridgeTests).
    @Test func theBridgesExitWithAFailureWhenTheBusGoes() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let fixture = try await NotificationsBridgeTests.Fixture.start(bus, temp)
            let music = try PackageProcess("nook-mpris", ["--address", bus.address], logDirectory: temp.url)
            let following = await eventually { music.log.contains("following MPRIS players") || !music.isRunning }
            #expect(following && music.isRunning, "\(music.log)")
            bus.killDaemon()
            #expect(await fixture.bridge.waitForExit(timeout: .seconds(60)), "\(fixture.bridge.log)")
            #expect(fixture.bridge.exitStatus == 1, "\(fixture.bridge.log)")
            #expect(fixture.bridge.log.contains("lost the connection to the bus"), "\(fixture.bridge.log)")
            #expect(await music.waitForExit(timeout: .seconds(60)), "\(music.log)")
            #expect(music.exitStatus == 1, "\(music.log)")
            await fixture.nookd.stop()
            await music.stop()
        }
    }
}
