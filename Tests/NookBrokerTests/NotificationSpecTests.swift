import Foundation
import NookBus
import NookCore
import NookNotifications
import NookTestSupport
import Synchronization
import Testing

/// The notification specification, whole and honest: `GetCapabilities` checked against what
/// the bridge does, each hint's effect, and `NotificationClosed`'s reason on each path, with
/// clients nobody here wrote (`notify-send`, `gdbus call`, python3-gi's `Notify`, python-dbus,
/// `dbus-monitor`) and the real nookd and bridge on a private bus. `xdg-open` and
/// `canberra-gtk-play` are stubs first on the bridge's `PATH` that record their arguments.
@Suite(.serialized) struct NotificationSpecTests {
    typealias Fixture = NotificationsBridgeTests.Fixture

    /// Stub commands in `temp`/stubs that append their arguments to `<name>.record`.
    struct Stubs {
        let directory: URL

        init(_ temp: TemporaryDirectory, commands: [String]) throws {
            directory = temp.url.appendingPathComponent("stubs")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for command in commands {
                let file = directory.appendingPathComponent(command)
                try ExecutableScript.write("#!/bin/sh\nprintf '%s\\n' \"$*\" >> '\(record(command).path)'\n", to: file)
            }
        }

        func record(_ command: String) -> URL { directory.appendingPathComponent(command + ".record") }
        func lines(_ command: String) -> [String] {
            ((try? String(contentsOf: record(command), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        var path: String { directory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin") }
    }

    /// The fixture with the bridge started in `environment` (a `PATH` with the stubs, data dirs).
    static func start(_ bus: PrivateBus, _ temp: TemporaryDirectory, environment: [String: String?], arguments: [String] = []) async throws -> Fixture {
        let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
        let scenes = try await SceneNodes.subscribe(bus, display: NotificationsBridgeTests.display)
        let observer = try await BrokerClient.connect(bus)
        let signals = try await NotificationSignals.watch(bus)
        let bridge = try PackageProcess(
            "nook-notifications", ["--address", bus.address, "--state-dir", Fixture.bridgeState(temp).path] + arguments,
            logDirectory: temp.url, environment: ["XDG_RUNTIME_DIR": temp.url.path, "XDG_CONFIG_HOME": temp.url.appendingPathComponent("config").path].merging(environment) { $1 })
        let up = await eventually { bridge.log.contains("serving org.freedesktop.Notifications") || !bridge.isRunning }
        guard up, bridge.isRunning else { throw TestSupportError("nook-notifications did not start: \(bridge.log)") }
        return Fixture(bus: bus, temp: temp, nookd: nookd, bridge: bridge, scenes: scenes, observer: observer, signals: signals)
    }

    static func gdbus(_ nook: Fixture, _ method: String, _ arguments: [String]) async throws -> Tools.Result {
        try await Tools.run("gdbus", ["call", "--address", nook.bus.address, "--dest", "org.freedesktop.Notifications",
                                      "--object-path", "/org/freedesktop/Notifications", "--method", "org.freedesktop.Notifications." + method] + arguments)
    }

    static func nookctl(_ nook: Fixture, _ arguments: [String]) async throws -> Tools.Result {
        try await Tools.run(try PackageProcess.executable("nookctl").path, ["--address", nook.bus.address] + arguments)
    }

    @Test func getCapabilitiesNamesExactlyWhatIsDrawnAndDone() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let stubs = try Stubs(temp, commands: ["xdg-open", "canberra-gtk-play"])
        try await PrivateBus.with { bus in
            let nook = try await Self.start(bus, temp, environment: ["PATH": stubs.path])
            let capabilities = try await Self.gdbus(nook, "GetCapabilities", [])
            #expect(capabilities.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == "(['actions', 'body', 'body-hyperlinks', 'body-markup', 'icon-static', 'persistence', 'sound'],)", "\(capabilities)")

            // Each, done: body-markup (a bold run), body-hyperlinks (a press opens the link),
            // actions (a button's press is ActionInvoked), icon-static (the app icon drawn),
            // sound (sound-name played), persistence (an expired one is in the history).
            let sent = try await Self.gdbus(nook, "Notify", [
                "Builder", "0", "mail-send", "Build done", "All <b>42</b> passed, <a href=\"https://example.com/log\">log</a>",
                "['ok', 'OK']", "{'sound-name': <'complete'>}", "0",
            ])
            #expect(sent.stdout.contains("uint32 1"), "\(sent)")
            #expect(await eventually { nook.scenes.nodes(owner: "notifications/n1").contains { $0["uri"] == .string("mail-send") } },
                    "icon-static: \(nook.scenes.nodes(owner: "notifications/n1"))")
            #expect(await eventually { stubs.lines("canberra-gtk-play") == ["-i complete -d Notification"] }, "sound: \(stubs.lines("canberra-gtk-play"))\n\(nook.bridge.log)")
            // Opened until the expanded view's link is there (the peek draws the bold run too,
            // but its link is no control).
            let linkDrawn = await HostileNotificationsTests.open(nook, 1) {
                nook.scenes.nodes(owner: "notifications/n1").contains { $0["action"] == .string("link-1") }
            }
            #expect(linkDrawn, "body-hyperlinks: \(nook.texts(1))")
            let boldDrawn = nook.scenes.nodes(owner: "notifications/n1").contains {
                $0["slot"] == .string("expanded") && $0["text"] == .string(" 42") && $0["font_weight"] == .string("bold")
            }
            #expect(boldDrawn, "body-markup: \(nook.texts(1))")
            let link = try await Self.nookctl(nook, ["press", "notifications/n1", "link-1"])
            #expect(link.status == 0, "\(link.stderr)")
            #expect(await eventually { stubs.lines("xdg-open") == ["https://example.com/log"] }, "body-hyperlinks: \(stubs.lines("xdg-open"))\n\(nook.bridge.log)")
            let press = try await Self.nookctl(nook, ["press", "notifications/n1", "ok"])
            #expect(press.status == 0, "\(press.stderr)")
            #expect(await eventually { nook.signals.invoked.contains(Invoked(id: 1, key: "ok")) }, "actions: \(nook.signals.invoked)")
            let expiring = try await nook.notifySend(["-p", "-t", "300", "-a", "Clock", "Tea", "ready"])
            #expect(expiring.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2")
            #expect(await eventually { nook.signals.closed.contains(Closed(id: 2, reason: 1)) })
            #expect(await eventually { ((try? await Self.nookctl(nook, ["notifications", "list", "--json"]))?.stdout ?? "").contains("\"summary\":\"Tea\"") },
                    "persistence")
            await nook.stop()
        }
    }

    @Test func withoutSoundOrHistoryCapabilitiesLeaveSoundAndPersistenceOut() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let stubs = try Stubs(temp, commands: ["canberra-gtk-play"])
        try await PrivateBus.with { bus in
            let nook = try await Self.start(bus, temp, environment: ["PATH": stubs.path], arguments: ["--no-sound", "--history", "0"])
            let capabilities = try await Self.gdbus(nook, "GetCapabilities", [])
            #expect(capabilities.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == "(['actions', 'body', 'body-hyperlinks', 'body-markup', 'icon-static'],)", "\(capabilities)")
            _ = try await nook.notifySend(["-t", "0", "-h", "string:sound-name:complete", "Quiet", "no sound"])
            _ = try await nook.notifySend(["-t", "0", "-h", "string:sound-name:bell", "Second", "the first was handled before it"])
            #expect(await eventually { nook.texts(2).contains("Second") })
            #expect(stubs.lines("canberra-gtk-play").isEmpty, "\(stubs.lines("canberra-gtk-play"))")
            await nook.stop()
        }
    }

