import Foundation
import NookBus
import NookCore
import NookNotifications
import NookTestSupport
import Synchronization
import Testing

/// The notification rules (issue 40, part 3) and do not disturb in the nook, with real
/// processes: the real nook-notifications and nookd on a private bus, Debian's `notify-send`,
/// python-dbus and `nookctl`. Peeks are seen in nookd's `StateChanged` (`Peeks`), closes in
/// the spec's `NotificationClosed`, views in the scenes a subscribed renderer gets. Every wait
/// is for the event that proves it (a log line, a signal, a scene), never a sleep.
@Suite(.serialized) struct NotificationRulesTests {
    typealias Fixture = NotificationsBridgeTests.Fixture
    typealias Peeks = NotificationDNDTests.Peeks

    /// Where the bridge the fixture starts reads its rules (`XDG_CONFIG_HOME` in the test's directory).
    static func rulesFile(_ temp: TemporaryDirectory) -> URL { temp.url.appendingPathComponent("config/nook/notifications.rules") }

    /// Writes the rules as an editor saves: a temporary file renamed over the old one.
    static func write(_ text: String, _ temp: TemporaryDirectory) throws {
        let file = rulesFile(temp)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: file, atomically: true, encoding: .utf8)
    }

    static func nookctl(_ bus: PrivateBus, _ arguments: [String]) async throws -> Tools.Result {
        try await NotificationHistoryTests.nookctl(bus, arguments)
    }

    /// `notifications list --json`, parsed.
    static func history(_ bus: PrivateBus) async -> [[String: Any]] {
        guard let result = try? await nookctl(bus, ["notifications", "list", "--json"]), result.status == 0 else { return [] }
        return (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [[String: Any]] ?? []
    }

    static func id(_ result: Tools.Result) -> UInt32? { UInt32(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) }

    @Test func aRuleThatSilencesOneAppHoldsWhileAnotherStillPeeks() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try Self.write("""
            # Noisy shows, but never peeks; Spam is dropped (and kept out of the history).
            [app-name=Noisy]
            no-peek=yes

            [app-name~=spam*]
            ignore=yes

            [summary~=*urgent*]
            colour=red
            """, temp)
        try await PrivateBus.with { bus in
            let nook = try await Fixture.start(bus, temp, bridgeArguments: ["--peek-seconds", "60", "--default-timeout", "3600"])
            #expect(nook.bridge.log.contains("3 sections in effect"), "\(nook.bridge.log)")
            let peeks = try await Peeks(bus)
            let noisy = try await nook.notifySend(["-p", "-a", "Noisy", "Chatter", "again"])
            let spam = try await nook.notifySend(["-p", "-a", "SpamBot", "Buy", "now"])
            let other = try await nook.notifySend(["-p", "-a", "Builder", "Urgent: build done", "All tests passed"])
            let (n, s, o) = (try #require(Self.id(noisy)), try #require(Self.id(spam)), try #require(Self.id(other)))
            // The other app peeks; that is the first and only peek, so Noisy's never did.
            #expect(await eventually { peeks.activities == ["n\(o)"] }, "\(peeks.activities)\n\(nook.bridge.log)")
            #expect(await eventually { (try? await nook.observer.activities())?.contains("notifications/n\(n)") == true })
            // Spam was closed at once, reason 2 (a person's rule dismissed it), and never shown.
            #expect(await eventually { nook.signals.closed.contains(Closed(id: s, reason: 2)) }, "\(nook.signals.closed)")
            #expect(try await nook.observer.activities().sorted() == ["notifications/n\(n)", "notifications/n\(o)"])
            #expect(nook.scenes.nodes(owner: "notifications/n\(s)").isEmpty)
            // The colour rule: its peek carries the red accent bar (Noisy, started first, holds
            // the pill, so this one's pill text is not in the scene; the on-screen test sees it).
            let red = await eventually {
                nook.scenes.nodes(owner: "notifications/n\(o)").contains { $0["slot"] == .string("peek") && $0["kind"] == .string("shape") && $0["color"] == .string("#FF3B30") }
            }
            #expect(red, "\(nook.scenes.nodes(owner: "notifications/n\(o)"))")
            #expect(peeks.activities == ["n\(o)"], "\(peeks.activities)")
            // The ignored one is not in the history; the others are once they close.
            #expect(try await Self.nookctl(bus, ["end", "notifications/n\(n)"]).status == 0)
            #expect(await eventually { await Self.history(bus).contains { $0["app_name"] as? String == "Noisy" } })
            #expect(!(await Self.history(bus)).contains { $0["app_name"] as? String == "SpamBot" })
            await peeks.close()
            await nook.stop()
        }
    }

    @Test func aLiveEditOfTheRulesFileTakesEffectWithoutARestart() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            // No rules file, nor its directory, when the bridge starts.
            let nook = try await Fixture.start(bus, temp, bridgeArguments: ["--default-timeout", "3600"])
            let first = try #require(Self.id(try await nook.notifySend(["-p", "-a", "Chat", "One", "shown"])))
            #expect(await eventually { (try? await nook.observer.activities())?.contains("notifications/n\(first)") == true })

            // Saved by an editor: the watch (on the nearest directory that exists) sees it.
            try Self.write("[app-name=Chat]\nignore=yes\n", temp)
            #expect(await eventually { nook.bridge.log.contains("changed: 1 section in effect") }, "\(nook.bridge.log)")
            let second = try #require(Self.id(try await nook.notifySend(["-p", "-a", "Chat", "Two", "dropped"])))
            #expect(await eventually { nook.signals.closed.contains(Closed(id: second, reason: 2)) }, "\(nook.signals.closed)\n\(nook.bridge.log)")
            #expect(try await !nook.observer.activities().contains("notifications/n\(second)"))

            // `nookctl reload` reads it too: theme first, then the rules.
            try Self.write("[app-name=Chat]\nignore=no\n[app-name=Mail]\nignore=yes\n", temp)
            let reload = try await Self.nookctl(bus, ["reload"])
            #expect(reload.status == 0 && reload.stdout.contains("reloaded the theme\n"), "\(reload.stdout) \(reload.stderr)")
            #expect(reload.stdout.contains("reloaded the notification rules: 2 sections\n"), "\(reload.stdout) \(reload.stderr)")
            let third = try #require(Self.id(try await nook.notifySend(["-p", "-a", "Chat", "Three", "shown again"])))
            #expect(await eventually { (try? await nook.observer.activities())?.contains("notifications/n\(third)") == true }, "\(nook.bridge.log)")

            // Removing the file removes the rules.
            try FileManager.default.removeItem(at: Self.rulesFile(temp))
            #expect(await eventually { nook.bridge.log.contains("changed: 0 sections in effect") }, "\(nook.bridge.log)")
            await nook.stop()
        }
    }

    @Test func aBrokenRulesFileNamesItsLineAndThePreviousRulesStay() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try Self.write("[app-name=Spam]\nignore=yes\n", temp)
        try await PrivateBus.with { bus in
            let nook = try await Fixture.start(bus, temp, bridgeArguments: ["--default-timeout", "3600"])
            // A mistake on line 4: refused whole, logged with its line and key.
            try Self.write("[app-name=Spam]\nignore=yes\n[app-name=Chat]\ntimeout=forever\n", temp)
            let logged = await eventually { nook.bridge.log.contains("is refused (line 4: key 'timeout': 'forever' is not a number of seconds in 0...86400); the previous rules stay (1 section)") }
            #expect(logged, "\(nook.bridge.log)")
            // nookctl reload says it, and fails.
            let reload = try await Self.nookctl(bus, ["reload"])
            #expect(reload.status == 1, "\(reload.stdout) \(reload.stderr)")
            #expect(reload.stderr.contains("the notification rules are refused:") && reload.stderr.contains("line 4: key 'timeout'"), "\(reload.stderr)")
            // The method's error, as any client sees it.
            let raw = try await nook.python("""
                ctl = dbus.Interface(bus.get_object("org.freedesktop.Notifications", "/org/nook/Notifications1"), "org.nook.Notifications1")
                try:
                    print("sections", ctl.ReloadRules())
                except dbus.exceptions.DBusException as error:
                    print(error.get_dbus_name(), error.get_dbus_message())
                """)
            #expect(raw.stdout.hasPrefix("org.nook.Notifications1.Error.InvalidRules "), "\(raw.stdout) \(raw.stderr)")
            #expect(raw.stdout.contains("line 4: key 'timeout'") && raw.stdout.contains("the previous rules stay"), "\(raw.stdout)")
            // The previous rules hold: Spam is still dropped, Chat is shown.
            let spam = try #require(Self.id(try await nook.notifySend(["-p", "-a", "Spam", "Still", "dropped"])))
            let chat = try #require(Self.id(try await nook.notifySend(["-p", "-a", "Chat", "Still", "shown"])))
            #expect(await eventually { nook.signals.closed.contains(Closed(id: spam, reason: 2)) }, "\(nook.signals.closed)")
            #expect(await eventually { (try? await nook.observer.activities())?.contains("notifications/n\(chat)") == true })
            #expect(try await !nook.observer.activities().contains("notifications/n\(spam)"))
            // Fixed, it is taken.
            try Self.write("[app-name=Spam]\nignore=yes\n[app-name=Chat]\ntimeout=5\n", temp)
            let fixed = try await Self.nookctl(bus, ["reload"])
            #expect(fixed.status == 0 && fixed.stdout.contains("2 sections"), "\(fixed.stdout) \(fixed.stderr)")
            await nook.stop()
        }
    }

    @Test func reloadWithoutTheBridgeReloadsTheThemeAlone() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            // Nobody owns org.freedesktop.Notifications: no error, only the theme's line.
            let reload = try await Self.nookctl(bus, ["reload"])
            #expect(reload.status == 0 && reload.stdout == "reloaded the theme\n" && reload.stderr.isEmpty, "\(reload.stdout) \(reload.stderr)")
            await nookd.stop()
        }
    }

    @Test func aRuleSoundPlaysThroughTheSoundThemePlayer() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        // A stub canberra-gtk-play on the bridge's PATH records what it was asked to play.
        let bin = temp.url.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let played = temp.url.appendingPathComponent("played").path
        let stub = bin.appendingPathComponent("canberra-gtk-play").path
        try ExecutableScript.write("#!/bin/sh\necho \"$@\" >> \(played)\n", toPath: stub)
        try Self.write("[app-name=Mail]\nsound=message-new-email\n[app-name=Mail urgency=low]\nsound=off\n", temp)
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
            let bridge = try PackageProcess(
                "nook-notifications", ["--address", bus.address, "--state-dir", Fixture.bridgeState(temp).path, "--rules", Self.rulesFile(temp).path],
                logDirectory: temp.url, environment: ["XDG_RUNTIME_DIR": temp.url.path, "PATH": path])
            #expect(await eventually { bridge.log.contains("serving org.freedesktop.Notifications") }, "\(bridge.log)")
            var environment = ProcessInfo.processInfo.environment
            environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
            _ = try await Tools.run("notify-send", ["-u", "low", "-a", "Mail", "Quiet", "newsletter"], environment: environment)
            _ = try await Tools.run("notify-send", ["-a", "Mail", "New mail", "from a friend"], environment: environment)
            #expect(await eventually { (try? String(contentsOfFile: played, encoding: .utf8)) != nil }, "\(bridge.log)")
            // Once, for the normal one (the low one's sound is off), with the app as description.
            let lines = (try? String(contentsOfFile: played, encoding: .utf8)) ?? ""
            #expect(lines == "-i message-new-email -d Mail\n", "\(lines)")
            #expect(await bridge.stop(SIGTERM) == 0, "\(bridge.log)")
            await nookd.stop()
        }
    }

    @Test func doNotDisturbShowsABellWithTheHeldCountInTheNook() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nook = try await Fixture.start(bus, temp, bridgeArguments: ["--default-timeout", "3600"])
            let bell: @Sendable () -> [[String: DBusValue]] = { nook.scenes.nodes(owner: "notifications/dnd") }
            #expect(try await Self.nookctl(bus, ["dnd", "on"]).status == 0)
            // The bell with a slash, and 0 held, while nothing else is in the nook: in the pill.
            #expect(await eventually { bell().contains { $0["symbol"] == .string("bell.slash.fill") } }, "\(bell())")
            #expect(await eventually { bell().contains { $0["text"] == .string("0") } }, "\(bell())")
            for n in 1...2 { _ = try await nook.notifySend(["-a", "Chat", "Message \(n)", "held"]) }
            #expect(await eventually { bell().contains { $0["text"] == .string("2") } }, "\(bell())")
            #expect(try await nook.observer.activities().contains("notifications/dnd"))
            // Off: the bell goes.
            #expect(try await Self.nookctl(bus, ["dnd", "off"]).status == 0)
            #expect(await eventually { (try? await nook.observer.activities())?.contains("notifications/dnd") == false })
            await nook.stop()
        }
    }
}
