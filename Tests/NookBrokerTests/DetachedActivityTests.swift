import Foundation
import NookBus
import NookCore
import NookTestSupport
import Testing

/// Contract 1.1 "Ways in": an activity published from a shell outlives its publisher until its
/// `dismiss_date`; `dismiss_date` ends any activity on time; `remove` takes keys away.
@Suite(.serialized) struct DetachedActivityTests {
    /// Unix microseconds `seconds` from now, as python computes them.
    static func pythonDate(_ seconds: Double) -> String { "dbus.Int64(int((time.time() + \(seconds)) * 1e6))" }

    @Test func aDetachedActivityOutlivesItsPublisherAndCanBeTakenBack() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory, grace: "200ms")
            let published = try await Hostile.python(bus, """
                import time
                modules.Register("shell", dbus.Dictionary({}, signature="sv"))
                modules.StartActivity("build", spec(lifetime="detached", dismiss_date=\(Self.pythonDate(600))))
                modules.StartActivity("note", spec())
                """)
            #expect(published.status == 0, "\(published.stderr)")
            let observer = try await BrokerClient.connect(bus)
            // The publisher has exited; after the grace period only the detached activity stays.
            #expect(await eventually { (try? await observer.activities()) == ["shell/build"] }, "\(nookd.log.suffix(2000))")
            let modules = StateForStatusBarsTests.records(try await observer.state()["modules"])
            #expect(modules.first?["module"] == .string("shell") && modules.first?["connected"] == .bool(false))

            // A later connection registering the module takes the activity back and updates it.
            let back = try await BrokerClient.connect(bus)
            try await back.register("shell")
            try await back.update("build", ["accessibility_label": .string("Build: linking")])
            #expect(try await observer.activities() == ["shell/build"])
            await back.close()

            // Saved like any activity: a kill -9 and a restart keep it.
            let restarted = try await Hostile.expectSurvivesRestart(nookd, bus: bus)
            #expect(await eventually { (try? await observer.activities()) == ["shell/build"] })
            await observer.close()
            await restarted.stop()
        }
    }

    @Test func dismissDateEndsTheActivityOnTimeAndRemoveCancelsIt() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let run = try await Hostile.python(bus, """
                import time
                modules.Register("shell", dbus.Dictionary({}, signature="sv"))
                modules.StartActivity("kept", spec(dismiss_date=\(Self.pythonDate(1)), expanded=node("text", {"text": "x"})))
                modules.UpdateActivity("kept", dbus.Dictionary({"remove": dbus.Array(["dismiss_date", "expanded"], signature="s")}, signature="sv"))
                modules.StartActivity("short", spec(dismiss_date=\(Self.pythonDate(1))))
                print(sorted(str(a[1]) for a in control.GetState()["activities"]))
                # Stay connected until "short" has ended, so only the dates are at work.
                while any(str(a[1]) == "short" for a in control.GetState()["activities"]):
                    time.sleep(0.05)
                print(sorted(str(a[1]) for a in control.GetState()["activities"]))
                """)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout == "['kept', 'short']\n['kept']\n", "\(run.stdout)")
            try await Hostile.expectSurvivesRestart(nookd, bus: bus).stop()
        }
    }

    @Test func aDetachedActivityNeedsADismissDateWithin24Hours() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let run = try await Hostile.python(bus, """
                import time
                modules.Register("shell", dbus.Dictionary({}, signature="sv"))
                for extra in [dict(lifetime="detached"), dict(lifetime="detached", dismiss_date=\(Self.pythonDate(48 * 3600))),
                              dict(lifetime="forever"), dict()]:
                    try:
                        modules.StartActivity("a", spec(**extra))
                        print("accepted")
                    except dbus.DBusException as e:
                        print(e.get_dbus_name(), e.get_dbus_message())
                try:
                    modules.UpdateActivity("a", dbus.Dictionary({"remove": dbus.Array(["accessibility_label"], signature="s")}, signature="sv"))
                except dbus.DBusException as e:
                    print(e.get_dbus_name(), e.get_dbus_message())
                """)
            let lines = run.stdout.split(separator: "\n").map(String.init)
            #expect(lines.count == 5, "\(run.stdout)\(run.stderr)")
            #expect(lines.first?.contains("InvalidArgs") == true && lines.first?.contains("'lifetime'") == true, "\(lines)")
            #expect(lines.dropFirst().first?.contains("'dismiss_date'") == true && lines.dropFirst().first?.contains("24 h") == true, "\(lines)")
            #expect(lines.dropFirst(2).first?.contains("forever") == true, "\(lines)")
            #expect(lines.dropFirst(3).first == "accepted", "\(lines)")
            #expect(lines.last?.contains("'remove'") == true && lines.last?.contains("accessibility_label") == true, "\(lines)")
            try await Hostile.expectSurvivesRestart(nookd, bus: bus).stop()
        }
    }
}