    @Test func suppressSoundAndSoundFileArePlayedAsAsked() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let stubs = try Stubs(temp, commands: ["canberra-gtk-play"])
        let sound = temp.url.appendingPathComponent("ding.oga")
        try Data("OggS".utf8).write(to: sound)
        let fifo = temp.url.appendingPathComponent("fifo.oga")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        try await PrivateBus.with { bus in
            let nook = try await Self.start(bus, temp, environment: ["PATH": stubs.path])
            _ = try await nook.notifySend(["-t", "0", "-h", "string:sound-name:bell", "-h", "boolean:suppress-sound:true", "One", "suppressed"])
            _ = try await nook.notifySend(["-t", "0", "-h", "string:sound-file:\(fifo.path)", "Two", "a FIFO is not played"])
            _ = try await nook.notifySend(["-t", "0", "-h", "string:sound-file:file://\(sound.path)", "-h", "string:sound-name:bell", "Three", "file first"])
            #expect(await eventually { stubs.lines("canberra-gtk-play") == ["-f \(sound.path) -d Notification"] }, "\(stubs.lines("canberra-gtk-play"))\n\(nook.bridge.log)")
            #expect(nook.bridge.log.contains("notification 2: sound-file '\(fifo.path)' is a FIFO, not a regular file; not played"), "\(nook.bridge.log)")
            await nook.stop()
        }
    }

