import Foundation
import NookBus
import NookCore
import NookSystem
import NookTestSupport
import Testing

/// Apps' progress in the nook (issue 43, part 1): `LauncherEntry` `Update` read and bounded
/// (pure), and the real nook-system following an app written in python3-dbus through the real
/// nookd.
@Suite struct LauncherUpdateTests {
    @Test func theAppURIAndTheValuesAreReadAndBounded() {
        let update = LauncherUpdate(appURI: "application://org.example.Files.desktop", properties: [
            "progress": .double(0.3), "progress-visible": .bool(true), "count": .int64(4), "urgent": .bool(true),
        ])
        #expect(update?.desktopID == "org.example.Files" && update?.activityID == "app-org.example.Files")
        #expect(update?.progress == 0.3 && update?.progressVisible == true)
        #expect(LauncherUpdate(appURI: "firefox.desktop", properties: ["progress": .double(7)])?.progress == 1)
        #expect(LauncherUpdate(appURI: "firefox.desktop", properties: ["progress": .double(.nan)])?.progress == 0)
        #expect(LauncherUpdate(appURI: "firefox.desktop", properties: ["progress": .string("0.5")])?.progress == nil)
        #expect(LauncherUpdate(appURI: "application://", properties: [:]) == nil)
        #expect(LauncherUpdate(appURI: "application://../../etc/x.desktop", properties: [:]) == nil)
        #expect(LauncherUpdate(appURI: String(repeating: "a", count: 600), properties: [:]) == nil)
        #expect(LauncherUpdate(appURI: "application://my app+1.desktop", properties: [:])?.activityID == "app-my-app-1")
    }
}

@Suite(.serialized) struct LauncherProgressTests {
    /// An app that sends `LauncherEntry` `Update` when asked (`org.nook.Test.FakeApp.Emit(s, a{sv})`), as libunity does.
    static func fakeApp(_ address: String) throws -> HelperProcess {
        try pythonService(address, owning: "org.nook.Test.FakeApp", """
            class Entry(dbus.service.Object):
                def __init__(self):
                    super().__init__(bus, "/com/canonical/unity/launcherentry/1")
                @dbus.service.signal("com.canonical.Unity.LauncherEntry", signature="sa{sv}")
                def Update(self, uri, properties):
                    pass
                @dbus.service.method("org.nook.Test.FakeApp", in_signature="sa{sv}")
                def Emit(self, uri, properties):
                    self.Update(uri, properties)
            entry = Entry()
            """)
    }

    static func emit(_ connection: BusConnection, _ uri: String, _ properties: [String: DBusValue]) async throws {
        _ = try await connection.call(destination: "org.nook.Test.FakeApp", path: "/com/canonical/unity/launcherentry/1",
                                      interface: "org.nook.Test.FakeApp", member: "Emit", arguments: [.string(uri), .vardict(properties)])
    }

    /// Whether opening onto the Files progress shows `text` (the update may still be on its way).
    static func opens(_ control: NookControlProxy, showing text: String) async -> Bool {
        await eventually {
            let plan = try? await control.previewPlan(action: "open", options: ["module": .string("progress"), "activity": .string("app-org.example.Files")])
            return plan.map { "\($0)".contains(text) && "\($0)".contains("org.example.Files") } ?? false
        }
    }


    @Test func aVisibleProgressIsAnActivityDoneItPeeksAndAnAppLeavingEndsIt() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let system = try PackageProcess("nook-system", ["--address", bus.address, "--no-power", "--no-brightness"], logDirectory: temp.url)
            #expect(await eventually { system.log.contains("following apps' progress") }, "\(system.log)")
            let app = try Self.fakeApp(bus.address)
            defer { app.kill() }
            let client = try await BusConnection.connect(to: .address(bus.address))
            let control = NookControlProxy(client)
            let files = "application://org.example.Files.desktop"

            // A count alone is no activity; a visible progress is.
            try await Self.emit(client, files, ["count": .int64(2), "count-visible": .bool(true)])
            try await Self.emit(client, files, ["progress": .double(0.3), "progress-visible": .bool(true)])
            #expect(await eventually { occurrences(of: "scene: activity_started progress/app-org.example.Files", in: nookd.log) == 1 }, "\(system.log)\n\(nookd.log)")
            try await Self.emit(client, files, ["progress": .double(0.7)])
            // Opened onto, it shows the app (its id here: no .desktop file names it) and the level.
            #expect(await Self.opens(control, showing: "70%"), "\(system.log)")

            // Done: hidden at the end, a peek says so, then it goes.
            try await Self.emit(client, files, ["progress": .double(1), "progress-visible": .bool(false)])
            #expect(await eventually { system.log.contains("org.example.Files: done") }, "no done peek: \(system.log)")
            #expect(await eventually { occurrences(of: "scene: activity_ended progress/app-org.example.Files", in: nookd.log) == 1 }, "\(nookd.log)")

            // Another one, and the app leaves the bus: it ends at once.
            try await Self.emit(client, "application://org.example.Web.desktop", ["progress": .double(0.1), "progress-visible": .bool(true)])
            #expect(await eventually { occurrences(of: "scene: activity_started progress/app-org.example.Web", in: nookd.log) == 1 })
            app.kill()
            #expect(await eventually { occurrences(of: "scene: activity_ended progress/app-org.example.Web", in: nookd.log) == 1 }, "\(nookd.log)")

            #expect(await system.stop() == 0, "\(system.log)")
            await client.close()
            #expect(await nookd.stop() == 0, "\(nookd.log)")
        }
    }
}

/// Issue 43, part 1: an app's progress is a ring in the pill, as on a phone; a passing level
/// (power, brightness) shows its percentage there. Both keep the percentage in the label.
@Suite struct LevelDisplayPillTests {
    @Test func anAppsProgressIsARingInThePillAndAPassingLevelItsPercentage() throws {
        let progress = LevelDisplay(id: "app-org.example.Files", symbol: "folder-download-symbolic", title: "Files", level: 0.42,
                                    tint: nil, relevance: 600, opens: true, ring: true).activity
        #expect(progress.compactTrailing.kind == .progress && progress.compactTrailing.props.progressStyle == .circular)
        #expect(progress.compactTrailing.props.value == 0.42 && progress.accessibilityLabel == "Files, 42%")
        let brightness = LevelDisplay(id: "backlight", symbol: "display-brightness-symbolic", title: "Brightness", level: 0.42,
                                      tint: nil, relevance: 1000).activity
        #expect(brightness.compactTrailing.kind == .text && brightness.compactTrailing.props.text == "42%")
    }
}
