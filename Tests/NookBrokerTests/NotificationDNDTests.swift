import Foundation
import NookBus
import NookCore
import NookNotifications
import NookTestSupport
import Synchronization
import Testing

/// Do not disturb (issue 40, part 2) with real processes: `nookctl dnd`, Debian's
/// `notify-send`, the real nook-notifications and nookd on a private bus. Peeks are seen in
/// nookd's `StateChanged` broadcasts (`presentation` `peek`), which carry every presentation
/// that lasts a 50 ms coalescing window; the bridge peeks for `--peek-seconds` 60.
@Suite(.serialized) struct NotificationDNDTests {
    typealias Fixture = NotificationsBridgeTests.Fixture

    static func nookctl(_ bus: PrivateBus, _ arguments: [String]) async throws -> Tools.Result {
        try await NotificationHistoryTests.nookctl(bus, arguments)
    }

    /// `dnd status --json`, parsed.
    static func status(_ bus: PrivateBus) async -> [String: Any]? {
        guard let result = try? await nookctl(bus, ["dnd", "status", "--json"]), result.status == 0 else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any]
    }

    /// The activities nookd's `StateChanged` said the nook peeked at, in order.
    final class Peeks: Sendable {
        let connection: BusConnection
        private let seen = Locked<[String]>([])
        init(_ bus: PrivateBus) async throws {
            connection = try await BusConnection.connect(to: .address(bus.address))
            _ = try await connection.addMatch(MatchRule(interface: "org.nook.Nook1.Control", member: "StateChanged")) { [seen] signal in
                guard let state = try? Vardict(signal.arguments[0]), state["presentation"] == .string("peek"),
                    case .string(let activity)? = state["activity"] else { return }
                seen.withLock { if $0.last != activity { $0.append(activity) } }
            }
        }
        var activities: [String] { seen.withLock { $0 } }
        func close() async { await connection.close() }
    }

    @Test func withDoNotDisturbOnNormalNotificationsDoNotPeekAndACriticalOneDoes() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nook = try await Fixture.start(bus, temp, bridgeArguments: ["--peek-seconds", "60", "--default-timeout", "3600"])
            let peeks = try await Peeks(bus)
            // Off: a normal one peeks (the watcher sees peeks at all).
            _ = try await nook.notifySend(["Before", "dnd"])
            #expect(await eventually { peeks.activities == ["n1"] }, "\(peeks.activities)")

            let on = try await Self.nookctl(bus, ["dnd", "on"])
            #expect(on.status == 0 && on.stdout == "on until turned off, 0 arrived\n", "\(on.stdout) \(on.stderr)")
            for n in 1...20 {
                let posted = try await nook.notifySend(["-a", "Chat", "Message \(n)", "while busy"])
                #expect(posted.status == 0, "\(posted.stderr)")
            }
            // All 20 kept, as activities (capsules), and counted; besides them, the bell (`dnd`).
            let held = await eventually { (try? await nook.observer.activities())?.filter { $0 != "notifications/dnd" }.count == 21 }
            let seen = try? await nook.observer.activities()
            #expect(held, "\(String(describing: seen))")
            let counted = await eventually { await Self.status(bus)?["arrived"] as? Int == 20 }
            let status = await Self.status(bus)
            #expect(counted, "\(String(describing: status))")
            // A critical one still peeks; it is the first peek since n1, so none of the 20 peeked.
            _ = try await nook.notifySend(["-u", "critical", "Disk full", "critical still peeks"])
            #expect(await eventually { peeks.activities.count == 2 }, "\(peeks.activities)")
            #expect(peeks.activities == ["n1", "n22"], "\(peeks.activities)")
            #expect(await Self.status(bus)?["arrived"] as? Int == 20)

            let off = try await Self.nookctl(bus, ["dnd", "toggle"])
            #expect(off.stdout == "off\n", "\(off.stdout) \(off.stderr)")
            _ = try await nook.notifySend(["After", "dnd"])
            #expect(await eventually { peeks.activities.last == "n23" }, "\(peeks.activities)")
            await peeks.close()
            await nook.stop()
        }
    }

    @Test func doNotDisturbForOneSecondEndsByItself() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nook = try await Fixture.start(bus, temp)
            let on = try await Self.nookctl(bus, ["dnd", "on", "--for", "1s", "--json"])
            let state = try #require((try? JSONSerialization.jsonObject(with: Data(on.stdout.utf8))) as? [String: Any], "\(on.stdout) \(on.stderr)")
            #expect(state["on"] as? Bool == true)
            let now = Int(Date().timeIntervalSince1970 * 1e6)
            let until = state["until"] as? Int ?? 0
            #expect(until > now - 30_000_000 && until <= now + 1_000_000, "\(until) against \(now)")
            // The bridge's timer turns it off (logged), with no call from here.
            #expect(await eventually { nook.bridge.log.contains("do not disturb ended by itself") }, "\(nook.bridge.log)")
            #expect(await Self.status(bus)?["on"] as? Bool == false)
            // Bounds: --for is 1s...7d.
            let long = try await Self.nookctl(bus, ["dnd", "on", "--for", "169h"])
            #expect(long.status == 2 && long.stderr.contains("1s to 7d"), "\(long.stderr)")
            // The interface names the bad key to other clients.
            let raw = try await nook.python("""
                ctl = dbus.Interface(bus.get_object("org.freedesktop.Notifications", "/org/nook/Notifications1"), "org.nook.Notifications1")
                try:
                    ctl.SetDoNotDisturb("on", {"duration": dbus.Double(0.5)})
                except dbus.exceptions.DBusException as error:
                    print(error.get_dbus_name(), error.get_dbus_message())
                """)
            #expect(raw.stdout.contains("InvalidArgs") && raw.stdout.contains("duration"), "\(raw.stdout) \(raw.stderr)")
            await nook.stop()
        }
    }

    @Test func doNotDisturbSurvivesARestartOfTheBridge() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nook = try await Fixture.start(bus, temp)
            #expect(try await Self.nookctl(bus, ["dnd", "on", "--for", "2h"]).status == 0)
            _ = try await nook.notifySend(["-t", "0", "Counted", "once"])
            #expect(await eventually { await Self.status(bus)?["arrived"] as? Int == 1 })
            let before = await Self.status(bus)
            let file = Fixture.bridgeState(temp).appendingPathComponent(NotificationBridge.dndFileName).path
            #expect(await eventually { (try? String(contentsOfFile: file, encoding: .utf8))?.contains("\"arrived\":1") == true })
            #expect(NotificationHistoryTests.mode(file) == 0o600)
            _ = await nook.bridge.stop(SIGKILL)
            let bridge = try await Fixture.startBridge(bus, temp)
            let after = await Self.status(bus)
            #expect(after?["on"] as? Bool == true)
            #expect(after?["until"] as? Int == before?["until"] as? Int)
            #expect(after?["arrived"] as? Int == 1)
            let text = try await Self.nookctl(bus, ["dnd", "status"])
            #expect(text.stdout.hasPrefix("on until ") && text.stdout.hasSuffix(", 1 arrived\n"), "\(text.stdout)")
            #expect(await bridge.stop(SIGTERM) == 0, "\(bridge.log)")
            await nook.scenes.close()
            await nook.observer.close()
            await nook.signals.close()
            await nook.nookd.stop()
        }
    }
    @Test func waybarShowsDoNotDisturbAndItsCounterAsTheyChange() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nook = try await Fixture.start(bus, temp)
            let follow = try PackageProcess("nookctl", ["--address", bus.address, "status", "--follow", "--format", "waybar"], logDirectory: temp.url)
            // The first line, then one per change of nookd's state or of do not disturb.
            #expect(await eventually { follow.log.contains("\"text\"") }, "\(follow.log)")
            #expect(!follow.log.contains("DND"))
            #expect(try await Self.nookctl(bus, ["dnd", "on"]).status == 0)
            #expect(await eventually { follow.log.contains("\"text\": \"DND\"") }, "\(follow.log)")
            _ = try await nook.notifySend(["-t", "0", "-a", "Chat", "Quiet", "please"])
            _ = try await nook.notifySend(["-t", "0", "-a", "Chat", "Still", "quiet"])
            #expect(await eventually { follow.log.contains("DND 2\"") }, "\(follow.log)")
            #expect(follow.log.contains("Do not disturb: 2 arrived"))
            let once = try await Self.nookctl(bus, ["status", "--format", "waybar"])
            #expect(once.stdout.contains("DND 2\""), "\(once.stdout)")
            #expect(try await Self.nookctl(bus, ["dnd", "off"]).status == 0)
            #expect(await eventually { follow.log.split(separator: "\n").last.map { !$0.contains("DND") } == true }, "\(follow.log)")
            follow.signal(SIGTERM)
            _ = await follow.waitForExit()
            await nook.stop()
        }
    }
}