    /// What volume and brightness scripts send: `x-canonical-private-synchronous` replaces
    /// the app's live notification in place (the same id, the same activity), peeking and
    /// sounding again; another app with the same value gets its own.
    @Test func theSynchronousHintReplacesInPlaceAsVolumeScriptsDo() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let stubs = try Stubs(temp, commands: ["canberra-gtk-play"])
        try await PrivateBus.with { bus in
            let nook = try await Self.start(bus, temp, environment: ["PATH": stubs.path])
            let hint = ["-h", "string:x-canonical-private-synchronous:volume", "-h", "string:sound-name:audio-volume-change", "-h", "int:value:30"]
            let first = try await nook.notifySend(["-p", "-t", "0", "-a", "volume"] + hint + ["Volume", "30%"])
            #expect(first.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(first)")
            #expect(await eventually { stubs.lines("canberra-gtk-play").count == 1 })
            let second = try await nook.notifySend(["-p", "-t", "0", "-a", "volume"] + hint + ["Volume", "60%"])
            #expect(second.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(second)")
            #expect(await eventually { nook.texts(1).contains("60%") }, "\(nook.texts(1))")
            #expect(await eventually { stubs.lines("canberra-gtk-play").count == 2 }, "\(stubs.lines("canberra-gtk-play"))")
            #expect(try await nook.observer.activities() == ["notifications/n1"])
            #expect(nook.signals.closed.isEmpty, "\(nook.signals.closed)")
            let other = try await nook.notifySend(["-p", "-t", "0", "-a", "brightness"] + hint + ["Brightness", "40%"])
            #expect(other.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2", "\(other)")
            await nook.stop()
        }
    }

    /// nookd's presentations as `StateChanged` announces them, each with when it arrived.
    final class Presentations: Sendable {
        let connection: BusConnection
        /// `at`: `DispatchTime`'s uptime in nanoseconds.
        private let seen = Locked<[(presentation: String, activity: String, at: UInt64)]>([])
        init(_ bus: PrivateBus) async throws {
            connection = try await BusConnection.connect(to: .address(bus.address))
            _ = try await connection.addMatch(MatchRule(interface: "org.nook.Nook1.Control", member: "StateChanged")) { [seen] signal in
                guard let state = try? Vardict(signal.arguments[0]), case .string(let presentation)? = state["presentation"] else { return }
                let activity = { if case .string(let activity)? = state["activity"] { activity } else { "" } }()
                let now = DispatchTime.now().uptimeNanoseconds
                seen.withLock { $0.append((presentation, activity, now)) }
            }
        }
        var all: [(presentation: String, activity: String, at: UInt64)] { seen.withLock { $0 } }
        func peeked(at activity: String) -> Bool {
            seen.withLock { seen in seen.contains { $0.presentation == "peek" && $0.activity == activity } }
        }
        private let marked = Locked<UInt64?>(nil)
        /// Marks now, and returns it.
        func mark() -> UInt64 {
            let now = DispatchTime.now().uptimeNanoseconds
            marked.withLock { $0 = now }
            return now
        }
        /// When the first presentation other than a peek arrived after the mark.
        var leftPeekAfterMark: UInt64? {
            guard let mark = marked.withLock({ $0 }) else { return nil }
            return seen.withLock { seen in seen.first { $0.at > mark && $0.presentation != "peek" }?.at }
        }
        func close() async { await connection.close() }
    }

    /// A synchronous replacement peeks again for a whole `--peek-seconds`: the first peek's
    /// end does not cut the second one short (a volume key held for longer than a peek).
    /// Only a lower bound is checked: however loaded the machine, the peek cannot end sooner
    /// than `--peek-seconds` after the replacement was sent.
    @Test func aSynchronousReplacementPeeksForAWholePeekAgain() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nook = try await Self.start(bus, temp, environment: [:], arguments: ["--peek-seconds", "8"])
            let presentations = try await Presentations(bus)
            let hint = ["-h", "string:x-canonical-private-synchronous:volume"]
            _ = try await nook.notifySend(["-t", "0", "-a", "volume"] + hint + ["Volume", "30%"])
            // No closure inside a macro's argument in this test: Swift 6.3.1 named one inside
            // `#expect(await eventually {...})`'s expansion and one outside alike, and ran the wrong one.
            let peeked = await eventually { presentations.peeked(at: "n1") }
            #expect(peeked, "\(presentations.all)")
            // The scenario, not a wait for a condition: the replacement comes half way through the
            // first peek. (With 2 s peeks and 1.2 s here, a machine at load 15 saw the first peek
            // end before the replacement reached the bridge: 4 s of margin now.)
            try await Task.sleep(for: .seconds(4))
            let replaced = presentations.mark()
            let second = try await nook.notifySend(["-p", "-t", "0", "-a", "volume"] + hint + ["Volume", "60%"])
            #expect(second.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
            let ended = await eventually { presentations.leftPeekAfterMark != nil }
            #expect(ended, "the peek never ended: \(presentations.all)")
            let end = try #require(presentations.leftPeekAfterMark)
            #expect(end - replaced >= 7_950_000_000, "the peek ended \(Double(end - replaced) / 1e9) s after the replacement: \(presentations.all)")
            await presentations.close()
            await nook.stop()
        }
    }

    /// python3-gi's libnotify binding: `desktop-entry` gives the app's name and icon from its
    /// `.desktop` file under `XDG_DATA_DIRS`, and a `transient` one never reaches the history.
    @Test func desktopEntryGivesNameAndIconAndTransientSkipsTheHistory() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let data = temp.url.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data.appendingPathComponent("applications"), withIntermediateDirectories: true)
        try "[Desktop Entry]\nType=Application\nName=Example Mail\nIcon=mail-unread\nExec=true\n"
            .write(to: data.appendingPathComponent("applications/org.example.Mail.desktop"), atomically: true, encoding: .utf8)
        try await PrivateBus.with { bus in
            let nook = try await Self.start(bus, temp, environment: ["XDG_DATA_DIRS": data.path, "XDG_DATA_HOME": temp.url.appendingPathComponent("none").path])
            var environment = nook.environment
            environment["XDG_DATA_DIRS"] = "/usr/share"
            let sent = try await Tools.run("/usr/bin/python3", ["-c", """
                import gi
                gi.require_version("Notify", "0.7")
                from gi.repository import Notify, GLib
                Notify.init("mailer")
                n = Notify.Notification.new("New mail", "From <b>Ada</b>", "")
                n.set_hint("desktop-entry", GLib.Variant("s", "org.example.Mail"))
                n.set_timeout(0)
                n.show()
                t = Notify.Notification.new("Copied", "to the clipboard", "")
                t.set_hint("transient", GLib.Variant("b", True))
                t.set_timeout(300)
                t.show()
                k = Notify.Notification.new("Kept", "in the history", "")
                k.set_timeout(300)
                k.show()
                print("sent")
                """], environment: environment)
            #expect(sent.stdout.contains("sent"), "\(sent.stderr)")
            #expect(await eventually { nook.scenes.nodes(owner: "notifications/n1").contains { $0["uri"] == .string("mail-unread") } },
                    "\(nook.scenes.nodes(owner: "notifications/n1"))\n\(nook.bridge.log)")
            #expect(await eventually { nook.signals.closed.contains(Closed(id: 2, reason: 1)) && nook.signals.closed.contains(Closed(id: 3, reason: 1)) },
                    "\(nook.signals.closed)")
            // Opened once the others have gone, so no peek of theirs takes the nook from it.
            let named = await HostileNotificationsTests.open(nook, 1) { nook.texts(1).contains("Example Mail") }
            #expect(named, "\(nook.texts(1))\n\(nook.scenes.causes)")
            let listed = try await Self.nookctl(nook, ["notifications", "list", "--json"])
            #expect(listed.stdout.contains("\"summary\":\"Kept\""), "\(listed.stdout)")
            #expect(!listed.stdout.contains("Copied"), "a transient notification reached the history: \(listed.stdout)")
            await nook.stop()
        }
    }

    /// `NotificationClosed`'s reason on each path, as `dbus-monitor` prints it: 1 expired,
    /// 2 dismissed by a person (`nookctl end`), 3 `CloseNotification`, 4 the bridge leaving.
    @Test func eachWayOfClosingSendsItsReason() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nook = try await Self.start(bus, temp, environment: [:])
            let output = temp.url.appendingPathComponent("dbus-monitor.out")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            let monitor = Process()
            monitor.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-monitor")
            monitor.arguments = ["--address", bus.address, "interface='org.freedesktop.Notifications',member='NotificationClosed'"]
            monitor.standardOutput = try FileHandle(forWritingTo: output)
            monitor.standardError = FileHandle.nullDevice
            try monitor.run()
            defer { if monitor.isRunning { kill(monitor.processIdentifier, SIGKILL) } }
            @Sendable func closes() -> [String] {
                let lines = ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                return lines.indices.compactMap { index in
                    guard lines[index].hasSuffix("member=NotificationClosed"), index + 2 < lines.count else { return nil }
                    return lines[index + 1] + " " + lines[index + 2]
                }
            }
            // dbus-monitor is listening once it sees a first NotificationClosed: keep posting
            // and closing one until it does.
            // Every closure of this test inside a macro's argument: Swift 6.3.1 named a closure
            // inside `#expect`'s expansion and one outside alike and ran the wrong one.
            try #require(await eventually {
                _ = try? await nook.python("notifications.CloseNotification(notifications.Notify('probe', 0, '', 'probe', '', [], {}, 0))")
                return !closes().isEmpty
            }, "dbus-monitor printed nothing")
            let before = closes().count
            let expired = try await nook.notifySend(["-p", "-t", "300", "Expires", "soon"])
            let expiredID = expired.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(await eventually { closes().contains("uint32 \(expiredID) uint32 1") }, "\(closes())")
            let dismissed = try await nook.notifySend(["-p", "-t", "0", "Dismissed", "by a person"])
            let dismissedID = dismissed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(await eventually { (try? await nook.observer.activities())?.contains("notifications/n\(dismissedID)") == true })
            let end = try await Self.nookctl(nook, ["end", "notifications/n\(dismissedID)"])
            #expect(end.status == 0, "\(end.stderr)")
            #expect(await eventually { closes().contains("uint32 \(dismissedID) uint32 2") }, "\(closes())")
            let called = try await Self.gdbus(nook, "Notify", ["App", "0", "", "Called", "closed by its app", "[]", "{}", "0"])
            let calledID = called.stdout.split(separator: " ").last.map { $0.filter(\.isNumber) } ?? ""
            // gdbus's connection is gone: the close comes from python-dbus, which did not send it, so it is refused...
            let refused = try await Self.gdbus(nook, "CloseNotification", [calledID])
            #expect(refused.status != 0, "another connection closed it: \(refused)")
            // ...and closing it from the connection that sends it works: reason 3.
            let closedByCall = try await nook.python("""
                id = notifications.Notify('App', 0, '', 'Called', 'closed by its app', [], {}, 0)
                notifications.CloseNotification(id)
                print(id)
                """)
            let closedID = closedByCall.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(await eventually { closes().contains("uint32 \(closedID) uint32 3") }, "\(closes())")
            let leaving = try await nook.notifySend(["-p", "-t", "0", "Live", "when the bridge leaves"])
            let leavingID = leaving.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(await nook.bridge.stop(SIGTERM) == 0, "\(nook.bridge.log)")
            #expect(await eventually { closes().contains("uint32 \(leavingID) uint32 4") }, "\(closes())")
            #expect(closes().count > before)
            await nook.scenes.close()
            await nook.observer.close()
            await nook.signals.close()
            await nook.nookd.stop()
        }
    }
}
